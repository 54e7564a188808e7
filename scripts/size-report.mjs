// npm run size: what one embedded section costs a blog page, gzipped, measured.
//
// For each section, a page holding one <attention-demo section="..."> and the
// embed script (written to a temporary folder served next to dist/, never into
// it) is served with the site's CSP and opened in headless
// Chromium; every file the page then fetches (the embed script and its chunks,
// the section's code and text, the engine's JS and .wasm, worker scripts and
// whatever they fetch, CSS and fonts if any) is counted once, gzipped (level 9),
// after the widget has computed and its background work has finished. The host
// page itself is not counted. Work a reader must ask for (section 10's
// benchmark) is not counted.
//
// Budget: 150 KB gzipped per section with the SIMD forward module (61 KB of
// it). A section that trains or differentiates needs a learning module
// instead (createAttention's `learning`: 'basic' the backward pass and the
// one-layer trainer, true the whole model engine), whose weight is the
// engine's, not the section's: its budget is 150 KB with that module in place
// of the forward one, so the section's own code, text and the engine's JS are
// held to the same ~89 KB as every other section, and each module has a budget
// of its own (MODULE_BUDGET_KB) that stops the engine from growing unseen.
// Exits 1 if a section or a module is over its budget.
//   node scripts/size-report.mjs [--markdown] [--json file]
// Needs `npm run build` (dist/) and Chromium (scripts/ensure-deps.sh).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { sections } from '../web/src/sections/registry.js';

export const BUDGET_KB = 150;
// Gzipped KB of each module's .wasm (web/src/engine/wasm, the SIMD build; the
// build without SIMD is smaller): what the README's page weight states.
export const MODULE_BUDGET_KB = { forward: 64, backward: 120, learning: 200 };
const FORWARD_WASM = 'attention-simd';
const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const args = process.argv.slice(2);

if (!existsSync(join(dist, 'embed', 'attention-embed.js'))) {
  console.error('size-report: dist/embed/attention-embed.js is missing; run `npm run build` first');
  process.exit(1);
}
const { openSite } = await import('./lib/browser.mjs');

const kb = (bytes) => (bytes / 1024).toFixed(1);
const kind = (path) => (path.endsWith('.wasm') ? 'wasm' : path.endsWith('.css') ? 'css'
  : /\.(woff2?|ttf|otf)$/.test(path) ? 'font' : path.endsWith('.js') || path.endsWith('.mjs') ? 'js' : 'other');
