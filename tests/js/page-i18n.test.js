// Language files and the page registry: Korean and English complete and in
// step, every TeX string renders at build time, ?lang= and the browser's
// language choose, every built section has its folder and text.
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chooseLanguage, interpolate, keysOf, lookup, translator } from '../../web/src/i18n/lookup.js';
import { convertModule, renderTextMath, texToMathML } from '../../web/vite-plugins/prerender-math.js';
import { sections } from '../../web/src/sections/registry.js';

const WEB = resolve(import.meta.dirname, '..', '..', 'web', 'src');
const I18N = join(WEB, 'i18n');
const MINE = ['common', 'worked-example', 'sentence', 'masking', 'multi-head', 'cross-attention'];

const load = async (lang, name) => (await import(`../../web/src/i18n/${lang}/${name}.js`)).default;

describe('language choice', () => {
  it('?lang= wins, then the browser languages, then English', () => {
    expect(chooseLanguage('?lang=ko', ['en-US'])).toBe('ko');
    expect(chooseLanguage('?lang=en', ['ko-KR'])).toBe('en');
    expect(chooseLanguage('', ['ko-KR', 'en'])).toBe('ko');
    expect(chooseLanguage('?lang=fr', ['de', 'en-GB'])).toBe('en');
    expect(chooseLanguage('', ['ja'])).toBe('en');
  });
  it('lookup, interpolation and a visible marker for a missing key', () => {
    const t = translator({ a: { b: 'x {n} y' } }, { c: 'common' });
    expect(t('a.b', { n: 3 })).toBe('x 3 y');
    expect(t('c')).toBe('common');
    expect(t('nope')).toBe('\u27e6nope\u27e7');
    expect(lookup({ a: [1, 2] }, 'a')).toEqual([1, 2]);
    expect(interpolate('{a}{b}', { a: 1 })).toBe('1{b}');
  });
});

describe.each(MINE)('language module %s', (name) => {
  it('Korean and English have the same keys, and no empty string', async () => {
    const [en, ko] = await Promise.all([load('en', name), load('ko', name)]);
    expect(keysOf(ko)).toEqual(keysOf(en));
    for (const key of keysOf(en)) {
      const [a, b] = [lookup(en, key), lookup(ko, key)];
      if (typeof a === 'string') expect(a.trim().length, `en ${key}`).toBeGreaterThan(0);
      if (typeof b === 'string') expect(b.trim().length, `ko ${key}`).toBeGreaterThan(0);
      if (Array.isArray(a)) expect(b, key).toHaveLength(a.length);
      // The same {placeholders} in both languages.
      if (typeof a === 'string') expect((b.match(/\{\w+(?=[|}])/g) ?? []).sort(), key).toEqual((a.match(/\{\w+(?=[|}])/g) ?? []).sort());
    }
  });
  it.each(['en', 'ko'])('every TeX in the %s module renders to MathML at build time', async (lang) => {
    const file = join(I18N, lang, `${name}.js`);
    const out = await convertModule(readFileSync(file, 'utf8'), file);
    expect(out).not.toMatch(/(?<!\\)\$/);   // no TeX left behind
  });
});

describe('build-time math', () => {
  it('renders TeX to MathML and fails loudly on a lost backslash', () => {
    expect(texToMathML('\\sqrt{d_k}')).toMatch(/^<math>.*<msqrt>/);
    expect(renderTextMath('a $x$ b')).toMatch(/^a <math>.*<\/math> b$/);
    expect(renderTextMath('$$y$$')).toMatch(/^<div class="formula"><math display="block"/);
    expect(() => texToMathML('\times')).toThrow(/control character/);
    expect(() => texToMathML('\\frac{')).toThrow(/cannot render/);
  });
  it('every formula module of my sections converts', async () => {
    for (const id of MINE.slice(1)) {
      const file = join(WEB, 'sections', id, 'formulas.tex.js');
      if (!existsSync(file)) continue;
      const out = await convertModule(readFileSync(file, 'utf8'), file);
      expect(out).toMatch(/<math/);
    }
  });
});

describe('registry', () => {
  it('lists the ten sections of DESIGN.md in order with stable ids', () => {
    expect(sections.map((s) => s.id)).toEqual(['worked-example', 'scaling', 'reading-weights', 'sentence', 'masking',
      'multi-head', 'cross-attention', 'family', 'order', 'cost']);
  });
  it('every section has a folder with index.js and text in both languages', () => {
    for (const s of sections) {
      expect(typeof s.load, s.id).toBe('function');
      expect(existsSync(join(WEB, 'sections', s.id, 'index.js')), s.id).toBe(true);
      for (const lang of ['en', 'ko']) expect(existsSync(join(I18N, lang, `${s.id}.js`)), `${lang}/${s.id}`).toBe(true);
    }
    expect(readdirSync(join(I18N, 'en')).length).toBeGreaterThanOrEqual(MINE.length);
  });
});
