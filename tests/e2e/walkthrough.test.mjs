// End to end: the walkthrough page (dist/index.html, built by `vite build`)
// in headless Chromium under the site's Content-Security-Policy.
//
// Checks what a reader sees and does: no console error, every section id,
// the worked example's numbers, the scaling toggle, editing an input,
// dragging q (mouse and keyboard), masking a cell (click and keyboard), the
// number of heads, both languages (URL and the switch, without a reload), no
// sideways scrolling at 375 px. Writes screenshots to tests/e2e/screenshots/
// and prints how long each interaction takes from input to painted frame
// (a measurement, not an assertion; the target is under 16 ms).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, openSite, timeToPaint } from './browser.mjs';

const SECTION_IDS = ['worked-example', 'scaling', 'reading-weights', 'sentence', 'masking', 'multi-head',
  'cross-attention', 'family', 'order', 'cost'];
const timings = [];
let session;

async function open(path, width = 1280) {
  const page = await session.newPage(path, { width, height: 900 });
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  return page;
}

// Times an interaction `runs` times. `action(i)` runs in the page: it
// dispatches the input and returns the milliseconds of the synchronous work it
// caused (event handlers, engine calls, DOM updates, and a forced layout).
// timeToPaint wraps it: from just before the input to the frame after the
// update was painted (this includes one CDP round trip and waits for two
// animation frames, so about one frame interval is its floor).
async function measure(label, page, action, runs = 5) {
  await page.evaluate(() => {
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
    paint.push(await timeToPaint(page, async () => { work.push(await page.evaluate(action, i)); }));
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  timings.push({ label, paint: median(paint), work: median(work), maxPaint: Math.max(...paint), runs });
}

const texts = (page, selector) => page.$$eval(selector, (els) => els.map((e) => e.textContent.trim()));
const weightTexts = (page) => texts(page, '#worked-example .step-weight .step-value');
// Lays out every section for a full-page screenshot or a width check
// (off-screen sections are skipped with content-visibility: auto).
const renderAll = (page) => page.addStyleTag({ content: '.section { content-visibility: visible !important; }' });

// Opens every "show the numbers as a table" of a section (built on first open).
const openTables = (page, section) => page.$$eval(`${section} details.table-alt`, (list) => list.forEach((d) => { d.open = true; }));
const sumOf = (list) => list.reduce((a, s) => a + Number(s.replace('\u2212', '-')), 0);

before(async () => {
  assert.ok(existsSync(join(DIST, 'index.html')), 'dist/index.html is missing: run `node_modules/.bin/vite build` first');
  session = await openSite();
});

after(async () => {
  await session?.close();
  if (timings.length) {
    console.log('\nInteraction timings in ms (median; target < 16). work = handlers + engine + DOM + layout;');
    console.log('paint = timeToPaint, input to the next painted frame (includes a CDP round trip and 2 rAF waits):');
    console.log(`  ${'interaction'.padEnd(46)} ${'work'.padStart(6)} ${'paint'.padStart(7)} ${'max paint'.padStart(10)}  runs`);
    for (const t of timings) {
      console.log(`  ${t.label.padEnd(46)} ${t.work.toFixed(2).padStart(6)} ${t.paint.toFixed(1).padStart(7)} ${t.maxPaint.toFixed(1).padStart(10)}  ${t.runs}`);
    }
  }
});

test('loads without console errors; every section id and the table of contents are there', async () => {
  const page = await open('index.html?lang=en');
  await openTables(page, 'main');
  for (const id of SECTION_IDS) {
    assert.equal(await page.locator(`section#${id}`).count(), 1, `section #${id}`);
    assert.equal(await page.locator(`nav.toc a[href="#${id}"]`).count(), 1, `toc link to #${id}`);
  }
  assert.match(await page.textContent('#engine-status'), /SIMD/);
  assert.equal(await page.locator('math').count() > 10, true, 'formulas are MathML');
  assert.doesNotMatch(await page.textContent('main'), /\u27e6/);  // no missing string
  const numbers = await texts(page, 'main td.num, main .heatmap-cell, main .cv-entry');
  assert.ok(numbers.length > 300);
  assert.equal(numbers.filter((n) => /NaN/.test(n)).length, 0, 'no NaN in any number');
  assert.deepEqual(session.consoleErrors(page), []);
  await renderAll(page);
  await session.screenshot(page, 'walkthrough-en-1280');
  await page.close();
});

test('worked example: every number, the scaling toggle, editing, reset', async () => {
  const page = await open('index.html?lang=en#worked-example');
  assert.deepEqual(await weightTexts(page), ['0.401', '0.198', '0.401']);
  assert.deepEqual(await texts(page, '#worked-example .step-mix .step-sum .cv-entry'), ['1.203', '0.797']);
  // The floor of the measurement: an input that does nothing.
  await measure('(floor: an input that does nothing)', page, () => window.__time(() => {}));
  const panel = await page.textContent('#worked-example .steps-table');
  for (const n of ['0.707', '2.028', '5.056', '1.000']) assert.ok(panel.includes(n), `steps table shows ${n}`);

  const toggle = page.locator('#worked-example button[role="switch"]');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-checked'), 'false');
  assert.deepEqual(await weightTexts(page), ['0.422', '0.155', '0.422']);
  await toggle.click();
  assert.deepEqual(await weightTexts(page), ['0.401', '0.198', '0.401']);
  await measure('worked example: scaling toggle', page, () =>
    window.__time(() => document.querySelector('#worked-example button[role="switch"]').click()), 6);
  assert.deepEqual(await weightTexts(page), ['0.401', '0.198', '0.401']);

  // Edit q's second component: the weights change and still sum to 1.
  const box = page.getByRole('textbox', { name: 'q, component 2' });
  await box.fill('0.5');
  await measure('worked example: typing in an input', page, (i) => window.__time(() => {
    const input = document.querySelector('#worked-example input[aria-label="q, component 2"]');
    input.value = String(0.5 + (i + 1) / 10);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }));
  const edited = await weightTexts(page);
  assert.notDeepEqual(edited, ['0.401', '0.198', '0.401']);
  assert.ok(Math.abs(sumOf(edited) - 1) <= 0.002, `weights ${edited} sum to 1`);
  assert.equal(await page.textContent('#worked-example .step-weight .step-sum'), '1.000');

  // Not a number: the engine's message is shown near the inputs, then it recovers.
  await box.fill('abc');
  assert.match(await page.textContent('#worked-example .input-error'), /q/);
  assert.equal(await box.getAttribute('aria-invalid'), 'true');
  await box.fill('0');
  assert.equal(await page.textContent('#worked-example .input-error'), '');
  assert.deepEqual(await weightTexts(page), ['0.401', '0.198', '0.401']);

  await box.fill('2');
  await page.getByRole('button', { name: /Reset/ }).first().click();
  assert.deepEqual(await weightTexts(page), ['0.401', '0.198', '0.401']);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('worked example: dragging q with the mouse and moving it with the keyboard', async () => {
  const page = await open('index.html?lang=en');
  const handle = page.locator('#worked-example .vp-handle');
  await handle.scrollIntoViewIfNeeded();
  const box = await handle.boundingBox();
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 5; i++) await page.mouse.move(x - 10 * i, y - 12 * i);
  await page.mouse.up();
  const dragged = await weightTexts(page);
  assert.notDeepEqual(dragged, ['0.401', '0.198', '0.401'], 'dragging q changed the weights');
  assert.ok(Math.abs(sumOf(dragged) - 1) <= 0.002);
  const q1 = await page.getByRole('textbox', { name: 'q, component 1' }).inputValue();
  assert.notEqual(q1, '1', 'the q input follows the drag');

  // The cost of one pointer move during a drag, dispatched in the page.
  await measure('worked example: dragging q (one pointer move)', page, (i) => {
    const handle = document.querySelector('#worked-example .vp-handle');
    const r = handle.getBoundingClientRect();
    const at = (dx) => ({ bubbles: true, pointerId: 9, pointerType: 'mouse', isPrimary: true,
      clientX: r.left + r.width / 2 + dx, clientY: r.top + r.height / 2 - dx });
    handle.dispatchEvent(new PointerEvent('pointerdown', at(0)));
    const ms = window.__time(() => handle.dispatchEvent(new PointerEvent('pointermove', at(4 + i))));
    handle.dispatchEvent(new PointerEvent('pointerup', at(4 + i)));
    return ms;
  });

  await page.getByRole('button', { name: /Reset/ }).first().click();
  await handle.focus();
  await measure('worked example: arrow key on q', page, () => window.__time(() =>
    document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }))));
  assert.notDeepEqual(await weightTexts(page), ['0.401', '0.198', '0.401'], 'arrow keys move q');
  assert.match(await handle.getAttribute('aria-valuetext'), /q = \(1\.00, 0\.50\)/);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('sentence: five tokens computed, rows of weights sum to 1, embeddings editable', async () => {
  const page = await open('index.html?lang=en#sentence');
  await openTables(page, '#sentence');
  const sums = await texts(page, '#sentence .heatmap-table .heatmap-sum');
  assert.deepEqual(sums, ['1.0000', '1.0000', '1.0000', '1.0000', '1.0000']);
  assert.ok((await page.textContent('#sentence .note')).includes('not what its own inputs give'));   // the note on the article's numbers
  const before = await texts(page, '#sentence .heatmap-cell');
  assert.equal(before.length, 25);
  await page.getByRole('textbox', { name: 'embedding of “karina”, component 2' }).fill('3');
  await measure('sentence: editing an embedding', page, (i) => window.__time(() => {
    const input = document.querySelector('#sentence input[aria-label="embedding of “karina”, component 2"]');
    input.value = String(i + 1);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }));
  assert.notDeepEqual(await texts(page, '#sentence .heatmap-cell'), before);
  await page.close();
});

test('masking: a click masks a cell (weight exactly 0), keyboard too; a fully masked row says why', async () => {
  const page = await open('index.html?lang=en#masking');
  await openTables(page, '#masking');
  const cell = (i, j) => page.locator(`#masking button.heatmap-cell[data-row="${i}"][data-col="${j}"]`);
  // Causal by default: the upper triangle is masked.
  assert.equal(await cell(0, 1).getAttribute('aria-pressed'), 'true');
  assert.equal(await cell(0, 1).textContent(), '0');
  assert.ok((await page.textContent('#masking .mask-panel')).includes('\u2212\u221e'), 'the -inf step is shown');

  assert.notEqual(await cell(3, 0).textContent(), '0');
  await cell(3, 0).click();
  assert.equal(await cell(3, 0).textContent(), '0');
  assert.equal(await cell(3, 0).getAttribute('aria-pressed'), 'true');
  const rowSums = await texts(page, '#masking .heatmap-table .heatmap-sum');
  assert.equal(rowSums[3], '1.0000', 'the row is renormalised');

  // Keyboard: the focused cell moves with the arrows, Enter toggles.
  await cell(3, 0).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  assert.equal(await cell(3, 1).textContent(), '0');
  await page.keyboard.press('Space');
  assert.notEqual(await cell(3, 1).textContent(), '0');
  // Six toggles of one cell: it ends as it started.
  await measure('masking: clicking a cell', page, () => window.__time(() =>
    document.querySelector('#masking button.heatmap-cell[data-row="4"][data-col="2"]').click()), 6);
  assert.notEqual(await cell(4, 2).textContent(), '0');

  // The first query sees only itself under the causal mask: masking it empties the row.
  await cell(0, 0).click();
  const message = await page.textContent('#masking .mask-empty-rows');
  assert.match(message, /every key is masked/);
  assert.equal((await texts(page, '#masking .heatmap-table .heatmap-sum'))[0], '0.0000');
  const numbers = await texts(page, '#masking td.num, #masking .heatmap-cell');
  assert.equal(numbers.filter((n) => /NaN/.test(n)).length, 0, 'no NaN in any number');
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('multi-head: changing h changes the number of head heatmaps; new projections', async () => {
  const page = await open('index.html?lang=en#multi-head');
  const heads = () => page.locator('#multi-head .mh-heads-grid.is-active .mh-head').count();
  assert.equal(await heads(), 2);
  await measure('multi-head: changing h', page, (i) => window.__time(() =>
    document.querySelectorAll('#multi-head input.choice-input')[[3, 0, 2, 1, 3][i]].click()));
  assert.equal(await heads(), 8);
  await page.locator('#multi-head label.choice', { hasText: 'h = 1' }).click();
  assert.equal(await heads(), 1);
  await page.locator('#multi-head label.choice', { hasText: 'h = 4' }).click();
  assert.equal(await heads(), 4);
  // The FLOPs of the attention products are the same in every row of the cost table.
  const attention = await page.$$eval('#multi-head .mh-cost-table tbody tr', (rows) => rows.map((r) => r.cells[4].textContent));
  assert.equal(new Set(attention).size, 1);
  const first = await texts(page, '#multi-head .mh-heads-grid.is-active .heatmap-cell');
  await page.getByRole('button', { name: 'Draw new projections' }).click();
  assert.notDeepEqual(await texts(page, '#multi-head .mh-heads-grid.is-active .heatmap-cell'), first);
  assert.match(await page.textContent('#multi-head .mh-seed'), /seed 2/);
  await measure('multi-head: drawing new projections (h = 4)', page, () => window.__time(() =>
    [...document.querySelectorAll('#multi-head button.btn')].find((b) => /projections/.test(b.textContent)).click()));
  await page.close();
});

test('cross-attention: a rectangular n x m heatmap and the three places', async () => {
  const page = await open('index.html?lang=en#cross-attention');
  const grid = page.locator('#cross-attention .cross-results .heatmap-grid');
  assert.equal(await grid.locator('.heatmap-cell').count(), 12);   // 3 decoder queries x 4 encoder keys
  assert.equal(await page.locator('#cross-attention .place-card').count(), 3);
  const masked = await page.locator('#cross-attention .place-card .heatmap-cell.is-masked').count();
  assert.equal(masked, 3, 'the masked decoder self-attention has its upper triangle masked');
  await page.close();
});

test('languages: ?lang=ko and ?lang=en, and the switch changes the text without reloading', async () => {
  const ko = await open('index.html?lang=ko');
  assert.equal(await ko.getAttribute('html', 'lang'), 'ko');
  assert.match(await ko.textContent('h1'), /어텐션/);
  assert.match(await ko.textContent('#worked-example h2'), /소프트맥스/);
  assert.deepEqual(session.consoleErrors(ko), []);
  await renderAll(ko);
  await session.screenshot(ko, 'walkthrough-ko-1280');

  await ko.evaluate(() => { window.__noReload = true; });
  await ko.getByRole('button', { name: /Reset|처음/ }).first().click();
  await ko.getByRole('textbox', { name: 'q의 2번째 성분' }).fill('1');   // an edit survives the switch
  const t0 = Date.now();
  await ko.click('.lang-switch button[data-lang="en"]');
  await ko.waitForSelector('body[data-ready="en"]');
  timings.push({ label: 'language switch ko -> en (whole page, async)', paint: Date.now() - t0, work: NaN, maxPaint: Date.now() - t0, runs: 1 });
  assert.equal(await ko.evaluate(() => window.__noReload), true, 'no reload');
  assert.equal(await ko.getAttribute('html', 'lang'), 'en');
  assert.match(await ko.textContent('h1'), /Attention, computed/);
  assert.match(ko.url(), /lang=en/);
  assert.equal(await ko.getByRole('textbox', { name: 'q, component 2' }).inputValue(), '1');
  await ko.close();

  const en = await open('index.html?lang=en');
  assert.match(await en.textContent('#worked-example h2'), /Score, softmax, mix/);
  await en.close();
});

test('375 px: no sideways scrolling, in both languages; screenshots', async () => {
  for (const lang of ['en', 'ko']) {
    const page = await open(`index.html?lang=${lang}`, 375);
    await renderAll(page);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `${lang}: scrollWidth ${width} <= 375`);
    // Also after the widest states: h = 8 and the scaling off.
    await page.locator('#multi-head label.choice', { hasText: 'h = 8' }).click();
    await page.locator('#worked-example button[role="switch"]').click();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 375);
    assert.deepEqual(session.consoleErrors(page), []);
    await session.screenshot(page, `walkthrough-${lang}-375`);
    await page.close();
  }
});

test('touch: dragging q with a finger (pointer events)', async () => {
  const page = await session.context.newPage();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${session.url}index.html?lang=en`);
  await page.waitForSelector('body[data-ready]');
  const handle = page.locator('#worked-example .vp-handle');
  await handle.scrollIntoViewIfNeeded();
  const box = await handle.boundingBox();
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  // A touch pointer sequence dispatched on the handle, as a finger would.
  await page.evaluate(({ x, y }) => {
    const target = document.elementFromPoint(x, y);
    const opts = (cx, cy) => ({ bubbles: true, cancelable: true, pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: cx, clientY: cy });
    target.dispatchEvent(new PointerEvent('pointerdown', opts(x, y)));
    target.dispatchEvent(new PointerEvent('pointermove', opts(x - 30, y - 40)));
    target.dispatchEvent(new PointerEvent('pointerup', opts(x - 30, y - 40)));
  }, { x, y });
  assert.notDeepEqual(await weightTexts(page), ['0.401', '0.198', '0.401']);
  assert.equal(await handle.evaluate((el) => getComputedStyle(el).touchAction), 'none');
  await page.close();
});
