// sections/registry.js: the height each section reserves before it is built.
import { describe, expect, test } from 'vitest';
import { HEIGHT_WIDTHS, reservedHeight, sections } from '../../web/src/sections/registry.js';

describe('reserved section heights', () => {
  test('every section has three measured heights, taller on narrower pages', () => {
    for (const s of sections) {
      expect(s.heights, s.id).toHaveLength(HEIGHT_WIDTHS.length);
      expect(s.heights[0], s.id).toBeGreaterThan(s.heights[1]);
      expect(s.heights[1], s.id).toBeGreaterThanOrEqual(s.heights[2]);
    }
  });
  test('the measured widths give the measured heights; between them, in between; outside, clamped', () => {
    const s = { heights: [3000, 2000, 1500] };
    expect(HEIGHT_WIDTHS.map((w) => reservedHeight(s, w))).toEqual([3000, 2000, 1500]);
    expect(reservedHeight(s, 320)).toBe(3000);
    expect(reservedHeight(s, 2560)).toBe(1500);
    let last = Infinity;
    for (let w = 375; w <= 1280; w += 5) {
      const h = reservedHeight(s, w);
      expect(h).toBeLessThanOrEqual(last);
      last = h;
    }
  });
});
