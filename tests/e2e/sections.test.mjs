// End to end: what a reader does in each section of the walkthrough
// (dist/index.html) in headless Chromium under the site's CSP, one test per
// section of the registry, in reading order, on one page (a section's test
// touches only its own section). What every section shares (ids, text, numbers,
// languages) is in walkthrough.test.mjs; links in sharing.test.mjs; axe and the
// 375 px check in accessibility.test.mjs.
//
// Prints two measurements (not assertions: the machine is shared and noisy):
// how long an interaction takes from input to painted frame (target 16 ms),
// and how long each experiment of section 2 takes to rerun (target 100 ms;
// twice here, 7 times in npm run test:stress: tests/e2e/speed.mjs).
// (The screenshots of each section: npm run test:stress, tests/stress/screenshots.test.mjs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, openSite, timeToPaint } from './browser.mjs';
import { loadAverage, median, rerunScalingExperiments } from './speed.mjs';
import { sectionsOf } from '../../web/src/sections/pages.js';

const paintTimings = [];
const experimentLines = [];
const RERUNS = 2;   // each of section 2's experiments, with a new seed
let session;
let page;   // the walkthrough, shared by the section tests

const texts = (p, selector) => p.$$eval(selector, (els) => els.map((e) => e.textContent.trim()));
const text = (p, selector) => p.$eval(selector, (el) => el.textContent.trim());
const number = async (p, selector) => Number(await p.getAttribute(selector, 'data-value'));
const weightTexts = (p) => texts(p, '#worked-example .step-weight .step-value');
const sumOf = (list) => list.reduce((a, s) => a + Number(s.replace('\u2212', '-')), 0);
// Opens every "show the numbers as a table" of a section (built on first open).
const openTables = (p, section) => p.$$eval(`${section} details.table-alt`, (list) => list.forEach((d) => { d.open = true; }));

async function open(path, width = 1280) {
  const p = await session.newPage(path, { width, height: 900 });
  await p.waitForSelector('body[data-ready]', { timeout: 30000 });
  return p;
}

// Times an interaction `runs` times. `action(i)` runs in the page: it
// dispatches the input and returns the milliseconds of the synchronous work it
// caused (event handlers, engine calls, DOM updates, and a forced layout).
// timeToPaint wraps it: from just before the input to the frame after the
// update was painted (this includes one CDP round trip and waits for two
// animation frames, so about one frame interval is its floor).
async function measure(label, p, action, runs = 5) {
  await p.evaluate(() => {
    window.__time = (fn) => {
      const t0 = performance.now();
      fn();
      document.documentElement.getBoundingClientRect();   // force style and layout
      return performance.now() - t0;
    };
  });
  const paint = [];
  const work = [];
  for (let i = 0; i < runs; i++) {
    paint.push(await timeToPaint(p, async () => { work.push(await p.evaluate(action, i)); }));
  }
  paintTimings.push({ label, paint: median(paint), work: median(work), maxPaint: Math.max(...paint), runs });
}

// Waits until `panel` shows a result newer than `before` (its data-run changed).
async function waitForRun(p, panel, before) {
  await p.waitForFunction(([sel, b]) => document.querySelector(sel).dataset.run !== b, [panel, before], { timeout: 30000 });
}

// One test per section, in the registry's order: the registry test checks that none is missing.
const SECTION_TESTS = [];
function sectionTest(id, name, body) {
  SECTION_TESTS.push(id);
  test(`${id}: ${name}`, async () => {
    await body(page);
    assert.deepEqual(session.consoleErrors(page), []);
  });
}

before(async () => {
  assert.ok(existsSync(join(DIST, 'index.html')), 'dist/index.html is missing: run `npm run build` first');
  session = await openSite();
  page = await open('index.html?lang=en');
});

after(async () => {
  await session?.close();
  const load = loadAverage();
  if (paintTimings.length) {
    console.log(`\nInteraction timings in ms (median; target < 16; ${load}). work = handlers + engine + DOM + layout;`);
    console.log('paint = timeToPaint, input to the next painted frame (includes a CDP round trip and 2 rAF waits):');
    console.log(`  ${'interaction'.padEnd(46)} ${'work'.padStart(6)} ${'paint'.padStart(7)} ${'max paint'.padStart(10)}  runs`);
    for (const t of paintTimings) {
      console.log(`  ${t.label.padEnd(46)} ${t.work.toFixed(2).padStart(6)} ${t.paint.toFixed(1).padStart(7)} ${t.maxPaint.toFixed(1).padStart(10)}  ${t.runs}`);
    }
  }
  if (experimentLines.length) console.log(`\n${experimentLines.join('\n')}`);
});

