// Vectors in the plane as arrows (SVG). One vector may be draggable: with a
// mouse or a finger (pointer events), or with the arrow keys once focused
// (Shift: bigger steps). Coordinates are in data units; y points up.
import { svg, h, uid } from './dom.js';
import { formatNumber } from '../lib/format.js';
import './vector-plot.css';

const SIZE = 400;       // viewBox side
const PAD = 18;         // room for labels at the edges
const HANDLE_R = 26;    // touch target radius (viewBox units)

// The smallest half-width, in steps of 0.5, that shows every vector with a margin.
export function plotRange(vectors, minimum = 2) {
  let r = minimum;
  for (const v of vectors) r = Math.max(r, Math.abs(v.x) * 1.15, Math.abs(v.y) * 1.15);
  return Math.ceil(r * 2) / 2;
}

export function vectorPlot({ title, description, handleLabel, valueText, onMove, hull = false }) {
  const titleId = uid('plot-title');
  const descId = uid('plot-desc');
  const root = svg('svg', {
    class: 'vector-plot', viewBox: `0 0 ${SIZE} ${SIZE}`, role: 'group',
    'aria-labelledby': titleId, 'aria-describedby': descId,
  },
  svg('title', { id: titleId, text: title }),
  svg('desc', { id: descId, text: description ?? '' }));
  const gridLayer = svg('g', { class: 'vp-grid', 'aria-hidden': 'true' });
  const hullLayer = svg('g', { class: 'vp-hull', 'aria-hidden': 'true' });
  const arrowLayer = svg('g', { class: 'vp-arrows', 'aria-hidden': 'true' });
  const handleLayer = svg('g', { class: 'vp-handles' });
  root.append(gridLayer, hullLayer, arrowLayer, handleLayer);

  let range = 2;
  let frozen = false;   // keep the scale still while dragging
  let vectors = [];
  let handle = null;
  let dragId = null;

  const sx = (x) => PAD + ((x + range) / (2 * range)) * (SIZE - 2 * PAD);
  const sy = (y) => SIZE - PAD - ((y + range) / (2 * range)) * (SIZE - 2 * PAD);
  const toData = (px, py) => [
    ((px - PAD) / (SIZE - 2 * PAD)) * 2 * range - range,
    ((SIZE - PAD - py) / (SIZE - 2 * PAD)) * 2 * range - range,
  ];

  function drawGrid() {
    gridLayer.replaceChildren();
    const step = range > 4 ? 2 : range > 2.5 ? 1 : 0.5;
    for (let t = -Math.floor(range / step) * step; t <= range + 1e-9; t += step) {
      const major = Math.abs(t) < 1e-9;
      const integer = Math.abs(t - Math.round(t)) < 1e-9;
      const cls = major ? 'vp-axis' : integer ? 'vp-line' : 'vp-line vp-minor';
      gridLayer.append(
        svg('line', { class: cls, x1: sx(t), x2: sx(t), y1: sy(-range), y2: sy(range) }),
        svg('line', { class: cls, y1: sy(t), y2: sy(t), x1: sx(-range), x2: sx(range) }));
      if (integer && !major) {
        gridLayer.append(
          svg('text', { class: 'vp-tick', x: sx(t), y: sy(0) + 14, 'text-anchor': 'middle', text: String(t).replace('-', '\u2212') }),
          svg('text', { class: 'vp-tick', x: sx(0) - 6, y: sy(t) + 4, 'text-anchor': 'end', text: String(t).replace('-', '\u2212') }));
      }
    }
  }

  function arrow(v) {
    const x0 = sx(0); const y0 = sy(0);
    const x1 = sx(v.x); const y1 = sy(v.y);
    const len = Math.hypot(x1 - x0, y1 - y0);
    const g = svg('g', { class: ['vp-vector', `role-${v.role}`, v.dashed && 'is-dashed'], 'data-id': v.id });
    if (v.weight !== undefined) g.style.setProperty('--w', String(v.weight));
    if (len < 1) {
      g.append(svg('circle', { cx: x0, cy: y0, r: 4, class: 'vp-dot' }));
    } else {
      const ux = (x1 - x0) / len; const uy = (y1 - y0) / len;
      const head = Math.min(14, len * 0.6);
      const bx = x1 - ux * head; const by = y1 - uy * head;
      g.append(
        svg('line', { class: 'vp-shaft', x1: x0, y1: y0, x2: bx + ux * 2, y2: by + uy * 2 }),
        svg('polygon', { class: 'vp-head', points: `${x1},${y1} ${bx - uy * head * 0.45},${by + ux * head * 0.45} ${bx + uy * head * 0.45},${by - ux * head * 0.45}` }));
    }
    if (v.label && v.labelAt) {
      const [lx, ly] = v.labelAt;
      g.append(svg('text', {
        class: 'vp-label', x: lx, y: ly + 5, 'text-anchor': 'middle', text: v.label,
      }));
    }
    return g;
  }

  function draw() {
    if (!frozen) {
      const next = plotRange(vectors);
      if (next !== range) { range = next; drawGrid(); }
    }
    hullLayer.replaceChildren();
    if (hull) {
      const pts = vectors.filter((v) => v.role === 'v');
      if (pts.length >= 3) {
        hullLayer.append(svg('polygon', { class: 'vp-hull-shape', points: pts.map((v) => `${sx(v.x)},${sy(v.y)}`).join(' ') }));
      }
    }
    placeLabels(vectors.map((v) => ({ v, x0: sx(0), y0: sy(0), x1: sx(v.x), y1: sy(v.y) })));
    arrowLayer.replaceChildren(...vectors.filter((v) => !v.draggable).map(arrow),
      ...vectors.filter((v) => v.draggable).map(arrow));
    const target = vectors.find((v) => v.draggable);
    if (target) placeHandle(target);
  }

  function placeHandle(v) {
    if (!handle) {
      handle = svg('g', { class: `vp-handle role-${v.role}`, tabindex: '0', role: 'slider' });
      handle.append(svg('circle', { class: 'vp-handle-hit', r: HANDLE_R }), svg('circle', { class: 'vp-handle-dot', r: 7 }));
      handleLayer.append(handle);
      handle.addEventListener('pointerdown', startDrag);
      handle.addEventListener('keydown', onKey);
    }
    handle.setAttribute('transform', `translate(${sx(v.x)} ${sy(v.y)})`);
    handle.setAttribute('aria-label', handleLabel);
    handle.setAttribute('aria-valuetext', valueText(v.x, v.y));
    handle.dataset.id = v.id;
  }

  function pointerToData(event) {
    const m = root.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(m.inverse());
    const [x, y] = toData(p.x, p.y);
    const r = (t) => Math.round(Math.max(-range, Math.min(range, t)) * 100) / 100;
    return [r(x), r(y)];
  }

  function startDrag(event) {
    const target = vectors.find((v) => v.draggable);
    if (!target) return;
    event.preventDefault();
    dragId = target.id;
    frozen = true;
    root.classList.add('is-dragging');
    (event.currentTarget ?? root).setPointerCapture?.(event.pointerId);
    handle?.focus({ preventScroll: true });
    moveTo(event);
  }
  function moveTo(event) {
    if (dragId === null) return;
    const p = pointerToData(event);
    if (p) onMove(dragId, p[0], p[1]);
  }
  function endDrag() {
    if (dragId === null) return;
    dragId = null;
    frozen = false;
    root.classList.remove('is-dragging');
    draw();
  }
  root.addEventListener('pointermove', moveTo);
  root.addEventListener('pointerup', endDrag);
  root.addEventListener('pointercancel', endDrag);
  handleLayer.addEventListener('lostpointercapture', endDrag);
  // A click on the background moves the vector there, then drags.
  root.addEventListener('pointerdown', (event) => {
    if (event.target.closest('.vp-handle')) return;
    if (event.pointerType === 'touch') return;  // a finger on the background scrolls the page
    startDrag(event);
  });

  function onKey(event) {
    const target = vectors.find((v) => v.draggable);
    if (!target) return;
    const step = event.shiftKey ? 0.5 : 0.1;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const r = (t) => Math.round(t * 100) / 100;
    onMove(target.id, r(target.x + moves[event.key][0]), r(target.y + moves[event.key][1]));
  }

  drawGrid();
  const wrap = h('div', { class: 'vector-plot-wrap' }, root);
  return {
    el: wrap,
    update(next) { vectors = next; draw(); },
  };
}