const gz = new Map();
function sizeOf(path) {
  if (!gz.has(path)) {
    const bytes = readFileSync(join(dist, path));
    gz.set(path, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
  }
  return gz.get(path);
}

const probes = mkdtempSync(join(tmpdir(), 'attn-size-'));
const session = await openSite({ roots: [dist, probes] });
const rows = [];
try {
  for (const section of sections) {
    const probe = `size-probe-${section.id}.html`;
    writeFileSync(join(probes, probe), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>size</title>
<link rel="icon" href="data:,"><script type="module" src="embed/attention-embed.js"></script></head>
<body><attention-demo section="${section.id}"></attention-demo></body></html>\n`);
    const start = session.requests.length;
    const page = await session.newPage(probe, { width: 900, height: 900 });
    await page.waitForSelector('attention-demo[data-ready]', { timeout: 60000 });
    await page.waitForFunction(() => !document.querySelector('attention-demo').shadowRoot.querySelector('[aria-busy="true"]'),
      null, { timeout: 60000 });
    // The widget has computed and its background work is done (above); let the
    // work it queued for idle time run, then wait until no request has come for
    // a quarter of a second (a request sent late would be counted, not missed).
    await page.evaluate(() => new Promise((done) => requestIdleCallback(() => done())));
    for (let seen = -1; seen !== session.requests.length;) {
      seen = session.requests.length;
      await page.waitForTimeout(250);
    }
    const errors = session.consoleErrors(page);
    await page.close();
    if (errors.length) throw new Error(`size-report: ${section.id}: ${errors.join('; ')}`);
    const files = [...new Set(session.requests.slice(start))].filter((p) => !p.endsWith('.html'));
    const by = {};
    let raw = 0;
    let gzip = 0;
    for (const file of files) {
      const s = sizeOf(file);
      raw += s.raw;
      gzip += s.gzip;
      by[kind(file)] = (by[kind(file)] ?? 0) + s.gzip;
    }
    const wasmFiles = files.filter((f) => f.endsWith('.wasm'));
    const wasm = wasmFiles.map((f) => f.replace(/^.*\/attention-(\w+)-.*$/, '$1'));
    // The budget with this section's modules in place of the forward one.
    const forward = sizeOf(wasmFiles.find((f) => f.includes(FORWARD_WASM)) ?? forwardWasmPath()).gzip;
    const learningModules = wasmFiles.filter((f) => /attention-(backward|learning)-/.test(f));
    const budget = BUDGET_KB * 1024 + (learningModules.length ? learningModules.reduce((sum, f) => sum + sizeOf(f).gzip, 0) - forward : 0);
    rows.push({ id: section.id, files: files.length, raw, gzip, by, wasm, budget, ok: gzip <= budget });
  }
} finally {
  await session.close();
  rmSync(probes, { recursive: true, force: true });
}

// The forward SIMD module's file in dist/ (hashed name), for a section that did not load it.
function forwardWasmPath() {
  const found = session.requests.find((p) => p.includes(FORWARD_WASM) && p.endsWith('.wasm'));
  if (!found) throw new Error('size-report: no section loaded the SIMD forward module');
  return found;
}
// Each module's .wasm, gzipped, against its budget.
const modules = Object.entries({ forward: FORWARD_WASM, backward: 'attention-backward-simd', learning: 'attention-learning-simd' })
  .map(([name, stem]) => {
    const file = readdirSync(join(dist, 'assets')).find((f) => f.startsWith(`${stem}-`) && f.endsWith('.wasm'));
    const gzip = file ? sizeOf(join('assets', file)).gzip : NaN;
    return { name, file, gzip, ok: gzip <= MODULE_BUDGET_KB[name] * 1024 };
  });

console.log(`One embedded section: every file its page downloads, gzipped (budget ${BUDGET_KB} KB with the forward module; a section that learns: ${BUDGET_KB} KB with its learning module in place of the forward one).`);
console.log(`   ${'section'.padEnd(17)} ${'files'.padStart(5)} ${'raw KB'.padStart(8)} ${'gzip KB'.padStart(8)}  ${'js'.padStart(6)} ${'wasm'.padStart(6)}  build`);
for (const r of rows) {
  console.log(`   ${r.id.padEnd(17)} ${String(r.files).padStart(5)} ${kb(r.raw).padStart(8)} ${kb(r.gzip).padStart(8)}  ` +
    `${kb(r.by.js ?? 0).padStart(6)} ${kb(r.by.wasm ?? 0).padStart(6)}  ${r.wasm.join('+') || '-'}` +
    `${r.budget === BUDGET_KB * 1024 ? '' : ` (budget ${kb(r.budget)})`}${r.ok ? '' : '   OVER BUDGET'}`);
}
console.log('Each module (SIMD .wasm, gzipped):');
for (const m of modules) {
  console.log(`   ${m.name.padEnd(17)} ${kb(m.gzip).padStart(8)} KB  (budget ${MODULE_BUDGET_KB[m.name]})${m.ok ? '' : '   OVER BUDGET'}`);
}
if (args.includes('--markdown')) {
  console.log('\n| section | files | gzipped KB | of which .wasm |\n|---|---:|---:|---:|');
  for (const r of rows) console.log(`| \`${r.id}\` | ${r.files} | ${kb(r.gzip)} | ${kb(r.by.wasm ?? 0)} |`);
}
const jsonAt = args.indexOf('--json');
if (jsonAt >= 0) writeFileSync(args[jsonAt + 1], JSON.stringify({ budgetKB: BUDGET_KB, moduleBudgetKB: MODULE_BUDGET_KB, sections: rows, modules }, null, 2));
const over = [...rows.filter((r) => !r.ok).map((r) => r.id), ...modules.filter((m) => !m.ok).map((m) => `module ${m.name}`)];
if (over.length) {
  console.error(`size-report: over budget: ${over.join(', ')}`);
  process.exit(1);
}