sectionTest('worked-example', 'every number, the scaling toggle, editing, reset', async (p) => {
  await p.locator('#worked-example').scrollIntoViewIfNeeded();
  assert.deepEqual(await weightTexts(p), ['0.401', '0.198', '0.401']);
  assert.deepEqual(await texts(p, '#worked-example .step-mix .step-sum .cv-entry'), ['1.203', '0.797']);
  // The floor of the measurement: an input that does nothing.
  await measure('(floor: an input that does nothing)', p, () => window.__time(() => {}));
  const panel = await p.textContent('#worked-example .steps-table');
  for (const n of ['0.707', '2.028', '5.056', '1.000']) assert.ok(panel.includes(n), `steps table shows ${n}`);

  const toggle = p.locator('#worked-example button[role="switch"]');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-checked'), 'false');
  assert.deepEqual(await weightTexts(p), ['0.422', '0.155', '0.422']);
  await toggle.click();
  assert.deepEqual(await weightTexts(p), ['0.401', '0.198', '0.401']);
  await measure('worked example: scaling toggle', p, () =>
    window.__time(() => document.querySelector('#worked-example button[role="switch"]').click()), 6);
  assert.deepEqual(await weightTexts(p), ['0.401', '0.198', '0.401']);

  // Article 000's columns: the same numbers, transposed (a row per key, a column per step), the
  // article's formula, K^T q as the engine computes it directly, and the choice in the link.
  const cellsOf = () => p.$$eval('#worked-example .steps-table tbody tr', (rows) =>
    rows.map((row) => [...row.cells].slice(1).map((cell) => cell.textContent.trim())));
  const byStep = await cellsOf();   // rows: dot, scaled, exp, weight, mix; columns: k1, k2, k3, sum
  await p.locator('#worked-example').getByRole('radio', { name: /in columns/ }).check();
  const byKey = await cellsOf();    // rows: k1, k2, k3, sum; columns: the steps
  assert.deepEqual(byKey, byStep[0].map((_, j) => byStep.map((row) => row[j])), 'the column form is the row form transposed');
  assert.match(await text(p, '#worked-example .formula'), /V\s*Softmax/);
  assert.match(await text(p, '#worked-example .we-convention-note'), /= \(1\.000, 0\.000, 1\.000\): the row .*all 3 numbers equal/);
  await p.waitForFunction(() => location.search.includes('worked-example.convention=columns'));
  await p.locator('#worked-example').getByRole('radio', { name: /in rows/ }).check();
  assert.deepEqual(await cellsOf(), byStep);
  assert.equal(await p.locator('#worked-example .we-convention-note').isHidden(), true);

  // Edit q's second component: the weights change and still sum to 1.
  const box = p.getByRole('textbox', { name: 'q, component 2' });
  await box.fill('0.5');
  await measure('worked example: typing in an input', p, (i) => window.__time(() => {
    const input = document.querySelector('#worked-example input[aria-label="q, component 2"]');
    input.value = String(0.5 + (i + 1) / 10);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }));
  const edited = await weightTexts(p);
  assert.notDeepEqual(edited, ['0.401', '0.198', '0.401']);
  assert.ok(Math.abs(sumOf(edited) - 1) <= 0.002, `weights ${edited} sum to 1`);
  assert.equal(await p.textContent('#worked-example .step-weight .step-sum'), '1.000');

  // Not a number: the engine's message is shown near the inputs, then it recovers.
  await box.fill('abc');
  assert.match(await p.textContent('#worked-example .input-error'), /q/);
  assert.equal(await box.getAttribute('aria-invalid'), 'true');
  await box.fill('0');
  assert.equal(await p.textContent('#worked-example .input-error'), '');
  assert.deepEqual(await weightTexts(p), ['0.401', '0.198', '0.401']);

  await box.fill('2');
  await p.locator('#worked-example').getByRole('button', { name: /Reset/ }).first().click();
  assert.deepEqual(await weightTexts(p), ['0.401', '0.198', '0.401']);

  // Dragging q with the mouse: the weights and the q inputs follow.
  const handle = p.locator('#worked-example .vp-handle');
  await handle.scrollIntoViewIfNeeded();
  const hb = await handle.boundingBox();
  const [x, y] = [hb.x + hb.width / 2, hb.y + hb.height / 2];
  await p.mouse.move(x, y);
  await p.mouse.down();
  for (let i = 1; i <= 5; i++) await p.mouse.move(x - 10 * i, y - 12 * i);
  await p.mouse.up();
  const dragged = await weightTexts(p);
  assert.notDeepEqual(dragged, ['0.401', '0.198', '0.401'], 'dragging q changed the weights');
  assert.ok(Math.abs(sumOf(dragged) - 1) <= 0.002);
  assert.notEqual(await p.getByRole('textbox', { name: 'q, component 1' }).inputValue(), '1', 'the q input follows the drag');
  // The cost of one pointer move during a drag, dispatched in the page.
  await measure('worked example: dragging q (one pointer move)', p, (i) => {
    const h = document.querySelector('#worked-example .vp-handle');
    const r = h.getBoundingClientRect();
    const at = (dx) => ({ bubbles: true, pointerId: 9, pointerType: 'mouse', isPrimary: true,
      clientX: r.left + r.width / 2 + dx, clientY: r.top + r.height / 2 - dx });
    h.dispatchEvent(new PointerEvent('pointerdown', at(0)));
    const ms = window.__time(() => h.dispatchEvent(new PointerEvent('pointermove', at(4 + i))));
    h.dispatchEvent(new PointerEvent('pointerup', at(4 + i)));
    return ms;
  });

  // The keyboard moves q too.
  await p.locator('#worked-example').getByRole('button', { name: /Reset/ }).first().click();
  await handle.focus();
  await measure('worked example: arrow key on q', p, () => window.__time(() =>
    document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }))));
  assert.notDeepEqual(await weightTexts(p), ['0.401', '0.198', '0.401'], 'arrow keys move q');
  assert.match(await handle.getAttribute('aria-valuetext'), /q = \(1\.00, 0\.50\)/);
  await p.locator('#worked-example').getByRole('button', { name: /Reset/ }).first().click();
});

