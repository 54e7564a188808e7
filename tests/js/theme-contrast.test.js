// Both colour schemes meet WCAG AA: every text colour of styles/tokens.css on
// every background it is used on, in the light and the dark value of its
// light-dark() pair; and every heatmap step with the text colour chosen for it.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { contrast, cellColors, rampColorDark, textColorOn, DARK_RAMP_LOW } from '../../web/src/lib/color.js';

const tokensCss = readFileSync(new URL('../../web/src/styles/tokens.css', import.meta.url), 'utf8');
const hex = (s) => [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16));

// --name: ... light-dark(#light, #dark) ... -> { name: { light, dark } }
function tokens() {
  const out = {};
  for (const [, name, body] of tokensCss.matchAll(/--([\w-]+):\s*([^;]+);/g)) {
    const pair = body.match(/light-dark\((#[0-9a-f]{6}),\s*(#[0-9a-f]{6})\)/i);
    if (pair) out[name] = { light: hex(pair[1]), dark: hex(pair[2]) };
  }
  return out;
}

const T = tokens();
const TEXT = ['ink', 'ink-soft', 'ink-muted', 'link', 'error', 'c-query', 'c-key', 'c-value', 'c-output', 'c-mask'];
const BACKGROUNDS = ['paper', 'bg', 'surface'];

describe.each(['light', 'dark'])('%s scheme', (scheme) => {
  test.each(TEXT)('--%s on paper, bg and surface >= 4.5:1', (fg) => {
    for (const bg of BACKGROUNDS) {
      expect(contrast(T[fg][scheme], T[bg][scheme]), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  test('role chips: each role colour on its soft background', () => {
    for (const role of ['query', 'key', 'value', 'output']) {
      expect(contrast(T[`c-${role}`][scheme], T[`c-${role}-soft`][scheme]), role).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrast(T['c-mask'][scheme], T['c-mask-chip'][scheme])).toBeGreaterThanOrEqual(4.5);
  });

  test('error text on its background', () => {
    expect(contrast(T.error[scheme], T['error-bg'][scheme])).toBeGreaterThanOrEqual(4.5);
  });
});

test('every token in the colour list has a light and a dark value', () => {
  for (const name of [...TEXT, ...BACKGROUNDS, 'line', 'line-strong', 'ramp-high']) expect(T[name], name).toBeDefined();
});

test('the dark heatmap ramp starts at the dark paper and ends at --ramp-high', () => {
  expect(rampColorDark(0)).toEqual(DARK_RAMP_LOW);
  expect(rampColorDark(0)).toEqual(T.paper.dark);
  expect(rampColorDark(1)).toEqual(T['ramp-high'].dark);
});

test('every dark heatmap step keeps its text readable (>= 4.5:1)', () => {
  for (let i = 0; i <= 1000; i++) {
    const bg = rampColorDark(i / 1000);
    expect(contrast(bg, textColorOn(bg))).toBeGreaterThanOrEqual(4.5);
  }
});

test('cellColors gives light-dark() pairs for both schemes', () => {
  const c = cellColors(1);
  expect(c.background).toBe('light-dark(rgb(23, 37, 84), rgb(199, 215, 254))');
  expect(c.color).toBe('light-dark(rgb(255, 255, 255), rgb(0, 0, 0))');
  const d = cellColors(-2, { diverging: true, maxAbs: 2 });
  expect(d.background).toMatch(/^light-dark\(rgb\(140, 81, 10\), rgb\(/);
});
