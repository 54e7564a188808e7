// Both colour schemes meet WCAG AA: every text colour of styles/tokens.css and of
// every section's CSS (the sections of the registry) on every background it is
// used on, in the light and the dark value of its light-dark() pair; and every
// heatmap step with the text colour chosen for it.
import { describe, expect, test } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { contrast, css, cellColors, rampColor, rampColorDark, textColorOn, DARK_RAMP_LOW } from '../../web/src/lib/color.js';
import { sections } from '../../web/src/sections/registry.js';

const WEB = resolve(import.meta.dirname, '..', '..', 'web', 'src');
const hex = (s) => [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16));

// --name: ... light-dark(#light, #dark) ... -> { name: { light, dark } }
function tokensOf(css) {
  const out = {};
  for (const [, name, body] of css.matchAll(/--([\w-]+):\s*([^;]+);/g)) {
    const pair = body.match(/light-dark\((#[0-9a-f]{6}),\s*(#[0-9a-f]{6})\)/i);
    if (pair) out[name] = { light: hex(pair[1]), dark: hex(pair[2]) };
  }
  return out;
}
const sectionCss = (id) => readdirSync(join(WEB, 'sections', id), { recursive: true }).filter((f) => f.endsWith('.css'))
  .map((f) => readFileSync(join(WEB, 'sections', id, f), 'utf8')).join('\n');

const tokensCss = readFileSync(join(WEB, 'styles', 'tokens.css'), 'utf8');
const T = tokensOf(tokensCss);
const SECTION_TOKENS = Object.fromEntries(sections.map((s) => [s.id, tokensOf(sectionCss(s.id))]));
const ALL = Object.assign({}, T, ...Object.values(SECTION_TOKENS));

// Role and section colours (--c-*) are text colours (4.5:1), except fills
// (-soft, -chip, -hull: checked below as backgrounds) and the line colours listed here (3:1).
const LINE_COLOURS = ['c-baseline'];
const ROLE_AND_SECTION = Object.keys(ALL).filter((n) => n.startsWith('c-') && !/-(soft|chip|hull)$/.test(n));
const TEXT = ['ink', 'ink-soft', 'ink-muted', 'link', 'error', ...ROLE_AND_SECTION.filter((n) => !LINE_COLOURS.includes(n))];
const BACKGROUNDS = ['paper', 'bg', 'surface'];

test('the parser finds every --c-* colour defined with light-dark() in tokens.css and the sections\' CSS', () => {
  const defined = [tokensCss, ...sections.map((s) => sectionCss(s.id))].join('\n')
    .match(/--c-[\w-]+:[^;]*light-dark\(#/g) ?? [];
  expect(Object.keys(ALL).filter((n) => n.startsWith('c-'))).toHaveLength(defined.length);
  expect(ROLE_AND_SECTION).toEqual(expect.arrayContaining(['c-query', 'c-key', 'c-value', 'c-output', 'c-mask', ...LINE_COLOURS]));
});

describe.each(['light', 'dark'])('%s scheme', (scheme) => {
  test.each(TEXT)('--%s on paper, bg and surface >= 4.5:1', (fg) => {
    for (const bg of BACKGROUNDS) {
      expect(contrast(ALL[fg][scheme], T[bg][scheme]), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  test('role chips: each role colour on its soft background', () => {
    for (const role of ['query', 'key', 'value', 'output']) {
      expect(contrast(T[`c-${role}`][scheme], T[`c-${role}-soft`][scheme]), role).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrast(T['c-mask'][scheme], T['c-mask-chip'][scheme])).toBeGreaterThanOrEqual(4.5);
  });

  test.each(LINE_COLOURS)('line colour --%s stands out from paper, bg and surface (>= 3:1)', (name) => {
    for (const bg of BACKGROUNDS) expect(contrast(ALL[name][scheme], T[bg][scheme]), `${name} on ${bg}`).toBeGreaterThanOrEqual(3);
  });

  test('error text on its background', () => {
    expect(contrast(T.error[scheme], T['error-bg'][scheme])).toBeGreaterThanOrEqual(4.5);
  });
});

test('every token in the colour list has a light and a dark value', () => {
  for (const name of [...TEXT, ...BACKGROUNDS, 'line', 'line-strong', 'ramp-high']) expect(ALL[name], name).toBeDefined();
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

test('cellColors: one shared, frozen result per pair of colours, the same as computed afresh', () => {
  const a = cellColors(0.3);
  expect(cellColors(0.3)).toBe(a);
  expect(Object.isFrozen(a)).toBe(true);
  // 0.3 and 0.3 + 1e-4 round to the same integer colours in both schemes (no channel near .5); 0.6 does not.
  expect(cellColors(0.3 + 1e-4)).toBe(a);
  const b = cellColors(0.6);
  expect(b).not.toBe(a);
  expect(b.light).toEqual(rampColor(0.6));
  expect(b.dark).toEqual(rampColorDark(0.6));
  expect(b.color).toBe(`light-dark(${css(textColorOn(rampColor(0.6)))}, ${css(textColorOn(rampColorDark(0.6)))})`);
  // A positive diverging value at its maximum is the weight 1's colours: the same result.
  const w = cellColors(1);
  const d = cellColors(1, { diverging: true, maxAbs: 1 });
  expect(d.light).toEqual(w.light);
  expect(d.dark).toEqual(w.dark);
  expect(d).toBe(w);
});