sectionTest('scaling', 'each experiment reruns with a new seed, changes its numbers, and is timed', async (p) => {
  for (const id of ['scaling-ten-keys', 'scaling-trials', 'scaling-sweep']) assert.equal(await p.locator(`#${id}`).count(), 1, `#${id}`);
  await p.waitForSelector('#scaling-trials[data-run]', { timeout: 30000 });
  await p.waitForSelector('#scaling-sweep[data-run]', { timeout: 30000 });
  await p.locator('#scaling').scrollIntoViewIfNeeded();

  // The seeded defaults: the raw weights saturate, the scaled ones do not.
  assert.match(await text(p, '#scaling-ten-keys .sc-summary'), /1\.000/);
  assert.match(await text(p, '#scaling-trials tbody'), /0\.0%/);

  experimentLines.push(...await rerunScalingExperiments(p, RERUNS));

  // Reproducible: typing the default seed (1) back gives the same numbers again.
  const seedBox = p.locator('#scaling-ten-keys .seed-input');
  const run = await p.getAttribute('#scaling-ten-keys', 'data-run');
  await seedBox.fill('1');
  await seedBox.press('Enter');
  await waitForRun(p, '#scaling-ten-keys', run);
  assert.match(await text(p, '#scaling-ten-keys .sc-summary'), /from −28\.5 to 40\.3/);

  // The d_k slider: fewer dimensions, less saturation (keyboard).
  await p.focus('#scaling-ten-keys input[type="range"]');
  for (let i = 0; i < 6; i++) await p.keyboard.press('ArrowLeft');
  assert.match(await text(p, '#scaling-ten-keys .range-value'), /^8$/);
  assert.match(await text(p, '#scaling-ten-keys .sc-summary'), /d\s*k\s*= 8/);

  // The sweep's intro names the trials its slider holds, at once (200, then one step fewer).
  assert.match(await text(p, '#scaling-sweep .sc-intro'), /; 200 trials are averaged/);
  await p.focus('#scaling-sweep input[type="range"]');
  await p.keyboard.press('ArrowLeft');
  const fewer = await text(p, '#scaling-sweep .range-value');
  assert.notEqual(fewer, '200');
  assert.match(await text(p, '#scaling-sweep .sc-intro'), new RegExp(`; ${fewer} trials are averaged`));
});