// Puts each label near its arrow's tip where it is farthest from every tip,
// shaft and label placed so far (coincident vectors are common here: q = k1,
// v3 = k3 in the worked example), preferring the continuation of the arrow.
function placeLabels(items) {
  const obstacles = [];
  for (const { x0, y0, x1, y1 } of items) {
    const len = Math.hypot(x1 - x0, y1 - y0);
    const steps = Math.max(1, Math.ceil(len / 12));
    for (let s = 0; s <= steps; s++) obstacles.push([x0 + ((x1 - x0) * s) / steps, y0 + ((y1 - y0) * s) / steps]);
  }
  const priority = ({ v }) => (v.draggable ? 0 : v.role === 'o' ? 1 : 2);
  for (const item of [...items].sort((a, b) => priority(a) - priority(b))) {
    const { v, x0, y0, x1, y1 } = item;
    if (!v.label) continue;
    const width = 8 * v.label.length;
    const len = Math.hypot(x1 - x0, y1 - y0);
    const ahead = len < 1 ? -Math.PI / 4 : Math.atan2(y1 - y0, x1 - x0);
    let best = null;
    for (let k = 0; k < 16; k++) {
      const angle = ahead + (k * Math.PI) / 8;
      const rx = 10 + width / 2;
      const cx = x1 + Math.cos(angle) * rx;
      const cy = y1 + Math.sin(angle) * 16;
      if (cx - width / 2 < 2 || cx + width / 2 > SIZE - 2 || cy < 12 || cy > SIZE - 8) continue;
      let clearance = Infinity;
      for (const [ox, oy] of obstacles) {
        // distance from the obstacle to the label's box
        const dx = Math.max(0, Math.abs(ox - cx) - width / 2);
        const dy = Math.max(0, Math.abs(oy - cy) - 7);
        clearance = Math.min(clearance, Math.hypot(dx, dy));
      }
      const turn = Math.min(k, 16 - k);
      const score = Math.min(clearance, 14) - turn * 0.6;
      if (!best || score > best.score) best = { score, cx, cy };
    }
    v.labelAt = best ? [best.cx, best.cy] : [x1, y1 - 12];
    // The placed label becomes an obstacle for the next ones.
    for (let dx = -width / 2; dx <= width / 2; dx += 8) obstacles.push([v.labelAt[0] + dx, v.labelAt[1]]);
  }
}

// "(1.00, 0.00)"-style text for screen readers.
export const pointText = (x, y) => `(${formatNumber(x, 2)}, ${formatNumber(y, 2)})`;
