// The text of the page, driven by the section registry (web/src/sections/registry.js):
// for `common` and for every registered section, Korean and English are
// complete and in step, every TeX string renders at build time, every key the
// section's code asks for exists, and every formula module it imports exists,
// converts to MathML and has the formulas the code uses. Also: ?lang= and the
// browser's languages choose, and every language file belongs to a section.
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chooseLanguage, interpolate, keysOf, lookup, numberSections, translator } from '../../web/src/i18n/lookup.js';
import { loadLanguage } from '../../web/src/i18n/index.js';
import { convertModule, renderTextMath, texToMathML } from '../../web/vite-plugins/prerender-math.js';
import { sections } from '../../web/src/sections/registry.js';

const WEB = resolve(import.meta.dirname, '..', '..', 'web', 'src');
const I18N = join(WEB, 'i18n');
const LANGUAGES = ['en', 'ko'];
const SECTION_IDS = sections.map((s) => s.id);

const load = async (lang, name) => (await import(`../../web/src/i18n/${lang}/${name}.js`)).default;
const placeholders = (text) => (text.match(/\{\w+(?=[|}])/g) ?? []).sort();  // {x} and {x|으로}

// Every .js file of a section's folder (subfolders too), as one string.
function sectionCode(id) {
  const folder = join(WEB, 'sections', id);
  return readdirSync(folder, { recursive: true }).filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(folder, f), 'utf8')).join('\n');
}

// The formula modules a section imports: import formulas, { inline } from './formulas.tex.js'
// -> [{ file, bindings: [{ local: 'formulas', exported: 'default' }, { local: 'inline', exported: 'inline' }] }]
function formulaImports(id) {
  const folder = join(WEB, 'sections', id);
  const out = [];
  for (const [, clause, spec] of sectionCode(id).matchAll(/import\s+([^;]+?)\s+from\s+'(\.[^']+\.tex\.js)'/g)) {
    const bindings = [];
    const named = clause.match(/\{([^}]*)\}/);
    const first = clause.replace(/\{[^}]*\}/, '').replace(/,\s*$/, '').trim();
    if (first) bindings.push({ local: first, exported: 'default' });
    for (const part of named?.[1].split(',').map((s) => s.trim()).filter(Boolean) ?? []) {
      const [exported, local = exported] = part.split(/\s+as\s+/);
      bindings.push({ local, exported });
    }
    out.push({ file: resolve(folder, spec), bindings });
  }
  return out;
}

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
  it('{§id} is the number of that section in the registry\'s order; an unknown id stays visible', () => {
    expect(numberSections('see section {§masking} and {§cost}', { masking: 6, cost: 12 })).toBe('see section 6 and 12');
    expect(numberSections('{§nope}', { masking: 6 })).toBe('{§nope}');
    const t = translator({ a: '<a href="#masking">section {§masking}</a>, {x|으로}' }, {}, { masking: 6 });
    expect(t('a', { x: 3 })).toBe('<a href="#masking">section 6</a>, 3으로');
  });
  it('the page numbers the sections by the registry: every {§id} in the texts names a section', async () => {
    const { t } = await loadLanguage('en', ['family']);
    expect(t('family')('after')).toContain(`section ${SECTION_IDS.indexOf('masking') + 1}</a>`);
    for (const lang of LANGUAGES) {
      for (const name of ['common', ...SECTION_IDS]) {
        const text = readFileSync(join(I18N, lang, `${name}.js`), 'utf8').replace(/^\s*\/\/.*$/gm, '');   // strings, not comments
        for (const [, id] of text.matchAll(/\{§([\w-]+)\}/g)) expect(SECTION_IDS, `${lang}/${name}: {§${id}}`).toContain(id);
      }
    }
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
});