sectionTest('gradients', 'the sweep reruns with a new seed; the row follows d_k; the experiment waits for a click', async (p) => {
  for (const id of ['gradients-sweep', 'gradients-row', 'gradients-experiment']) assert.equal(await p.locator(`#${id}`).count(), 1, `#${id}`);
  await p.locator('#gradients').scrollIntoViewIfNeeded();
  await p.waitForSelector('#gradients-sweep[data-run]', { timeout: 30000 });
  assert.equal(await p.locator('#gradients-sweep .gr-table tbody tr').count(), 9);   // d_k = 4 ... 1024
  const before = await text(p, '#gradients-sweep .gr-table tbody');
  const run = await p.getAttribute('#gradients-sweep', 'data-run');
  await p.click('#gradients-sweep button[data-action="rerun"]');
  await waitForRun(p, '#gradients-sweep', run);
  assert.notEqual(await text(p, '#gradients-sweep .gr-table tbody'), before, 'a new seed, new gradients');
  assert.notEqual(await p.getAttribute('#gradients-sweep', 'data-seed'), '1');
  // The row: its d_k from the slider, its Jacobian on one colour scale.
  await p.focus('#gradients-row input[type="range"]');
  await p.keyboard.press('End');
  await p.waitForFunction(() => document.querySelector('#gradients-row').dataset.dk === '1024');
  assert.match(await text(p, '#gradients-row .gr-summary'), /at dk = 1024/);
  assert.equal(await p.locator('#gradients-row .heatmap-grid .heatmap-cell').count(), 128);   // two 8 x 8 Jacobians
  assert.equal(await p.getAttribute('#gradients-experiment', 'data-state'), 'idle');
  assert.ok(await p.locator('#gradients-experiment button[data-action="stop"]').isDisabled());
});

sectionTest('reading-weights', 'symmetric logits give exactly 0, separate W_Q, W_K do not; a row is a gaze', async (p) => {
  for (const id of ['reading-weights-symmetry', 'reading-weights-asymmetry']) assert.equal(await p.locator(`#${id}`).count(), 1, `#${id}`);
  await p.locator('#reading-weights').scrollIntoViewIfNeeded();
  assert.equal(await text(p, '#reading-weights-symmetry'), '0');
  assert.equal(await number(p, '#reading-weights-symmetry'), 0);
  const asym = await number(p, '#reading-weights-asymmetry');
  assert.ok(asym > 0.1, `median relative asymmetry ${asym}`);
  const run = await p.getAttribute('#reading-weights-asymmetry-panel', 'data-run');
  await p.click('#reading-weights-asymmetry-panel button[data-action="rerun"]');
  await waitForRun(p, '#reading-weights-asymmetry-panel', run);
  assert.notEqual(await number(p, '#reading-weights-asymmetry'), asym, 'a new seed, a new median');

  // t3 gives t0 more than itself (the default selection), with the norms shown.
  assert.match(await text(p, '#reading-weights .rw-gaze-title'), /t3/);
  assert.match(await text(p, '#reading-weights .rw-why-text'), /‖t0‖ = 2\.651/);
  // Hovering row t1 shows t1's gaze; the keyboard picks t2.
  await p.locator('#reading-weights .rw-heatmap .heatmap-row').nth(2).locator('.heatmap-cell').first().hover();
  assert.match(await text(p, '#reading-weights .rw-gaze-title'), /t1/);
  assert.equal(await p.locator('#reading-weights .rw-selected-row').count(), 1);
  await p.focus('#reading-weights .rw-gaze input[type="radio"]:checked');
  await p.keyboard.press('ArrowRight');
  assert.match(await text(p, '#reading-weights .rw-gaze-title'), /t2/);

  // Editing an embedding changes the weights and keeps the logits symmetric.
  const weights = await text(p, '#reading-weights .rw-heatmap .heatmap-grid');
  await p.locator('#reading-weights .matrix-input input').nth(1).fill('0.9');
  assert.notEqual(await text(p, '#reading-weights .rw-heatmap .heatmap-grid'), weights);
  assert.equal(await number(p, '#reading-weights-symmetry'), 0);
});

sectionTest('sentence', 'five tokens computed, rows of weights sum to 1, embeddings editable', async (p) => {
  await openTables(p, '#sentence');
  assert.deepEqual(await texts(p, '#sentence .heatmap-table .heatmap-sum'), ['1.0000', '1.0000', '1.0000', '1.0000', '1.0000']);
  // The note on the article's numbers: right to its own rounding (1.41 for sqrt 2), the differences computed.
  assert.match(await p.textContent('#sentence .note'), /divides by 1\.41, .* 5 of its 25 entries show differently to two decimals\. Where QKᵀ = 2 \(4 of the 25 entries\), the article’s 2\/1\.41 = 1\.4184 shows as 1\.42, the exact 1\.4142 as 1\.41\./);
  const before = await texts(p, '#sentence .heatmap-cell');
  assert.equal(before.length, 25);
  await p.getByRole('textbox', { name: 'embedding of “karina”, component 2' }).fill('3');
  await measure('sentence: editing an embedding', p, (i) => window.__time(() => {
    const input = document.querySelector('#sentence input[aria-label="embedding of “karina”, component 2"]');
    input.value = String(i + 1);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }));
  assert.notDeepEqual(await texts(p, '#sentence .heatmap-cell'), before);
});

