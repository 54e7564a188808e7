// The pure logic of the page's components (no DOM): the seed control's
// parsing and drawing, the line chart's scales.
import { describe, expect, test } from 'vitest';
import { MAX_SEED, newSeed, parseSeed } from '../../web/src/components/seed-control.js';
import { domainOf, logTicks, niceTicks } from '../../web/src/components/line-chart.js';

describe('seed control', () => {
  test('parses whole numbers from 0 to MAX_SEED only', () => {
    expect(parseSeed('42')).toBe(42);
    expect(parseSeed(' 0 ')).toBe(0);
    expect(parseSeed(String(MAX_SEED))).toBe(MAX_SEED);
    for (const bad of ['', '-1', '1.5', 'abc', '1e3', String(MAX_SEED + 1)]) expect(parseSeed(bad)).toBeNull();
  });
  test('a new seed is in range and differs from the current one', () => {
    let calls = 0;
    const stuck = () => (calls++ < 3 ? 0 : 0.5);  // first draws give seed 1
    expect(newSeed(1, stuck)).not.toBe(1);
    for (let i = 0; i < 100; i++) {
      const s = newSeed(5);
      expect(s).toBeGreaterThanOrEqual(1);
      expect(s).toBeLessThanOrEqual(MAX_SEED);
    }
  });
});

describe('line chart scales', () => {
  test('nice linear ticks', () => {
    expect(niceTicks(0, 1, 4)).toEqual([0, 0.5, 1]);
    expect(niceTicks(0, 10, 5)).toEqual([0, 2, 4, 6, 8, 10]);
  });
  test('log ticks: powers of ten, with 2 and 5 for short ranges', () => {
    expect(logTicks(1, 100)).toEqual([1, 2, 5, 10, 20, 50, 100]);
    expect(logTicks(0.1, 100)).toEqual([0.1, 1, 10, 100]);
    expect(logTicks(0.01, 10000)).toEqual([0.01, 0.1, 1, 10, 100, 1000, 10000]);
  });
  test('a log axis without a positive value: no tick from 0, a decade to draw (the chart once filled an array from 10^-Infinity until a RangeError)', () => {
    expect(logTicks(0, 1)).toEqual([]);
    expect(logTicks(-1, 1)).toEqual([]);
    expect(logTicks(1, Infinity)).toEqual([]);
    expect(logTicks(NaN, 10)).toEqual([]);
    expect(domainOf([0, 0, 0], { scale: 'log' })).toEqual([1, 10]);
    expect(domainOf([0, -2, NaN, Infinity], { scale: 'log' })).toEqual([1, 10]);
    expect(logTicks(...domainOf([0], { scale: 'log' }))).toEqual([1, 2, 5, 10]);
    expect(domainOf([])).toEqual([expect.closeTo(-0.08, 12), expect.closeTo(1.08, 12)]);   // linear: [0, 1], padded
  });
  test('domains', () => {
    expect(domainOf([3, 40], { scale: 'log' })).toEqual([1, 100]);
    expect(domainOf([0.2, 0.8], { min: 0, max: 1 })).toEqual([0, 1]);
    const [lo, hi] = domainOf([1, 2]);
    expect(lo).toBeLessThan(1);
    expect(hi).toBeGreaterThan(2);
  });
});
