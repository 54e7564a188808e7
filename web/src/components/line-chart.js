// A line chart (SVG) for measured series against one variable, with linear or
// logarithmic axes, an HTML legend and a table alternative. The SVG is drawn at
// the width it is shown at (ResizeObserver), so its text stays legible from a
// phone to a desktop.
//
//   const chart = lineChart({ title, x: { scale: 'log', ticks: [4, 16, 64] },
//     y: { scale: 'linear', format }, series: [{ id: 'raw', label, color, marker: 'circle' }] });
//   chart.update({ series: { raw: [[4, 0.5], [16, 0.7]] }, references: [{ label, points, color }] });
// A point may carry its spread, [x, y, low, high]: a bar is drawn over it and
// the table shows "y (low–high)".
import { h, svg, setHTML, uid } from '../lib/dom.js';
import { formatFull, formatNumber } from '../lib/format.js';
// The table alternative is a .matrix, and its <details> is styled as .table-alt.
import './matrix.css';
import './heatmap.css';
import './line-chart.css';

const MARGIN = { top: 14, right: 16, bottom: 30, left: 52 };

// Linear ticks at 1, 2 or 5 times a power of ten, about `count` of them.
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= raw) ?? 10 * power;
  const ticks = [];
  for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

// Log ticks: the powers of ten in [lo, hi], with 2 and 5 between them when the
// range spans fewer than three decades. None unless 0 < lo <= hi < Infinity (a
// log axis has no place for 0: from 10^-Infinity the loop once pushed ticks until
// the array could hold no more, ~30 s and a RangeError).
export function logTicks(lo, hi) {
  const ticks = [];
  if (!(lo > 0 && lo <= hi && hi < Infinity)) return ticks;
  const first = Math.floor(Math.log10(lo));
  const last = Math.ceil(Math.log10(hi));
  const factors = last - first < 3 ? [1, 2, 5] : [1];
  for (let p = first; p <= last; p++) {
    for (const f of factors) {
      const t = f * 10 ** p;
      if (t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9)) ticks.push(Number(t.toPrecision(12)));
    }
  }
  return ticks;
}

// The domain that holds every value: padded for a linear axis, widened to whole
// decades for a log axis.
export function domainOf(values, { scale = 'linear', includeZero = false, min, max } = {}) {
  const finite = values.filter((v) => Number.isFinite(v) && (scale !== 'log' || v > 0));
  // Without a value to place: [0, 1], or on a log axis the decade [1, 10].
  let lo = min ?? (finite.length ? Math.min(...finite) : scale === 'log' ? 1 : 0);
  let hi = max ?? (finite.length ? Math.max(...finite) : scale === 'log' ? 10 : 1);
  if (scale === 'log') {
    if (min === undefined) lo = 10 ** Math.floor(Math.log10(lo));
    if (max === undefined) hi = 10 ** Math.ceil(Math.log10(hi));
    if (hi <= lo) hi = lo * 10;
    return [lo, hi];
  }
  if (includeZero) { lo = Math.min(0, lo); hi = Math.max(0, hi); }
  if (hi - lo < 1e-12) { lo -= 0.5; hi += 0.5; }
  const pad = (hi - lo) * 0.08;
  if (min === undefined && !(includeZero && lo === 0)) lo -= pad;
  if (max === undefined) hi += pad;
  return [lo, hi];
}

function markerShape(kind, x, y, size = 4) {
  switch (kind) {
    case 'square': return svg('rect', { x: x - size, y: y - size, width: 2 * size, height: 2 * size });
    case 'triangle': return svg('path', { d: `M${x} ${y - size * 1.2}L${x + size * 1.15} ${y + size * 0.85}L${x - size * 1.15} ${y + size * 0.85}Z` });
    case 'diamond': return svg('path', { d: `M${x} ${y - size * 1.3}L${x + size * 1.1} ${y}L${x} ${y + size * 1.3}L${x - size * 1.1} ${y}Z` });
    case 'none': return null;
    default: return svg('circle', { cx: x, cy: y, r: size });
  }
}

function swatch({ color, dash, marker }) {
  const icon = svg('svg', { class: 'lc-swatch', viewBox: '0 0 28 12', width: '28', height: '12', 'aria-hidden': 'true' },
    svg('line', { x1: 1, x2: 27, y1: 6, y2: 6, stroke: color, 'stroke-width': 2, 'stroke-dasharray': dash ?? undefined }));
  const m = markerShape(marker ?? 'none', 14, 6, 3.2);
  if (m) { m.setAttribute('fill', color); icon.append(m); }
  return icon;
}