sectionTest('masking', 'a click masks a cell (weight exactly 0), keyboard too; a fully masked row says why', async (p) => {
  await openTables(p, '#masking');
  const cell = (i, j) => p.locator(`#masking button.heatmap-cell[data-row="${i}"][data-col="${j}"]`);
  // Causal by default: the upper triangle is masked.
  assert.equal(await cell(0, 1).getAttribute('aria-pressed'), 'true');
  assert.equal(await cell(0, 1).textContent(), '0');
  assert.ok((await p.textContent('#masking .mask-panel')).includes('\u2212\u221e'), 'the -inf step is shown');

  assert.notEqual(await cell(3, 0).textContent(), '0');
  await cell(3, 0).click();
  assert.equal(await cell(3, 0).textContent(), '0');
  assert.equal(await cell(3, 0).getAttribute('aria-pressed'), 'true');
  assert.equal((await texts(p, '#masking .heatmap-table .heatmap-sum'))[3], '1.0000', 'the row is renormalised');

  // Keyboard: the focused cell moves with the arrows, Enter toggles.
  await cell(3, 0).focus();
  await p.keyboard.press('ArrowRight');
  await p.keyboard.press('Enter');
  assert.equal(await cell(3, 1).textContent(), '0');
  await p.keyboard.press('Space');
  assert.notEqual(await cell(3, 1).textContent(), '0');
  // Six toggles of one cell: it ends as it started.
  await measure('masking: clicking a cell', p, () => window.__time(() =>
    document.querySelector('#masking button.heatmap-cell[data-row="4"][data-col="2"]').click()), 6);
  assert.notEqual(await cell(4, 2).textContent(), '0');

  // The first query sees only itself under the causal mask: masking it empties the row.
  await cell(0, 0).click();
  assert.match(await p.textContent('#masking .mask-empty-rows'), /every key is masked/);
  assert.equal((await texts(p, '#masking .heatmap-table .heatmap-sum'))[0], '0.0000');
  const numbers = await texts(p, '#masking td.num, #masking .heatmap-cell');
  assert.equal(numbers.filter((n) => /NaN/.test(n)).length, 0, 'no NaN in any number');
});

sectionTest('multi-head', 'changing h changes the number of head heatmaps; new projections', async (p) => {
  const heads = () => p.locator('#multi-head .mh-heads-grid:not(.is-stowed) .mh-head').count();
  assert.equal(await heads(), 2);
  await measure('multi-head: changing h', p, (i) => window.__time(() =>
    document.querySelectorAll('#multi-head input.choice-input')[[3, 0, 2, 1, 3][i]].click()));
  assert.equal(await heads(), 8);
  await p.locator('#multi-head label.choice', { hasText: 'h = 1' }).click();
  assert.equal(await heads(), 1);
  await p.locator('#multi-head label.choice', { hasText: 'h = 4' }).click();
  assert.equal(await heads(), 4);
  // The maps shown beside the heads are h's own: one concatenation and one output
  // map, and the output is the concatenation times W_O (from their full values).
  const combined = async () => {
    const maps = await p.$$eval('#multi-head .mh-combine .heatmap', (figures) => figures
      .filter((f) => !f.closest('.is-stowed'))
      .map((f) => [...f.querySelectorAll('.heatmap-grid .heatmap-cell')].map((c) => Number(c.dataset.full.replace('\u2212', '-')))));
    assert.equal(maps.length, 3, 'one concatenation, W_O and one output shown');
    assert.ok(maps.flat().every(Number.isFinite), 'every full value reads as a plain number');
    const [concat, wo, output] = maps;
    const d = Math.sqrt(wo.length);
    output.forEach((o, k) => {
      const [i, j] = [Math.floor(k / d), k % d];
      let sum = 0;
      for (let c = 0; c < d; c++) sum += concat[i * d + c] * wo[c * d + j];
      assert.ok(Math.abs(o - sum) <= 1e-5 + 1e-4 * Math.abs(sum), `output[${i}][${j}] = ${o}, concat x W_O = ${sum}`);
    });
    return output;
  };
  const outputAt4 = await combined();
  await p.locator('#multi-head label.choice', { hasText: 'h = 2' }).click();
  assert.notDeepEqual(await combined(), outputAt4, 'the output depends on h');
  await p.locator('#multi-head label.choice', { hasText: 'h = 4' }).click();
  assert.deepEqual(await combined(), outputAt4);
  // The FLOPs of the attention products are the same in every row of the cost table.
  const attention = await p.$$eval('#multi-head .mh-cost-table tbody tr', (rows) => rows.map((r) => r.cells[4].textContent));
  assert.equal(new Set(attention).size, 1);
  const first = await texts(p, '#multi-head .mh-heads-grid:not(.is-stowed) .heatmap-cell');
  await p.getByRole('button', { name: 'Draw new projections' }).click();
  assert.notDeepEqual(await texts(p, '#multi-head .mh-heads-grid:not(.is-stowed) .heatmap-cell'), first);
  assert.match(await p.textContent('#multi-head .mh-seed'), /seed 2/);
  assert.notDeepEqual(await combined(), outputAt4, 'new projections, a new output');
  await measure('multi-head: drawing new projections (h = 4)', p, () => window.__time(() =>
    [...document.querySelectorAll('#multi-head button.btn')].find((b) => /projections/.test(b.textContent)).click()));
});

