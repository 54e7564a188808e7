// The text of sections 2, 3, 8, 9 and 10: Korean and English complete and in
// step, every TeX string and formula module renders to MathML at build time,
// and every key the views ask for exists.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { keysOf, lookup } from '../../web/src/i18n/lookup.js';
import { convertModule } from '../../web/vite-plugins/prerender-math.js';
import { sections } from '../../web/src/sections/registry.js';

const WEB = resolve(import.meta.dirname, '..', '..', 'web', 'src');
const PART2 = ['scaling', 'reading-weights', 'family', 'order', 'cost'];
const load = async (lang, name) => (await import(`../../web/src/i18n/${lang}/${name}.js`)).default;
const common = await load('en', 'common');

describe.each(PART2)('section %s', (id) => {
  it('is registered with a loader', () => {
    expect(sections.find((s) => s.id === id)?.load).toBeTypeOf('function');
  });

  it('Korean and English have the same keys, the same placeholders, and no empty string', async () => {
    const [en, ko] = await Promise.all([load('en', id), load('ko', id)]);
    expect(keysOf(ko)).toEqual(keysOf(en));
    for (const key of keysOf(en)) {
      const [a, b] = [lookup(en, key), lookup(ko, key)];
      if (typeof a === 'string') {
        expect(a.trim().length, `en ${key}`).toBeGreaterThan(0);
        expect(b.trim().length, `ko ${key}`).toBeGreaterThan(0);
        expect((b.match(/\{\w+(?=[|}])/g) ?? []).sort(), key).toEqual((a.match(/\{\w+(?=[|}])/g) ?? []).sort());
      }
      if (Array.isArray(a)) {
        expect(b, key).toHaveLength(a.length);
        a.forEach((row, i) => { if (Array.isArray(row)) expect(b[i], `${key}[${i}]`).toHaveLength(row.length); });
      }
    }
  });

  it.each(['en', 'ko'])('every TeX in the %s text renders to MathML', async (lang) => {
    const file = join(WEB, 'i18n', lang, `${id}.js`);
    const out = await convertModule(readFileSync(file, 'utf8'), file);
    expect(out).not.toMatch(/(?<!\\)\$/);
  });

  it('every key the view asks for exists (in the section or in common)', async () => {
    const en = await load('en', id);
    const folder = join(WEB, 'sections', id);
    const code = readdirSync(folder).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(folder, f), 'utf8')).join('\n');
    const keys = [...code.matchAll(/\bt\('([\w.]+)'/g)].map((m) => m[1]);
    expect(keys.length).toBeGreaterThan(5);
    for (const key of keys) expect(lookup(en, key) ?? lookup(common, key), key).toBeDefined();
    // keys built from a template: t(`prefix.${x}`) — check the prefix exists
    for (const [, prefix] of code.matchAll(/\bt\(`([\w.]+)\.\$\{/g)) expect(lookup(en, prefix), prefix).toBeDefined();
  });

  it('its formula module, if any, converts to MathML', async () => {
    const file = join(WEB, 'sections', id, 'formulas.tex.js');
    let source;
    try { source = readFileSync(file, 'utf8'); } catch { return; }
    const out = await convertModule(source, file);
    expect(out).toMatch(/<math/);
    expect(out).not.toMatch(/\\(frac|top|sqrt)/);
  });
});