export function lineChart({
  title, description, caption, x, y, series, height = 240, table = {}, className,
}) {
  const titleId = uid('chart-title');
  const descId = uid('chart-desc');
  const root = svg('svg', { class: 'lc-svg', role: 'img', 'aria-labelledby': titleId, 'aria-describedby': descId });
  const titleEl = svg('title', { id: titleId, text: title ?? '' });
  const descEl = svg('desc', { id: descId, text: description ?? '' });
  const plot = svg('g');
  root.append(titleEl, descEl, plot);

  const legend = h('ul', { class: 'legend lc-legend' });
  const yLabel = h('div', { class: 'lc-axis-label lc-y-label', 'aria-hidden': 'true', html: y.label ?? '' });
  const xLabel = h('div', { class: 'lc-axis-label lc-x-label', 'aria-hidden': 'true', html: x.label ?? '' });
  const frame = h('div', { class: 'lc-frame' }, root);

  let tableBody = null;
  let tableHead = null;
  let details = null;
  if (table !== false) {
    tableHead = h('tr');
    tableBody = h('tbody');
    details = h('details', { class: 'table-alt' },
      h('summary', { html: table.summary ?? 'Table' }),
      h('div', { class: 'matrix-scroll' },
        h('table', { class: 'matrix lc-table' },
          table.caption ? h('caption', { class: 'visually-hidden', html: table.caption }) : null,
          h('thead', {}, tableHead), tableBody)));
  }

  details?.addEventListener('toggle', () => drawTable());

  const el = h('figure', { class: ['lc', className] },
    caption ? h('figcaption', { class: 'lc-caption', html: caption }) : null,
    yLabel, frame, xLabel, legend, details);

  let data = { series: {}, references: [] };
  let width = 0;
  let measured = null;   // the frame's width, from the ResizeObserver
  let seriesDefs = series;

  let legendKey = null;
  function drawLegend() {
    // Rebuilt only when its entries change (a chart updated every frame keeps its legend).
    const key = JSON.stringify([seriesDefs.map((s) => s.label), (data.references ?? []).map((r) => r.label)]);
    if (key === legendKey) return;
    legendKey = key;
    legend.replaceChildren(
      ...seriesDefs.map((s) => h('li', {}, swatch(s), h('span', { html: s.label }))),
      ...(data.references ?? []).map((r) => h('li', { class: 'lc-ref-item' },
        swatch({ color: r.color ?? 'var(--ink-muted)', dash: r.dash ?? '5 4', marker: 'none' }), h('span', { html: r.label }))));
  }

  // The table is filled while it is open (and when it opens): a chart that
  // grows as a model trains does not rebuild a hidden table every frame.
  function drawTable() {
    if (!tableBody || !details.open) return;
    const xs = [...new Set(seriesDefs.flatMap((s) => (data.series[s.id] ?? []).map((p) => p[0])))].sort((a, b) => a - b);
    tableHead.replaceChildren(h('th', { scope: 'col', html: table.xHeader ?? x.label ?? '' }),
      ...seriesDefs.map((s) => h('th', { scope: 'col', html: s.label })));
    tableBody.replaceChildren(...xs.map((xv) => h('tr', {},
      h('th', { scope: 'row', text: (x.format ?? String)(xv) }),
      ...seriesDefs.map((s) => {
        const point = (data.series[s.id] ?? []).find((p) => p[0] === xv);
        const full = y.formatFull ?? formatFull;
        const spread = point?.length === 4 ? ` (${full(point[2])}\u2013${full(point[3])})` : '';
        return h('td', { class: 'num', text: point ? full(point[1]) + spread : '\u2014' });
      }))));
  }

  function draw() {
    // The width the ResizeObserver last measured: reading clientWidth here would
    // force a layout of the page in the middle of an update.
    width = Math.max(240, Math.round(measured ?? frame.clientWidth ?? 480) || 480);
    root.setAttribute('viewBox', `0 0 ${width} ${height}`);
    root.setAttribute('width', String(width));
    root.setAttribute('height', String(height));
    plot.replaceChildren();

    const all = [
      ...seriesDefs.flatMap((s) => data.series[s.id] ?? []),
      ...seriesDefs.flatMap((s) => (data.series[s.id] ?? []).filter((p) => p.length === 4).flatMap((p) => [[p[0], p[2]], [p[0], p[3]]])),
      ...(data.references ?? []).flatMap((r) => r.points),
    ];
    // Without data, only the axes are drawn, over the domains given for that case.
    if (all.length === 0 && !(x.domain && y.emptyDomain)) return;
    const xd = x.domain ?? domainOf(all.map((p) => p[0]), { scale: x.scale });
    const yd = data.yDomain ?? (all.length === 0 ? y.emptyDomain
      : domainOf(all.map((p) => p[1]), { scale: y.scale, includeZero: y.includeZero, min: y.min, max: y.max }));
    const left = MARGIN.left;
    const right = width - MARGIN.right;
    const top = MARGIN.top;
    const bottom = height - MARGIN.bottom;
    const tx = x.scale === 'log'
      ? (v) => left + ((Math.log(v) - Math.log(xd[0])) / (Math.log(xd[1]) - Math.log(xd[0]))) * (right - left)
      : (v) => left + ((v - xd[0]) / (xd[1] - xd[0])) * (right - left);
    const ty = y.scale === 'log'
      ? (v) => bottom - ((Math.log(v) - Math.log(yd[0])) / (Math.log(yd[1]) - Math.log(yd[0]))) * (bottom - top)
      : (v) => bottom - ((v - yd[0]) / (yd[1] - yd[0])) * (bottom - top);
    const inside = (p) => Number.isFinite(p[1]) && (y.scale !== 'log' || p[1] > 0) && (x.scale !== 'log' || p[0] > 0);

    // Grid and ticks.
    const grid = svg('g', { class: 'lc-grid', 'aria-hidden': 'true' });
    const yTicks = y.ticks ?? (y.scale === 'log' ? logTicks(yd[0], yd[1]) : niceTicks(yd[0], yd[1], height < 200 ? 3 : 4));
    for (const t of yTicks) {
      if (t < yd[0] - 1e-12 || t > yd[1] + 1e-12) continue;
      grid.append(
        svg('line', { class: 'lc-gridline', x1: left, x2: right, y1: ty(t), y2: ty(t) }),
        svg('text', { class: 'lc-tick', x: left - 6, y: ty(t) + 4, 'text-anchor': 'end', text: (y.format ?? ((v) => formatNumber(v, 2)))(t) }));
    }
    const xTicks = x.ticks ?? (x.scale === 'log' ? logTicks(xd[0], xd[1]) : niceTicks(xd[0], xd[1]));
    // On a narrow chart, label every other tick.
    const room = (right - left) / Math.max(1, xTicks.length - 1);
    const every = room < 34 ? 2 : 1;
    xTicks.forEach((t, i) => {
      grid.append(svg('line', { class: 'lc-gridline lc-gridline-x', x1: tx(t), x2: tx(t), y1: top, y2: bottom }));
      if (i % every === 0 || i === xTicks.length - 1) {
        grid.append(svg('text', { class: 'lc-tick', x: tx(t), y: bottom + 18, 'text-anchor': 'middle', text: (x.format ?? String)(t) }));
      }
    });
    grid.append(svg('line', { class: 'lc-axis', x1: left, x2: right, y1: bottom, y2: bottom }),
      svg('line', { class: 'lc-axis', x1: left, x2: left, y1: top, y2: bottom }));
    plot.append(grid);

    // Series.
    for (const s of seriesDefs) {
      const pts = (data.series[s.id] ?? []).filter(inside);
      const g = svg('g', { class: 'lc-series' });
      if (pts.length > 1) {
        g.append(svg('polyline', {
          class: 'lc-line', points: pts.map((p) => `${tx(p[0])},${ty(p[1])}`).join(' '),
          stroke: s.color, 'stroke-dasharray': s.dash ?? undefined,
        }));
      }
      for (const p of pts) {
        // A point [x, y, low, high]: a bar over its spread.
        if (p.length === 4 && p[2] > 0 && p[3] > p[2]) {
          g.append(svg('line', { class: 'lc-spread', x1: tx(p[0]), x2: tx(p[0]), y1: ty(p[2]), y2: ty(p[3]), stroke: s.color }));
        }
        const m = markerShape(s.marker ?? 'circle', tx(p[0]), ty(p[1]));
        if (!m) continue;
        m.setAttribute('fill', s.color);
        m.setAttribute('class', 'lc-marker');
        const full = y.formatFull ?? formatFull;
        const spread = p.length === 4 ? ` (${full(p[2])}\u2013${full(p[3])})` : '';
        m.append(svg('title', { text: `${s.plainLabel ?? ''} ${(x.format ?? String)(p[0])}: ${full(p[1])}${spread}`.trim() }));
        g.append(m);
      }
      plot.append(g);
    }
    // Reference lines (dashed, over the data: a series that follows one shows through).
    for (const r of data.references ?? []) {
      const pts = r.points.filter(inside);
      if (pts.length < 2) continue;
      plot.append(svg('polyline', {
        class: 'lc-ref', points: pts.map((p) => `${tx(p[0])},${ty(p[1])}`).join(' '),
        stroke: r.color ?? 'var(--ink-muted)', 'stroke-dasharray': r.dash ?? '5 4', 'aria-hidden': 'true',
      }));
    }
  }

  const observer = typeof ResizeObserver === 'function'
    ? new ResizeObserver(([entry]) => {
      measured = entry.contentRect.width;
      if (Math.max(240, Math.round(measured) || 480) !== width) draw();
    })
    : null;
  observer?.observe(frame);

  return {
    el,
    // next: { series: { id: [[x, y], ...] }, references: [{ label, points, color, dash }], yDomain }
    update(next) {
      data = { series: {}, references: [], ...next };
      drawLegend();
      drawTable();
      draw();
    },
    setText({ title: t, description: d, xLabel: xl, yLabel: yl, series: labels }) {
      if (t !== undefined) titleEl.textContent = t;
      if (d !== undefined) descEl.textContent = d;
      if (xl !== undefined) setHTML(xLabel, xl);
      if (yl !== undefined) setHTML(yLabel, yl);
      if (labels) seriesDefs = seriesDefs.map((s) => ({ ...s, label: labels[s.id] ?? s.label }));
    },
    destroy() { observer?.disconnect(); },
  };
}