sectionTest('cross-attention', 'a rectangular n x m heatmap and the three places', async (p) => {
  assert.equal(await p.locator('#cross-attention .cross-results .heatmap-grid .heatmap-cell').count(), 12);   // 3 decoder queries x 4 encoder keys
  assert.equal(await p.locator('#cross-attention .place-card').count(), 3);
  assert.equal(await p.locator('#cross-attention .place-card .heatmap-cell.is-masked').count(), 3,
    'the masked decoder self-attention has its upper triangle masked');
});

sectionTest('family', 'five alignment matrices from one seed, rerun with another', async (p) => {
  for (const id of ['family-panel', 'family-bahdanau', 'family-dot', 'family-general', 'family-concat', 'family-scaledDot']) {
    assert.equal(await p.locator(`#${id}`).count(), 1, `#${id}`);
  }
  await p.locator('#family').scrollIntoViewIfNeeded();
  assert.equal(await p.locator('#family .fa-card .heatmap').count(), 5);
  const before = await text(p, '#family .fa-cards');
  assert.match(await text(p, '#family .fa-note'), /largest difference 0,/);
  const run = await p.getAttribute('#family-panel', 'data-run');
  await p.click('#family-panel button[data-action="rerun"]');
  await waitForRun(p, '#family-panel', run);
  assert.notEqual(await text(p, '#family .fa-cards'), before);
  assert.match(await text(p, '#family .fa-note'), /largest difference 0,/);
  assert.equal(await p.locator('#family .fa-summary tbody tr').count(), 7);
});

sectionTest('learning', 'one step, play and pause, reset; the task changes the probe and the vocabulary', async (p) => {
  for (const id of ['learning-training', 'learning-probe', 'learning-translate']) assert.equal(await p.locator(`#${id}`).count(), 1, `#${id}`);
  const panel = '#learning-training';
  await p.locator(panel).scrollIntoViewIfNeeded();
  assert.equal(await p.locator('#learning-probe > figure .heatmap-cell').count(), 36);   // translate: 6 x 6
  const untrained = await text(p, '#learning-probe > figure .heatmap-grid');
  await p.click(`${panel} button[data-action="step"]`);
  await p.waitForFunction((sel) => document.querySelector(sel).dataset.step === '1', panel);
  assert.notEqual(await text(p, '#learning-probe > figure .heatmap-grid'), untrained, 'one step changes the weights');
  await p.click(`${panel} button[data-action="play"]`);
  await p.waitForFunction((sel) => Number(document.querySelector(sel).dataset.step) >= 30, panel, { timeout: 30000 });
  await p.click(`${panel} button[data-action="pause"]`);
  await p.waitForFunction((sel) => document.querySelector(sel).dataset.state === 'paused', panel);
  assert.match(await text(p, `${panel} .le-status`), /^Paused at step \d+\.$/);
  await p.click(`${panel} button[data-action="reset"]`);
  assert.equal(await p.getAttribute(panel, 'data-step'), '0');
  assert.equal(await text(p, '#learning-probe > figure .heatmap-grid'), untrained, 'reset: the untrained model again');
  await p.click('#learning-task label:has-text("Reverse digits")');
  assert.equal(await p.locator('#learning-probe > figure .heatmap-cell').count(), 64);   // reverse: 8 x 8
  await p.waitForFunction(() => /0 1 2 3 4 5 6 7 8 9/.test(document.querySelector('#learning-translate .le-groups').textContent));
  assert.equal(await p.inputValue('#learning-translate input'), '31459268', 'the probe sentence, to edit');
  await p.click('#learning-task label:has-text("English")');   // back to the default, for the link test that follows
});

