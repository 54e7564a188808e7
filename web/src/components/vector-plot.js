// Vectors in the plane as arrows (SVG). One vector may be draggable: with a
// mouse or a finger (pointer events), or with the arrow keys once focused
// (Shift: bigger steps). Coordinates are in data units; y points up.
import { svg, h, uid } from '../lib/dom.js';
import { formatNumber, formatPowerOfTen, formatTrimmed } from '../lib/format.js';
import { placeLabels } from './vector-plot-labels.js';
import './vector-plot.css';

const SIZE = 400;       // viewBox side
const PAD = 18;         // room for labels at the edges
const HANDLE_R = 26;    // touch target radius (viewBox units)
const TICK_HEIGHT = 11; // .vp-tick is 11px
const tickWidth = (text) => 6.2 * text.length;   // tabular digits at 11px

// The square window (in data units) that shows the origin and every vector
// with a margin, on a grid of 0.5: { x0, y0, span }.
export function plotWindow(vectors, { margin = 0.6, minSpan = 3 } = {}) {
  let xmin = 0; let xmax = 0; let ymin = 0; let ymax = 0;
  for (const v of vectors) {
    if (!Number.isFinite(v.x) || !Number.isFinite(v.y)) continue;
    xmin = Math.min(xmin, v.x); xmax = Math.max(xmax, v.x);
    ymin = Math.min(ymin, v.y); ymax = Math.max(ymax, v.y);
  }
  const span = Math.ceil(Math.max(minSpan, xmax - xmin + 2 * margin, ymax - ymin + 2 * margin) * 2) / 2;
  const lo = (min, max) => Math.floor(((min + max) / 2 - span / 2) * 2) / 2;
  return { x0: lo(xmin, xmax), y0: lo(ymin, ymax), span };
}

// The grid spacing for a window `span` wide: 0.5 up to a span of 4.5 (minor
// lines at odd halves), then 1, 2, 5, 10, 20, ... so that a window of any size
// (q = (1000, 0) gives a span of a thousand) has about 3 to 8 lines per axis.
export function gridStep(span) {
  if (span <= 4.5) return 0.5;
  if (span <= 8) return 1;
  const raw = span / 6;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= raw);
  return Math.max(2, step);
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

  let view = { x0: -1, y0: -1, span: 3 };
  let frozen = false;   // keep the window still while dragging
  let vectors = [];
  let handle = null;
  let dragId = null;
  let ticks = [];   // the boxes of the grid's labels, for the vector labels to avoid

  const scale = () => (SIZE - 2 * PAD) / view.span;
  const sx = (x) => PAD + (x - view.x0) * scale();
  const sy = (y) => SIZE - PAD - (y - view.y0) * scale();
  const toData = (px, py) => [view.x0 + (px - PAD) / scale(), view.y0 + (SIZE - PAD - py) / scale()];

  function drawGrid() {
    gridLayer.replaceChildren();
    ticks = [];
    const { x0, y0, span } = view;
    const step = gridStep(span);
    const label = (t) => (Math.abs(t) >= 1e5 ? formatPowerOfTen(t, 2) : formatTrimmed(t, 2));
    const labelled = (t) => Math.abs(t / step / 2 - Math.round(t / step / 2)) < 1e-9 || step >= 1;
    let lastRight = -Infinity;   // where the last x label ended: a label that would touch it is left out
    for (let t = Math.ceil(x0 / step) * step; t <= x0 + span + step * 1e-9; t += step) {
      const axis = Math.abs(t) < step * 1e-9;
      const major = labelled(t);
      gridLayer.append(svg('line', { class: axis ? 'vp-axis' : major ? 'vp-line' : 'vp-line vp-minor', x1: sx(t), x2: sx(t), y1: sy(y0), y2: sy(y0 + span) }));
      if (major && !axis) {
        // Under its line, moved in from an edge it would cross (1.0 x 10^30 at the right).
        const text = label(t);
        const w = tickWidth(text);
        const cx = Math.min(SIZE - 2 - w / 2, Math.max(2 + w / 2, sx(t)));
        if (cx - w / 2 >= lastRight + 4) {
          const baseline = Math.min(SIZE - 4, Math.max(12, sy(0) + 14));
          gridLayer.append(svg('text', { class: 'vp-tick', x: cx, y: baseline, 'text-anchor': 'middle', text }));
          ticks.push({ cx, cy: baseline - 4, w, h: TICK_HEIGHT });
          lastRight = cx + w / 2;
        }
      }
    }
    for (let t = Math.ceil(y0 / step) * step; t <= y0 + span + step * 1e-9; t += step) {
      const axis = Math.abs(t) < step * 1e-9;
      const major = labelled(t);
      gridLayer.append(svg('line', { class: axis ? 'vp-axis' : major ? 'vp-line' : 'vp-line vp-minor', y1: sy(t), y2: sy(t), x1: sx(x0), x2: sx(x0 + span) }));
      // Left of the y axis when there is room for the label, else right of it.
      const text = label(t);
      const w = tickWidth(text);
      const left = sx(0) - 6 >= 8 * text.length;   // room for the label (8 per character, with margin)
      if (major && !axis) {
        const x = left ? sx(0) - 6 : Math.max(PAD, sx(0)) + 6;
        gridLayer.append(svg('text', { class: 'vp-tick', x, y: sy(t) + 4, 'text-anchor': left ? 'end' : 'start', text }));
        ticks.push({ cx: left ? x - w / 2 : x + w / 2, cy: sy(t), w, h: TICK_HEIGHT });
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
      const next = plotWindow(vectors);
      if (next.x0 !== view.x0 || next.y0 !== view.y0 || next.span !== view.span) { view = next; drawGrid(); }
    }
    hullLayer.replaceChildren();
    if (hull) {
      const pts = vectors.filter((v) => v.role === 'v');
      if (pts.length >= 3) {
        hullLayer.append(svg('polygon', { class: 'vp-hull-shape', points: pts.map((v) => `${sx(v.x)},${sy(v.y)}`).join(' ') }));
      }
    }
    placeLabels(vectors.map((v) => ({ v, x0: sx(0), y0: sy(0), x1: sx(v.x), y1: sy(v.y) })), { size: SIZE, avoid: ticks });
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
      // A finger on the handle drags it instead of scrolling the page.
      // (touch-action: none is ignored on an SVG child by Chromium: an
      // emulated 40 px drag moved the handle 13 px and the page 48 px.)
      // Cancelling touchstart keeps the browser from starting to scroll.
      handle.addEventListener('touchstart', (event) => event.preventDefault(), { passive: false });
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
    const clamp = (t, lo) => Math.round(Math.max(lo, Math.min(lo + view.span, t)) * 100) / 100;
    return [clamp(x, view.x0), clamp(y, view.y0)];
  }

  function startDrag(event) {
    const target = vectors.find((v) => v.draggable);
    if (!target) return;
    event.preventDefault();
    dragId = target.id;
    frozen = true;
    root.classList.add('is-dragging');
    try {
      (event.currentTarget ?? root).setPointerCapture?.(event.pointerId);
    } catch {
      // not an active pointer (a synthetic event): dragging still works without capture
    }
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
  root.addEventListener('touchmove', (event) => { if (dragId !== null) event.preventDefault(); }, { passive: false });
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

// "(1.00, 0.00)"-style text for screen readers.
export const pointText = (x, y) => `(${formatNumber(x, 2)}, ${formatNumber(y, 2)})`;
