// components/vector-plot.js: the window and the grid stay readable for any
// vectors (q = (1000, 0) once drew a line every 2 units: a thousand lines).
import { describe, expect, test } from 'vitest';
import { gridStep, plotWindow } from '../../web/src/components/vector-plot.js';

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