sectionTest('order', 'shuffling prints 0 without positional encodings, more than 0 with them', async (p) => {
  for (const id of ['order-panel', 'order-max-diff', 'order-pe-toggle']) assert.equal(await p.locator(`#${id}`).count(), 1, `#${id}`);
  await p.locator('#order').scrollIntoViewIfNeeded();
  assert.equal(await p.inputValue('#order .or-perm-input'), '3, 1, 5, 0, 4, 2');
  assert.equal(await text(p, '#order-max-diff'), '0');
  assert.equal(await number(p, '#order-max-diff'), 0);
  const rows = await p.$$eval('#order .or-rows tbody tr', (trs) => trs.map((tr) => tr.lastElementChild.textContent));
  assert.deepEqual(rows, ['0', '0', '0', '0', '0', '0'], 'every row: difference 0');
  // The shuffled map's labels are the tokens in the new order (relabelled in place), in the grid and in its table.
  const labels = (nth, selector) => p.$$eval(`#order .or-heatmaps .heatmap >> nth=${nth} >> ${selector}`, (els) => els.map((e) => e.textContent.trim()));
  const tokens = await labels(0, '.heatmap-row-label');
  const inOrder = (perm) => perm.map((i) => tokens[i]);
  assert.deepEqual(await labels(1, '.heatmap-row-label'), inOrder([3, 1, 5, 0, 4, 2]));
  assert.deepEqual(await labels(1, '.heatmap-col-label'), inOrder([3, 1, 5, 0, 4, 2]));
  await p.locator('#order .or-heatmaps .heatmap').nth(1).locator('summary').click();
  await p.fill('#order .or-perm-input', '5, 4, 3, 2, 1, 0');
  assert.deepEqual(await labels(1, '.heatmap-row-label'), inOrder([5, 4, 3, 2, 1, 0]));
  assert.deepEqual(await labels(1, 'tbody th'), inOrder([5, 4, 3, 2, 1, 0]));
  assert.deepEqual((await labels(1, 'thead th')).slice(0, 6), inOrder([5, 4, 3, 2, 1, 0]));
  await p.fill('#order .or-perm-input', '3, 1, 5, 0, 4, 2');

  await p.click('#order-pe-toggle');
  assert.equal(await p.getAttribute('#order-pe-toggle', 'aria-checked'), 'true');
  const withPe = await number(p, '#order-max-diff');
  assert.ok(withPe > 0, `with positional encodings: ${withPe}`);
  assert.notEqual(await text(p, '#order-max-diff'), '0');

  // The identity keeps every token in place: 0 even with the encodings.
  await p.fill('#order .or-perm-input', '0, 1, 2, 3, 4, 5');
  assert.equal(await number(p, '#order-max-diff'), 0);
  // A bad permutation is refused with a message; the last good result stays.
  await p.fill('#order .or-perm-input', '0, 1, 1, 3, 4, 5');
  assert.match(await text(p, '#order-panel .input-error'), /twice/);
  assert.equal(await number(p, '#order-max-diff'), 0);
  // Shuffle (random), then switch the encodings off: 0 again.
  const run = await p.getAttribute('#order-panel', 'data-run');
  await p.click('#order button[data-action="shuffle"]');
  await waitForRun(p, '#order-panel', run);
  assert.ok(await number(p, '#order-max-diff') > 0);
  await p.click('#order-pe-toggle');
  assert.equal(await number(p, '#order-max-diff'), 0);
});

