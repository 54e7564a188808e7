// End to end: sections 2, 3, 8, 9 and 10 of the walkthrough (dist/index.html,
// built by `vite build`) in headless Chromium under the site's CSP.
//
// Checks what a reader sees and does: every id; each experiment of section 2
// reruns with a new seed and changes its numbers, and how long it takes (from
// the click to the new numbers in the page, and to the painted frame: printed
// against the 100 ms target as a measurement, not asserted — the machine is
// shared and noisy); symmetric logits give exactly 0 and separate
// W_Q, W_K do not; shuffling prints 0 without positional encodings and more
// than 0 with them;
// the five alignments rerun; the benchmark runs to completion for n = 64, 128
// in its worker, and can be cancelled; both languages; axe finds nothing; no
// sideways scrolling at 375 px; no console errors. Writes screenshots of the
// five sections to tests/e2e/screenshots/part2-*.png.
//
// ATTN_E2E_DIST: another build of the site to test (default dist/).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { DIST, ROOT, SCREENSHOTS, openSite } from './browser.mjs';

const DIR = process.env.ATTN_E2E_DIST ?? DIST;
const PART2 = ['scaling', 'reading-weights', 'family', 'order', 'cost'];
const TARGET_MS = 100;  // printed beside the figures; a measurement, not an assertion
const RERUNS = 7;
let session;
const timings = [];

async function open(path, width = 1280) {
  const page = await session.newPage(path, { width, height: 900 });
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  return page;
}

// Off-screen sections are not laid out (content-visibility: auto); this lays
// out every section, for screenshots and width checks.
const renderAll = (page) => page.addStyleTag({ content: '.section { content-visibility: visible !important; }' });

const text = (page, selector) => page.$eval(selector, (el) => el.textContent.trim());
const number = async (page, selector) => Number(await page.getAttribute(selector, 'data-value'));
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

// Clicks `button` inside `panel` and resolves, in the page, to { result, paint }:
// the milliseconds from the click to the new result being in the page (the
// panel's data-run changes right after a result is shown) and to the frame
// that painted it (two animation frames later).
function clickToResult(page, panel, button) {
  return page.evaluate(([panelSel, buttonSel]) => new Promise((resolve) => {
    const el = document.querySelector(panelSel);
    const before = el.dataset.run;
    const observer = new MutationObserver(() => {
      if (el.dataset.run === before) return;
      observer.disconnect();
      const result = performance.now() - t0;
      requestAnimationFrame(() => requestAnimationFrame(() => resolve({ result, paint: performance.now() - t0 })));
    });
    observer.observe(el, { attributes: true, attributeFilter: ['data-run'] });
    const t0 = performance.now();
    document.querySelector(buttonSel).click();
  }), [panel, button]);
}

async function waitForRun(page, panel, before) {
  await page.waitForFunction(([sel, b]) => document.querySelector(sel).dataset.run !== b, [panel, before], { timeout: 30000 });
}

