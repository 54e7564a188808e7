// components/vector-plot.js: the window and the grid stay readable for any
// vectors (q = (1000, 0) once drew a line every 2 units: a thousand lines).
import { describe, expect, test } from 'vitest';
import { gridStep, plotWindow } from '../../web/src/components/vector-plot.js';
import { boxesOverlap, placeLabels } from '../../web/src/components/vector-plot-labels.js';

describe('vector plot grid', () => {
  test('the article example keeps its half-unit grid', () => {
    const view = plotWindow([{ x: 1, y: 0 }, { x: 0, y: 1 }, { x: 1, y: 1 }]);
    expect(view.span).toBeLessThanOrEqual(4.5);
    expect(gridStep(view.span)).toBe(0.5);
  });
  test.each([[9, 2], [30, 5], [1012, 200], [2e6, 5e5], [3e38, 5e37]])('a window %d wide: lines every %d, 3 to 8 per axis', (span, step) => {
    expect(gridStep(span)).toBeCloseTo(step, 6);
    const lines = span / gridStep(span);
    expect(lines).toBeGreaterThanOrEqual(3);
    expect(lines).toBeLessThanOrEqual(8);
  });
  test('q = (1000, 0) fits its window', () => {
    const view = plotWindow([{ x: 1000, y: 0 }, { x: 1, y: 0 }, { x: 0, y: 1 }]);
    expect(view.x0).toBeLessThanOrEqual(0);
    expect(view.x0 + view.span).toBeGreaterThanOrEqual(1000);
  });
});

describe('vector plot labels (vector-plot-labels.js)', () => {
  const SIZE = 400;
  const inside = (b) => b.cx - b.w / 2 >= 2 && b.cx + b.w / 2 <= SIZE - 2 && b.cy - b.h / 2 >= 2 && b.cy + b.h / 2 <= SIZE - 2;
  const pairs = (list) => list.flatMap((a, i) => list.slice(i + 1).map((b) => [a, b]));

  test('a lone arrow is labelled straight ahead of its tip', () => {
    const v = { label: 'q', draggable: true };
    const [box] = placeLabels([{ v, x0: 100, y0: 200, x1: 250, y1: 200 }], { size: SIZE });
    expect(box.cx).toBeGreaterThan(250);
    expect(Math.abs(box.cy - 200)).toBeLessThan(1e-9);
    expect(v.labelAt).toEqual([box.cx, box.cy]);
  });

  test('q = (1e30, -1): three keys at the origin by the left edge, q leaving to the right, tick labels on the axis', () => {
    // The window of the worked example at that q: the origin 28 units from the
    // left edge, q's shaft along the x axis to the right edge, the x ticks under it.
    const origin = [28, 200];
    const items = [
      { v: { label: 'q', role: 'q', draggable: true }, x0: origin[0], y0: origin[1], x1: 382, y1: 200 },
      ...[0.5, 0.0, 0.5].map((w, j) => ({ v: { label: `k${j + 1} ${w.toFixed(2)}`, role: 'k' }, x0: origin[0], y0: origin[1], x1: origin[0], y1: origin[1] })),
    ];
    const ticks = [96, 166, 236, 306, 366].map((cx) => ({ cx, cy: 210, w: 50, h: 11 }));
    const boxes = placeLabels(items, { size: SIZE, avoid: ticks });
    expect(boxes).toHaveLength(4);
    for (const b of boxes) expect(inside(b)).toBe(true);
    for (const [a, b] of pairs(boxes)) expect(boxesOverlap(a, b)).toBe(false);
    for (const b of boxes) for (const t of ticks) expect(boxesOverlap(b, t)).toBe(false);
  });

  test('coincident tips in the middle (q = k1, v3 = k3): every label apart, near its tip', () => {
    const at = (label, x, y, role = 'k') => ({ v: { label, role }, x0: 150, y0: 250, x1: x, y1: y });
    const items = [at('q', 250, 250, 'q'), at('k1 0.42', 250, 250), at('k2 0.16', 150, 150), at('k3 0.42', 250, 150)];
    items[0].v.draggable = true;
    const boxes = placeLabels(items, { size: SIZE });
    for (const [a, b] of pairs(boxes)) expect(boxesOverlap(a, b)).toBe(false);
    for (const { v, x1, y1 } of items) expect(Math.hypot(v.labelAt[0] - x1, v.labelAt[1] - y1)).toBeLessThan(120);
  });

  test('boxes overlap only when they share area (with the gap asked for)', () => {
    const a = { cx: 0, cy: 0, w: 10, h: 10 };
    expect(boxesOverlap(a, { cx: 9, cy: 0, w: 10, h: 10 })).toBe(true);
    expect(boxesOverlap(a, { cx: 10, cy: 0, w: 10, h: 10 })).toBe(false);
    expect(boxesOverlap(a, { cx: 10.5, cy: 0, w: 10, h: 10 }, 1)).toBe(true);
    expect(boxesOverlap(a, { cx: 0, cy: 10, w: 10, h: 10 })).toBe(false);
  });
});