sectionTest('cost', 'the benchmark runs in a worker to completion for n = 64, 128, and can be cancelled', async (p) => {
  for (const id of ['cost-bench', 'cost-memory']) assert.equal(await p.locator(`#${id}`).count(), 1, `#${id}`);
  await p.locator('#cost-bench').scrollIntoViewIfNeeded();
  assert.equal(await p.getAttribute('#cost-bench', 'data-state'), 'idle');
  assert.ok(await p.locator('#cost-bench button[data-action="cancel"]').isDisabled());
  await p.click('#cost-largest label:has-text("128")');
  await p.click('#cost-bench button[data-action="run"]');
  assert.equal(await p.getAttribute('#cost-bench', 'data-background'), 'true', 'served over http, the benchmark runs in a worker');
  await p.waitForSelector('#cost-bench[data-state="done"], #cost-bench[data-state="error"]', { timeout: 90000 });
  assert.equal(await p.getAttribute('#cost-bench', 'data-state'), 'done', await text(p, '#cost-bench .co-status'));
  assert.equal(await p.$eval('#cost-bench progress', (el) => el.value), 1);
  // A chart's table is filled while it is open (components/line-chart.js).
  await p.$eval('#cost-bench details.table-alt', (d) => { d.open = true; });
  await p.waitForFunction(() => document.querySelectorAll('#cost-bench .lc-table tbody tr').length === 2);
  const table = await p.$$eval('#cost-bench .lc-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.deepEqual(table.map((r) => r[0]), ['64', '128']);
  for (const row of table) {
    assert.equal(row.length, 5);
    // the median, then the middle half of the samples
    for (const cell of row.slice(1)) assert.match(cell, /^\d+(\.\d+)? ms \(\d+(\.\d+)? ms\u2013\d+(\.\d+)? ms\)$/, `a time: ${cell}`);
  }
  const summary = await text(p, '#cost-bench .co-summary');
  assert.match(summary, /n\s*= 128/);
  // The summary's words agree with the table beside it: its four medians are the
  // last row's, in the table's order, and the series it calls the fastest is the
  // one with the smallest median there.
  const heads = await p.$$eval('#cost-bench .lc-table thead th', (ths) => ths.map((th) => th.textContent.trim()));
  const medians = table[1].slice(1).map((cell) => cell.match(/^[\d.]+/)[0]);
  assert.deepEqual([...summary.matchAll(/([\d.]+)\s*ms/g)].slice(0, 4).map((m) => m[1]), medians, summary);
  // (Two medians the table rounds alike, 0.200 and 0.200, may be either way round: either is named.)
  const wasm = medians.slice(0, 3).map(Number);
  const fastest = heads.slice(1, 4).filter((_, i) => wasm[i] === Math.min(...wasm));
  assert.ok(fastest.some((name) => summary.includes(name)), `the summary names ${fastest.join(' or ')}: ${summary}`);
  assert.equal(await p.locator('#cost-bench .lc-line').count(), 4);

  // A long run, cancelled while it runs.
  await p.click('#cost-largest label:has-text("4,096")');
  await p.click('#cost-bench button[data-action="run"]');
  await p.waitForFunction(() => /n = /.test(document.querySelector('#cost-bench .co-status').textContent), null, { timeout: 30000 });
  await p.click('#cost-bench button[data-action="cancel"]');
  assert.equal(await p.getAttribute('#cost-bench', 'data-state'), 'cancelled');
  assert.ok(!(await p.locator('#cost-bench button[data-action="run"]').isDisabled()));
  // Memory by shape: the 4096 x 4096 score matrix is 64 MiB.
  assert.match(await text(p, '#cost-memory .co-summary'), /64\sMiB/);
});

test('worked-example on a phone: dragging q with a finger (pointer events)', async () => {
  const phone = await open('index.html?lang=en', 375);
  const handle = phone.locator('#worked-example .vp-handle');
  await handle.scrollIntoViewIfNeeded();
  const box = await handle.boundingBox();
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  // A touch pointer sequence dispatched on the handle, as a finger would.
  await phone.evaluate(({ x, y }) => {
    const target = document.elementFromPoint(x, y);
    const opts = (cx, cy) => ({ bubbles: true, cancelable: true, pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: cx, clientY: cy });
    target.dispatchEvent(new PointerEvent('pointerdown', opts(x, y)));
    target.dispatchEvent(new PointerEvent('pointermove', opts(x - 30, y - 40)));
    target.dispatchEvent(new PointerEvent('pointerup', opts(x - 30, y - 40)));
  }, { x, y });
  assert.notDeepEqual(await weightTexts(phone), ['0.401', '0.198', '0.401']);
  assert.equal(await handle.evaluate((el) => getComputedStyle(el).touchAction), 'none');
  assert.deepEqual(session.consoleErrors(phone), []);
  await phone.close();
});

test('every section of the walkthrough has its test here, in reading order (the second page\'s: learns.test.mjs)', () => {
  assert.deepEqual(SECTION_TESTS, sectionsOf('walkthrough').map((s) => s.id));
});
