// Pure helpers of the components written for sections 2, 3, 8, 9 and 10
// (seed control, line chart, scientific numbers) and their colours.
import { describe, expect, test } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { contrast } from '../../web/src/lib/color.js';
import { MAX_SEED, newSeed, parseSeed } from '../../web/src/components/seed-control.js';
import { domainOf, logTicks, niceTicks } from '../../web/src/components/line-chart.js';
import { formatScientific } from '../../web/src/lib/format.js';

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
  test('domains', () => {
    expect(domainOf([3, 40], { scale: 'log' })).toEqual([1, 100]);
    expect(domainOf([0.2, 0.8], { min: 0, max: 1 })).toEqual([0, 1]);
    const [lo, hi] = domainOf([1, 2]);
    expect(lo).toBeLessThan(1);
    expect(hi).toBeGreaterThan(2);
  });
});

describe('scientific numbers', () => {
  test('exact zero prints as 0; tiny numbers in powers of ten', () => {
    expect(formatScientific(0)).toBe('0');
    expect(formatScientific(2.384185791015625e-7)).toBe('2.4\u202f\u00d7\u202f10\u207b\u2077');
    expect(formatScientific(-3e-9)).toBe('\u22123.0\u202f\u00d7\u202f10\u207b\u2079');
    expect(formatScientific(0.953)).toBe('0.953');
  });
});

describe('the colours of sections 2 and 10 (raw/scaled, the three implementations)', () => {
  const css = (path) => readFileSync(new URL(`../../web/src/${path}`, import.meta.url), 'utf8');
  const hex = (s) => [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16));
  const pairs = (text) => Object.fromEntries([...text.matchAll(/--([\w-]+):[^;]*?light-dark\((#[0-9a-f]{6}),\s*(#[0-9a-f]{6})\)/gi)]
    .map(([, name, light, dark]) => [name, { light: hex(light), dark: hex(dark) }]));
  const tokens = pairs(css('styles/tokens.css'));
  const mine = tokens;   // every colour lives in tokens.css (web/README.md)

  test.each(['c-raw', 'c-scaled', 'c-simd', 'c-js'])('--%s reads as text (>= 4.5:1) on paper, bg and surface in both schemes', (name) => {
    for (const scheme of ['light', 'dark']) {
      for (const bg of ['paper', 'bg', 'surface']) {
        expect(contrast(mine[name][scheme], tokens[bg][scheme]), `${name} on ${bg} (${scheme})`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  test('no section or component stylesheet defines a colour of its own', () => {
    const sheets = [
      ...readdirSync(new URL('../../web/src/sections/', import.meta.url), { recursive: true }),
    ].filter((f) => f.endsWith('.css')).map((f) => `sections/${f}`)
      .concat(readdirSync(new URL('../../web/src/components/', import.meta.url)).filter((f) => f.endsWith('.css')).map((f) => `components/${f}`));
    expect(sheets.length).toBeGreaterThan(10);
    for (const sheet of sheets) expect(css(sheet), sheet).not.toMatch(/light-dark\(|#[0-9a-f]{6}\b/i);
  });

  test('--c-baseline, a line colour, stands out from the backgrounds (>= 3:1)', () => {
    for (const scheme of ['light', 'dark']) {
      for (const bg of ['paper', 'bg', 'surface']) expect(contrast(mine['c-baseline'][scheme], tokens[bg][scheme])).toBeGreaterThanOrEqual(3);
    }
  });
});