async function shoot(page, id, name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const el = page.locator(`section#${id}`);
  await el.scrollIntoViewIfNeeded();
  await page.waitForTimeout(150);
  await el.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

before(async () => {
  assert.ok(existsSync(join(DIR, 'index.html')), `${DIR}/index.html is missing: run \`node_modules/.bin/vite build\` first`);
  session = await openSite({ dir: DIR });
});

after(async () => {
  await session?.close();
  if (timings.length) {
    console.log(`\nSection 2 experiments in Chromium, default sizes, ${RERUNS} reruns each with a new seed (ms):`);
    console.log('  result = from the click on "New seed" to the new numbers in the page; paint = to the frame that shows them;');
    console.log('  (result and paint: medians; best and max: of result); engine = the engine call(s) alone, median;');
    console.log('  first = the first run, at page load (includes starting the workers and compiling the wasm)');
    console.log(`  measured with ${timings.load}; target: result under ${TARGET_MS} ms`);
    console.log(`  ${'experiment'.padEnd(34)} ${'result'.padStart(7)} ${'best'.padStart(7)} ${'max'.padStart(7)} ${'paint'.padStart(7)} ${'engine'.padStart(7)} ${'first'.padStart(7)}`);
    for (const t of timings) {
      const verdict = t.result < TARGET_MS ? 'under target' : 'OVER target';
      console.log(`  ${t.label.padEnd(34)} ${[t.result, t.best, t.maxResult, t.paint, t.engine, t.first].map((x) => x.toFixed(1).padStart(7)).join(' ')}  ${verdict}`);
    }
  }
});

test('sections 2, 3, 8, 9 and 10: every id, formulas as MathML, complete text, no console errors', async () => {
  const page = await open('index.html?lang=en');
  for (const id of PART2) {
    assert.equal(await page.locator(`section#${id}`).count(), 1, `section #${id}`);
    assert.ok(await page.locator(`section#${id} math`).count() > 0, `#${id} has MathML`);
    const content = await text(page, `section#${id}`);
    assert.ok(!content.includes('\u27e6'), `#${id} has no missing string: ${content.match(/\u27e6[^\u27e7]*\u27e7/)?.[0]}`);
  }
  for (const id of ['scaling-ten-keys', 'scaling-trials', 'scaling-sweep', 'reading-weights-symmetry',
    'reading-weights-asymmetry', 'family-panel', 'family-bahdanau', 'family-dot', 'family-general', 'family-concat',
    'family-scaledDot', 'order-panel', 'order-max-diff', 'order-pe-toggle', 'cost-bench', 'cost-memory']) {
    assert.equal(await page.locator(`#${id}`).count(), 1, `#${id}`);
  }
  // every chart and heatmap has a table alternative
  for (const id of PART2) {
    const figures = await page.locator(`section#${id} .heatmap, section#${id} .lc`).count();
    const tables = await page.locator(`section#${id} .heatmap details.table-alt, section#${id} .lc details.table-alt, section#${id} .lc[class*="sc-plot"]`).count();
    assert.equal(tables, figures, `#${id}: a table alternative per chart`);
  }
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('section 2: each experiment reruns with a new seed, changes its numbers, and finishes in time', async () => {
  const page = await open('index.html?lang=en');
  await page.waitForSelector('#scaling-trials[data-run]', { timeout: 30000 });
  await page.waitForSelector('#scaling-sweep[data-run]', { timeout: 30000 });
  await page.locator('#scaling').scrollIntoViewIfNeeded();

  const experiments = [
    { panel: '#scaling-ten-keys', label: 'ten keys (d_k = 512)', result: '#scaling-ten-keys .sc-summary' },
    { panel: '#scaling-trials', label: 'trials (d_k = 64, 8 keys, 5000)', result: '#scaling-trials tbody' },
    { panel: '#scaling-sweep', label: 'sweep (d = 4..1024, 200 trials)', result: '#scaling-sweep tbody' },
  ];
  // The seeded defaults: the raw weights saturate, the scaled ones do not.
  assert.match(await text(page, '#scaling-ten-keys .sc-summary'), /1\.000/);
  assert.match(await text(page, '#scaling-trials tbody'), /0\.0%/);

  for (const e of experiments) {
    const first = Number(await page.getAttribute(`${e.panel} .sc-timing`, 'data-ms'));
    const result = [];
    const paint = [];
    const engine = [];
    for (let i = 0; i < RERUNS; i++) {
      const before = await text(page, e.result);
      const seed = await page.getAttribute(`${e.panel} .sc-timing`, 'data-seed');
      const t = await clickToResult(page, e.panel, `${e.panel} button[data-action="rerun"]`);
      result.push(t.result);
      paint.push(t.paint);
      engine.push(Number(await page.getAttribute(`${e.panel} .sc-timing`, 'data-engine-ms')));
      assert.notEqual(await page.getAttribute(`${e.panel} .sc-timing`, 'data-seed'), seed, `${e.label}: a new seed`);
      assert.notEqual(await text(page, e.result), before, `${e.label}: new numbers`);
    }
    timings.load = `load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores`;
    timings.push({
      label: e.label, result: median(result), best: Math.min(...result), maxResult: Math.max(...result),
      paint: median(paint), engine: median(engine), first,
    });
  }

  // Reproducible: typing the default seed (1) back gives the same numbers again.
  const seedBox = page.locator('#scaling-ten-keys .seed-input');
  const before = await page.getAttribute('#scaling-ten-keys', 'data-run');
  await seedBox.fill('1');
  await seedBox.press('Enter');
  await waitForRun(page, '#scaling-ten-keys', before);
  assert.match(await text(page, '#scaling-ten-keys .sc-summary'), /from −28\.5 to 40\.3/);

  // The d_k slider: fewer dimensions, less saturation (keyboard).
  await page.focus('#scaling-ten-keys input[type="range"]');
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowLeft');
  assert.match(await text(page, '#scaling-ten-keys .range-value'), /^8$/);
  assert.match(await text(page, '#scaling-ten-keys .sc-summary'), /d\s*k\s*= 8/);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('section 3: symmetric logits give exactly 0, separate W_Q, W_K do not; a row is a gaze', async () => {
  const page = await open('index.html?lang=en');
  await page.locator('#reading-weights').scrollIntoViewIfNeeded();
  assert.equal(await text(page, '#reading-weights-symmetry'), '0');
  assert.equal(await number(page, '#reading-weights-symmetry'), 0);
  const asym = await number(page, '#reading-weights-asymmetry');
  assert.ok(asym > 0.1, `median relative asymmetry ${asym}`);
  const run = await page.getAttribute('#reading-weights-asymmetry-panel', 'data-run');
  await page.click('#reading-weights-asymmetry-panel button[data-action="rerun"]');
  await waitForRun(page, '#reading-weights-asymmetry-panel', run);
  assert.notEqual(await number(page, '#reading-weights-asymmetry'), asym, 'a new seed, a new median');

  // t3 gives t0 more than itself (the default selection), with the norms shown.
  assert.match(await text(page, '#reading-weights .rw-gaze-title'), /t3/);
  assert.match(await text(page, '#reading-weights .rw-why-text'), /‖t0‖ = 2\.651/);
  // Hovering row t1 shows t1's gaze; the keyboard picks t2.
  await page.locator('#reading-weights .rw-heatmap .heatmap-row').nth(2).locator('.heatmap-cell').first().hover();
  assert.match(await text(page, '#reading-weights .rw-gaze-title'), /t1/);
  assert.equal(await page.locator('#reading-weights .rw-selected-row').count(), 1);
  await page.focus('#reading-weights .rw-gaze input[type="radio"]:checked');
  await page.keyboard.press('ArrowRight');
  assert.match(await text(page, '#reading-weights .rw-gaze-title'), /t2/);

  // Editing an embedding changes the weights and keeps the logits symmetric.
  const weights = await text(page, '#reading-weights .rw-heatmap .heatmap-grid');
  const box = page.locator('#reading-weights .matrix-input input').nth(1);
  await box.fill('0.9');
  assert.notEqual(await text(page, '#reading-weights .rw-heatmap .heatmap-grid'), weights);
  assert.equal(await number(page, '#reading-weights-symmetry'), 0);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('section 9: shuffling prints 0 without positional encodings, more than 0 with them', async () => {
  const page = await open('index.html?lang=en');
  await page.locator('#order').scrollIntoViewIfNeeded();
  assert.equal(await page.inputValue('#order .or-perm-input'), '3, 1, 5, 0, 4, 2');
  assert.equal(await text(page, '#order-max-diff'), '0');
  assert.equal(await number(page, '#order-max-diff'), 0);
  const rows = await page.$$eval('#order .or-rows tbody tr', (trs) => trs.map((tr) => tr.lastElementChild.textContent));
  assert.deepEqual(rows, ['0', '0', '0', '0', '0', '0'], 'every row: difference 0');

  await page.click('#order-pe-toggle');
  assert.equal(await page.getAttribute('#order-pe-toggle', 'aria-checked'), 'true');
  const withPe = await number(page, '#order-max-diff');
  assert.ok(withPe > 0, `with positional encodings: ${withPe}`);
  assert.notEqual(await text(page, '#order-max-diff'), '0');

  // The identity keeps every token in place: 0 even with the encodings.
  await page.fill('#order .or-perm-input', '0, 1, 2, 3, 4, 5');
  assert.equal(await number(page, '#order-max-diff'), 0);
  // A bad permutation is refused with a message; the last good result stays.
  await page.fill('#order .or-perm-input', '0, 1, 1, 3, 4, 5');
  assert.match(await text(page, '#order-panel .input-error'), /twice/);
  assert.equal(await number(page, '#order-max-diff'), 0);
  // Shuffle (random), then switch the encodings off: 0 again.
  const run = await page.getAttribute('#order-panel', 'data-run');
  await page.click('#order button[data-action="shuffle"]');
  await waitForRun(page, '#order-panel', run);
  assert.ok(await number(page, '#order-max-diff') > 0);
  await page.click('#order-pe-toggle');
  assert.equal(await number(page, '#order-max-diff'), 0);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('section 8: five alignment matrices from one seed, rerun with another', async () => {
  const page = await open('index.html?lang=en');
  await page.locator('#family').scrollIntoViewIfNeeded();
  assert.equal(await page.locator('#family .fa-card .heatmap').count(), 5);
  const before = await text(page, '#family .fa-cards');
  assert.match(await text(page, '#family .fa-note'), /largest difference 0,/);
  const run = await page.getAttribute('#family-panel', 'data-run');
  await page.click('#family-panel button[data-action="rerun"]');
  await waitForRun(page, '#family-panel', run);
  assert.notEqual(await text(page, '#family .fa-cards'), before);
  assert.match(await text(page, '#family .fa-note'), /largest difference 0,/);
  assert.equal(await page.locator('#family .fa-summary tbody tr').count(), 7);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('section 10: the benchmark runs in a worker to completion for n = 64, 128, and can be cancelled', async () => {
  const page = await open('index.html?lang=en');
  await page.locator('#cost-bench').scrollIntoViewIfNeeded();
  assert.equal(await page.getAttribute('#cost-bench', 'data-state'), 'idle');
  assert.ok(await page.locator('#cost-bench button[data-action="cancel"]').isDisabled());
  await page.click('#cost-largest label:has-text("128")');
  await page.click('#cost-bench button[data-action="run"]');
  await page.waitForSelector('#cost-bench[data-state="done"], #cost-bench[data-state="error"]', { timeout: 90000 });
  assert.equal(await page.getAttribute('#cost-bench', 'data-state'), 'done', await text(page, '#cost-bench .co-status'));
  assert.equal(await page.$eval('#cost-bench progress', (p) => p.value), 1);
  const table = await page.$$eval('#cost-bench .lc-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.deepEqual(table.map((r) => r[0]), ['64', '128']);
  for (const row of table) {
    assert.equal(row.length, 5);
    // the median, then the middle half of the samples
    for (const cell of row.slice(1)) assert.match(cell, /^\d+(\.\d+)? ms \(\d+(\.\d+)? ms\u2013\d+(\.\d+)? ms\)$/, `a time: ${cell}`);
  }
  assert.match(await text(page, '#cost-bench .co-summary'), /n\s*= 128/);
  assert.equal(await page.locator('#cost-bench .lc-line').count(), 4);

  // A long run, cancelled while it runs.
  await page.click('#cost-largest label:has-text("4,096")');
  await page.click('#cost-bench button[data-action="run"]');
  await page.waitForFunction(() => /n = /.test(document.querySelector('#cost-bench .co-status').textContent), null, { timeout: 30000 });
  await page.click('#cost-bench button[data-action="cancel"]');
  assert.equal(await page.getAttribute('#cost-bench', 'data-state'), 'cancelled');
  assert.ok(!(await page.locator('#cost-bench button[data-action="run"]').isDisabled()));
  // Memory by shape: the 4096 x 4096 score matrix is 64 MiB.
  assert.match(await text(page, '#cost-memory .co-summary'), /64\sMiB/);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('a link reproduces what the reader saw, and the reader’s changes go into the link', async () => {
  const page = await open('index.html?lang=en&order.perm=5,4,3,2,1,0&order.pe=on&scaling.dk=64&scaling.seed=7'
    + '&family.seed=42&reading-weights.token=t1&cost.n=256');
  await page.locator('#order').scrollIntoViewIfNeeded();
  assert.equal(await page.inputValue('#order .or-perm-input'), '5, 4, 3, 2, 1, 0');
  assert.equal(await page.getAttribute('#order-pe-toggle', 'aria-checked'), 'true');
  assert.ok(await number(page, '#order-max-diff') > 0);
  assert.equal(await text(page, '#scaling-ten-keys .range-value'), '64');
  assert.equal(await page.inputValue('#scaling-ten-keys .seed-input'), '7');
  assert.equal(await page.inputValue('#family-panel .seed-input'), '42');
  assert.match(await text(page, '#reading-weights .rw-gaze-title'), /t1/);
  assert.equal(await page.$eval('#cost-largest input:checked', (i) => i.value), '256');
  // The reader switches the encodings off: the link follows (debounced).
  await page.click('#order-pe-toggle');
  await page.waitForFunction(() => !/order\.pe=/.test(location.search), null, { timeout: 5000 });
  assert.match(await page.evaluate(() => location.search), /order\.perm=5,4,3,2,1,0/);
  // A malformed parameter is named in a notice and the section keeps its defaults.
  const bad = await open('index.html?lang=en&order.perm=0,0,0,0,0,0');
  await bad.locator('#order').scrollIntoViewIfNeeded();
  assert.match(await text(bad, '#order .share-notice'), /perm/);
  assert.equal(await bad.inputValue('#order .or-perm-input'), '3, 1, 5, 0, 4, 2');
  assert.deepEqual([...session.consoleErrors(page), ...session.consoleErrors(bad)], []);
  await page.close();
  await bad.close();
});

test('Korean: complete text, and results kept across a language switch', async () => {
  const page = await open('index.html?lang=ko');
  await page.waitForSelector('#scaling-sweep[data-run]', { timeout: 30000 });
  for (const id of PART2) {
    const content = await text(page, `section#${id}`);
    assert.ok(!content.includes('\u27e6'), `#${id} (ko) has no missing string`);
    assert.match(content, /[\uac00-\ud7a3]/, `#${id} is in Korean`);
  }
  assert.match(await text(page, '#scaling-title'), /나누는가/);
  assert.equal(await text(page, '#order-max-diff'), '0');
  const sweep = await text(page, '#scaling-sweep tbody');
  await page.click('.lang-switch button[data-lang="en"]');
  await page.waitForSelector('body[data-ready="en"]');
  await page.waitForFunction(() => /Why divide/.test(document.querySelector('#scaling-title').textContent));
  assert.equal(await text(page, '#scaling-sweep tbody'), sweep, 'the sweep is not recomputed on a language switch');
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('axe: no accessibility violations in the five sections, light and dark, tables open, after a run', async () => {
  const axeSource = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  for (const [scheme, width, lang] of [['light', 1280, 'en'], ['dark', 375, 'ko']]) {
    const page = await session.newPage(null, { width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`${session.url}index.html?lang=${lang}`);
    await page.waitForSelector('body[data-ready]', { timeout: 30000 });
    await page.waitForSelector('#scaling-sweep[data-run]', { timeout: 30000 });
    await renderAll(page);
    await page.locator('#cost-bench').scrollIntoViewIfNeeded();
    await page.click('#cost-largest label:has-text("128")');
    await page.click('#cost-bench button[data-action="run"]');
    await page.waitForSelector('#cost-bench[data-state="done"]', { timeout: 90000 });
    await page.click('#order-pe-toggle');
    await page.evaluate(() => document.querySelectorAll(
      '#scaling details, #reading-weights details, #family details, #order details, #cost details').forEach((d) => {
      d.open = true;
      d.dispatchEvent(new Event('toggle'));
    }));
    await page.waitForTimeout(300);
    await page.evaluate(axeSource);   // evaluated through the DevTools protocol, not blocked by the CSP
    const violations = await page.evaluate(async (ids) => {
      const result = await window.axe.run({ include: ids.map((id) => [`#${id}`]) }, { resultTypes: ['violations'] });
      return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes[0].target.join(' ')}`);
    }, PART2);
    assert.deepEqual(violations, [], `${scheme} ${width}px ${lang}`);
    assert.deepEqual(session.consoleErrors(page), []);
    await page.close();
  }
});

test('375 px and 1280 px: no sideways scrolling; screenshots of the five sections', async () => {
  for (const lang of ['en', 'ko']) {
    for (const width of [1280, 375]) {
      const page = await open(`index.html?lang=${lang}`, width);
      await page.waitForSelector('#scaling-sweep[data-run]', { timeout: 30000 });
      await renderAll(page);
      await page.waitForTimeout(200);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${lang} ${width}px: the page scrolls sideways by ${overflow}px`);
      for (const id of PART2) {
        const wide = await page.$eval(`section#${id}`, (s) => s.getBoundingClientRect().right - window.innerWidth);
        assert.ok(wide <= 0, `#${id} sticks out by ${wide}px at ${width}px`);
      }
      if (lang === 'en' || width === 375) for (const id of PART2) await shoot(page, id, `part2-${id}-${lang}-${width}`);
      assert.deepEqual(session.consoleErrors(page), []);
      await page.close();
    }
  }
});
