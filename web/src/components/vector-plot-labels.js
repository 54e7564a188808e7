// Where the vector plot puts its labels (components/vector-plot.js). Pure
// geometry in viewBox units, no DOM, so that it can be tested in Node.
//
// Each label goes near its arrow's tip, where it is farthest from every tip and
// shaft, and never on top of a label placed before it or of a box to avoid (the
// grid's tick labels). Coincident tips are common: q = k1 and v3 = k3 in the
// worked example, and all three keys at the origin once q is 10^30 long, so the
// candidates lie on rings around the tip, the nearest ring first.

export const LABEL_HEIGHT = 15;                 // .vp-label is 15px
export const labelWidth = (text) => 8.2 * text.length + 4;   // bold italic 15px (measured: "q" 10.9, "k₁ 0.50" 59.2)

// Whether two boxes { cx, cy, w, h } (centre and size) overlap, with `gap` to spare.
export function boxesOverlap(a, b, gap = 0) {
  return Math.abs(a.cx - b.cx) < (a.w + b.w) / 2 + gap && Math.abs(a.cy - b.cy) < (a.h + b.h) / 2 + gap;
}

const RINGS = 3;
const ANGLES = 16;

// items: [{ v, x0, y0, x1, y1 }] (v.label the text, (x0, y0) -> (x1, y1) the
// arrow in viewBox units); size: the viewBox side; avoid: boxes not to cover.
// Sets v.labelAt = [cx, cy] (the label's centre) on every labelled v, and
// returns the boxes of the labels placed.
export function placeLabels(items, { size, avoid = [] }) {
  const shafts = [];   // points along every arrow, every 12 units
  for (const { x0, y0, x1, y1 } of items) {
    const steps = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / 12));
    for (let s = 0; s <= steps; s++) shafts.push([x0 + ((x1 - x0) * s) / steps, y0 + ((y1 - y0) * s) / steps]);
  }
  const placed = [];
  const priority = ({ v }) => (v.draggable ? 0 : v.role === 'o' ? 1 : 2);
  for (const { v, x0, y0, x1, y1 } of [...items].sort((a, b) => priority(a) - priority(b))) {
    if (!v.label) continue;
    const w = labelWidth(v.label);
    const h = LABEL_HEIGHT;
    const ahead = Math.hypot(x1 - x0, y1 - y0) < 1 ? -Math.PI / 4 : Math.atan2(y1 - y0, x1 - x0);
    let best = null;
    for (let ring = 1; ring <= RINGS; ring++) {
      for (let k = 0; k < ANGLES; k++) {
        const angle = ahead + (k * 2 * Math.PI) / ANGLES;
        // An ellipse around the tip: the label's half width plus 10 across, 16 up and down, per ring.
        const box = { cx: x1 + Math.cos(angle) * (10 + w / 2) * ring, cy: y1 + Math.sin(angle) * 16 * ring, w, h };
        if (box.cx - w / 2 < 2 || box.cx + w / 2 > size - 2 || box.cy - h / 2 < 2 || box.cy + h / 2 > size - 2) continue;
        if (placed.some((p) => boxesOverlap(box, p, 2)) || avoid.some((a) => boxesOverlap(box, a, 2))) continue;
        let clearance = Infinity;   // from the nearest shaft point to the box
        for (const [ox, oy] of shafts) {
          const dx = Math.max(0, Math.abs(ox - box.cx) - w / 2);
          const dy = Math.max(0, Math.abs(oy - box.cy) - h / 2);
          clearance = Math.min(clearance, Math.hypot(dx, dy));
        }
        // Prefer the continuation of the arrow, then the nearest ring.
        const turn = Math.min(k, ANGLES - k);
        const score = Math.min(clearance, 14) - turn * 0.6 - (ring - 1) * 8;
        if (!best || score > best.score) best = { score, box };
      }
      if (best && best.score > 0) break;   // a clear place on this ring: no need to go farther
    }
    const box = best?.box ?? { cx: x1, cy: Math.max(2 + h / 2, y1 - 12), w, h };
    v.labelAt = [box.cx, box.cy];
    placed.push(box);
  }
  return placed;
}