describe('registry', () => {
  it('lists every section folder once, by an id that can name it in a link (#masking): the registry is the one list', () => {
    expect(new Set(SECTION_IDS).size, 'ids are unique').toBe(SECTION_IDS.length);
    for (const id of SECTION_IDS) expect(id, 'lower-case words joined by hyphens').toMatch(/^[a-z]+(-[a-z]+)*$/);
    const folders = readdirSync(join(WEB, 'sections'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(WEB, 'sections', entry.name, 'index.js')))
      .map((entry) => entry.name);
    expect([...SECTION_IDS].sort(), 'a registered section for every folder with an index.js, and no other').toEqual(folders.sort());
  });
  it('every language folder holds common and one file per section, nothing else', () => {
    for (const lang of LANGUAGES) {
      const files = readdirSync(join(I18N, lang)).filter((f) => f.endsWith('.js')).map((f) => basename(f, '.js')).sort();
      expect(files, lang).toEqual(['common', ...SECTION_IDS].sort());
    }
  });
});

describe.each(['common', ...SECTION_IDS])('the text of %s', (name) => {
  it('Korean and English have the same keys, the same placeholders, and no empty string', async () => {
    const [en, ko] = await Promise.all([load('en', name), load('ko', name)]);
    expect(keysOf(ko)).toEqual(keysOf(en));
    for (const key of keysOf(en)) {
      const [a, b] = [lookup(en, key), lookup(ko, key)];
      expect(typeof b, key).toBe(typeof a);
      if (typeof a === 'string') {
        expect(a.trim().length, `en ${key}`).toBeGreaterThan(0);
        expect(b.trim().length, `ko ${key}`).toBeGreaterThan(0);
        expect(placeholders(b), key).toEqual(placeholders(a));
      }
      if (Array.isArray(a)) {
        expect(b, key).toHaveLength(a.length);
        a.forEach((row, i) => { if (Array.isArray(row)) expect(b[i], `${key}[${i}]`).toHaveLength(row.length); });
      }
    }
  });

  it.each(LANGUAGES)('every TeX string of the %s file renders to MathML at build time', async (lang) => {
    const file = join(I18N, lang, `${name}.js`);
    const out = await convertModule(readFileSync(file, 'utf8'), file);
    expect(out).not.toMatch(/(?<!\\)\$/);   // no TeX left behind
  });
});

describe.each(SECTION_IDS)('section %s', (id) => {
  it('has its folder with index.js and a loader in the registry', () => {
    expect(sections.find((s) => s.id === id).load).toBeTypeOf('function');
    expect(existsSync(join(WEB, 'sections', id, 'index.js'))).toBe(true);
  });

  it('every key its code asks for exists (in the section text or in common)', async () => {
    const [en, common] = await Promise.all([load('en', id), load('en', 'common')]);
    const code = sectionCode(id);
    const keys = [...code.matchAll(/\bt\('([\w.]+)'/g)].map((m) => m[1]);
    expect(keys.length, 'the section asks for its text through t()').toBeGreaterThan(5);
    for (const key of keys) expect(lookup(en, key) ?? lookup(common, key), key).toBeDefined();
    // keys built from a template: t(`prefix.${x}`) — the prefix exists
    for (const [, prefix] of code.matchAll(/\bt\(`([\w.]+)\.\$\{/g)) expect(lookup(en, prefix), prefix).toBeDefined();
  });

  it('every formula module it imports exists, converts to MathML, and has every formula the code uses', async () => {
    const imports = formulaImports(id);
    // A formula module that nothing imports is a renamed or forgotten file.
    const folder = join(WEB, 'sections', id);
    const texFiles = readdirSync(folder, { recursive: true }).filter((f) => f.endsWith('.tex.js')).map((f) => join(folder, f));
    expect(texFiles.sort(), 'every .tex.js of the folder is imported').toEqual([...new Set(imports.map((i) => i.file))].sort());
    const code = sectionCode(id);
    for (const { file, bindings } of imports) {
      expect(existsSync(file), file).toBe(true);
      const out = await convertModule(readFileSync(file, 'utf8'), file);
      expect(out).toMatch(/<math/);
      expect(out).not.toMatch(/\\(frac|top|sqrt|big|sum)\b/);   // no TeX command left
      const module = await import(pathToFileURL(file).href);
      for (const { local, exported } of bindings) {
        const table = module[exported];
        expect(table, `${basename(file)} exports ${exported}`).toBeTypeOf('object');
        for (const [, used] of code.matchAll(new RegExp(`(?<![\\w./'])${local}\\.(\\w+)`, 'g'))) {
          expect(table[used], `${local}.${used} in ${basename(file)}`).toBeTypeOf('string');
        }
      }
    }
  });
});
