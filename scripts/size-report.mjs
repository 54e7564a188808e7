// npm run size: what one embedded section costs a blog page, gzipped.
//
// For each section, everything a page with one <attention-demo section="..."> downloads,
// read from the embed build's import graph (dist/embed/.vite/manifest.json):
//   the embed script and its static imports; the section's chunk and its static
//   imports; its text and the common text (the larger of ko and en); the engine's
//   SIMD build (the one browsers pick): its JS and its .wasm; any CSS and font
//   files these list; and the section's worker scripts, if it starts any (the
//   worker's .wasm is the same file, served from the cache).
// Budget: 150 KB gzipped per section. Exits 1 if a section is over it.
//   node scripts/size-report.mjs [--json file] [--markdown] [--quiet]
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { sections } from '../web/src/sections/registry.js';

export const BUDGET_KB = 150;
const root = resolve(import.meta.dirname, '..');
const embedDir = join(root, 'dist', 'embed');
const manifestFile = join(embedDir, '.vite', 'manifest.json');
const args = process.argv.slice(2);

if (!existsSync(manifestFile)) {
  console.error(`size-report: ${manifestFile} is missing; run npm run build first`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const gzipCache = new Map();
const sizeOf = (file) => {
  if (!gzipCache.has(file)) {
    const bytes = readFileSync(join(embedDir, file));
    gzipCache.set(file, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
  }
  return gzipCache.get(file);
};

// A chunk's file, its static imports (recursively), their CSS and assets.
function closure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`size-report: ${key} is not in the embed build's manifest`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const asset of chunk.assets ?? []) files.add(asset);
  for (const dep of chunk.imports ?? []) closure(dep, files);
  return files;
}

// Worker scripts a chunk starts: emitted as assets, referenced by name in its code.
function workers(files) {
  const found = new Set();
  for (const file of files) {
    if (!file.endsWith('.js')) continue;
    const code = readFileSync(join(embedDir, file), 'utf8');
    for (const [, name] of code.matchAll(/["'`][./]*(assets\/[\w.-]*worker[\w.-]*\.js)["'`]/g)) found.add(name);
  }
  return found;
}

const sum = (files) => [...files].reduce((a, f) => {
  const s = sizeOf(f);
  return { raw: a.raw + s.raw, gzip: a.gzip + s.gzip };
}, { raw: 0, gzip: 0 });

const kb = (bytes) => (bytes / 1024).toFixed(1);
const rows = [];
for (const section of sections.filter((s) => s.load)) {
  const id = section.id;
  const files = closure('src/embed/attention-embed.js');
  closure(`src/sections/${id}/index.js`, files);
  closure('src/engine/wasm/attention-simd.mjs', files);
  for (const w of workers(files)) files.add(w);
  // Text: common + the section's strings, in the heavier language.
  const text = ['ko', 'en'].map((lang) => {
    const set = new Set();
    for (const key of [`src/i18n/${lang}/common.js`, `src/i18n/${lang}/${id}.js`]) if (manifest[key]) closure(key, set);
    return set;
  }).sort((a, b) => sum(b).gzip - sum(a).gzip)[0];
  for (const f of text) files.add(f);
  const total = sum(files);
  const wasm = [...files].filter((f) => f.endsWith('.wasm')).reduce((a, f) => a + sizeOf(f).gzip, 0);
  rows.push({ id, files: files.size, raw: total.raw, gzip: total.gzip, wasmGzip: wasm, ok: total.gzip <= BUDGET_KB * 1024 });
}

const quiet = args.includes('--quiet');
if (!quiet) {
  console.log('One embedded section: everything it downloads (embed script, section, text, engine JS, SIMD .wasm).');
}
console.log(`   ${'section'.padEnd(17)} ${'files'.padStart(5)} ${'raw KB'.padStart(8)} ${'gzip KB'.padStart(8)}  (wasm ${kb(rows[0]?.wasmGzip ?? 0)} KB gz)  budget ${BUDGET_KB} KB`);
for (const r of rows) {
  console.log(`   ${r.id.padEnd(17)} ${String(r.files).padStart(5)} ${kb(r.raw).padStart(8)} ${kb(r.gzip).padStart(8)}  ${r.ok ? 'ok' : 'OVER BUDGET'}`);
}
const single = join(root, 'dist', 'attention.html');
if (existsSync(single) && !quiet) {
  const bytes = readFileSync(single);
  console.log(`   single file dist/attention.html: ${kb(bytes.length)} KB, ${kb(gzipSync(bytes, { level: 9 }).length)} KB gzipped`);
}
if (args.includes('--markdown')) {
  console.log('\n| section | files | gzipped KB |\n|---|---:|---:|');
  for (const r of rows) console.log(`| \`${r.id}\` | ${r.files} | ${kb(r.gzip)} |`);
}
const jsonAt = args.indexOf('--json');
if (jsonAt >= 0) writeFileSync(args[jsonAt + 1], JSON.stringify({ budgetKB: BUDGET_KB, sections: rows }, null, 2));
if (rows.some((r) => !r.ok)) {
  console.error(`size-report: over the ${BUDGET_KB} KB budget: ${rows.filter((r) => !r.ok).map((r) => r.id).join(', ')}`);
  process.exit(1);
}
