// End to end: section "family-trained" on the second page (dist/learns.html)
// in headless Chromium under the site's CSP. The reader's default (Bahdanau's
// and Luong's three global scores with input feeding, on translate) trains
// from one press of play in two workers and finishes within its budget; the
// sentences under it are the ones state.js words from the numbers the table
// and the maps show, in English and, after switching, in Korean (the finished
// runs are kept); at 375 px nothing scrolls sideways. A second, one-variant
// link (Luong general, local-p) shows the window drawn around each predicted
// position. Times are printed with the load average (a shared machine).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { DIST, openSite, openEmbedThis } from './browser.mjs';
import { DEFAULTS, WINDOW_HALF_WIDTH, applyEvent, describeRuns, emptyRuns, variantsOf } from '../../web/src/sections/family-trained/state.js';
import { translator } from '../../web/src/i18n/lookup.js';
import en from '../../web/src/i18n/en/family-trained.js';
import ko from '../../web/src/i18n/ko/family-trained.js';

const T = { en: translator(en), ko: translator(ko) };
// From pressing play to every variant measured. The demo's target is 10 s: in
// Node (SIMD, load 1.5-3) the four default variants train to 95% in 2.4-3.2 s
// each, 11.3 s in all, so about 6 s on two workers, and their final
// measurement 0.7 s; in Chromium at load 13 (four helpers on two cores) the
// page took 29.5 s. The assertion guards against a regression on a shared
// machine: 4x the target (the time measured is printed with the load).
const TARGET_MS = 10000;
const BUDGET_MS = 4 * TARGET_MS;
const PANEL = '#family-trained-runs';
let session;
const lines = [];
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

before(async () => {
  assert.ok(existsSync(join(DIST, 'learns.html')), 'dist/learns.html is missing: run `npm run build` first');
  session = await openSite();
});
after(async () => {
  await session?.close();
  console.log(`\nfamily-trained in the browser (load average ${load()}):`);
  for (const line of lines) console.log(`  ${line}`);
});

// Presses play and waits until every run is measured: the ms the section counted.
async function trainToEnd(page) {
  await page.locator(`${PANEL} button[data-action="play"]`).scrollIntoViewIfNeeded();
  await page.click(`${PANEL} button[data-action="play"]`);
  await page.waitForSelector(`${PANEL}[data-state="done"]`, { timeout: BUDGET_MS + 30000 });
  return Number(await page.getAttribute(PANEL, 'data-ms'));
}

// A reading that state.js counts as the map shows it: `on` rows on the
// reference, `right` one right, `left` one left, the rest elsewhere; local-p:
// `inside` predicted positions on the reference, the rest far from it.
function readingAsShown({ aligned, on, right, left, inside }) {
  const rows = Array.from({ length: aligned }, (_, t) => t);
  const kind = (t) => (t < on ? 0 : t < on + right ? 1 : t < on + right + left ? -1 : 99);
  const reading = { reference: rows.map((t) => 10 + t), strongestSources: rows.map((t) => 10 + t + kind(t)), layers: [{}] };
  if (inside !== undefined) reading.layers[0].positions = rows.map((t) => (t < inside ? 10 + t : 10 + t + 3 * WINDOW_HALF_WIDTH));
  return reading;
}

// The finished runs as the page shows them: steps to the target, accuracy and
// agreement from the table; the probe's counts from the maps.
async function runsAsShown(page, settings) {
  const shown = await page.evaluate((panel) => {
    const rows = [...document.querySelectorAll(`${panel} tr[data-variant]`)].map((tr) => ({ ...tr.dataset }));
    const maps = Object.fromEntries([...document.querySelectorAll(`${panel} .ft-map`)].map((m) => [m.dataset.variant, { ...m.dataset }]));
    return { rows, maps };
  }, PANEL);
  const state = emptyRuns(settings);
  assert.deepEqual(shown.rows.map((r) => r.variant), state.order, 'a row per variant, in order');
  for (const row of shown.rows) {
    const id = row.variant;
    const m = shown.maps[id];
    assert.ok(m, `a map for ${id}`);
    const reached = row.reached === '' ? null : Number(row.reached);
    const probe = readingAsShown({ aligned: +m.aligned, on: +m.on, right: +m.right, left: +m.left, inside: m.inside === undefined ? undefined : +m.inside });
    applyEvent(state, { type: 'started', id, points: [] });
    if (reached !== null) applyEvent(state, { type: 'progress', id, step: reached, points: [{ step: reached, generatedAccuracy: 1 }] });
    applyEvent(state, { type: 'final', id, evaluation: { generatedAccuracy: Number(row.accuracy) }, agreement: { agreement: Number(row.agreement) }, probe });
  }
  return state;
}

const summaryOf = (page) => page.$$eval(`${PANEL} .ft-summary p`, (ps) => ps.map((p) => p.textContent));
const plain = (html) => html.replace(/<[^>]*>/g, '');
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('the default variants train from one press of play within the budget; the sentences are those of the numbers shown, in English and Korean; 375 px', async () => {
  const page = await session.newPage('learns.html?lang=en', { width: 1280, height: 900 });
  await page.waitForSelector('body[data-ready="en"]', { timeout: 30000 });
  assert.equal(await page.getAttribute(PANEL, 'data-state'), 'idle');
  const ms = await trainToEnd(page);
  const variants = variantsOf(DEFAULTS);
  lines.push(`default (${variants.length} variants, translate): ${(ms / 1000).toFixed(2)} s from play to every variant measured (target ${TARGET_MS / 1000} s), load ${load()}`);
  assert.ok(ms > 0 && ms < BUDGET_MS, `trained in ${ms} ms, budget ${BUDGET_MS}`);
  assert.equal(await page.locator(`${PANEL} .ft-map`).count(), variants.length, 'a learned alignment per variant');
  const state = await runsAsShown(page, DEFAULTS);
  lines.push(`  steps to 95%: ${state.order.map((id) => `${id} ${state.runs[id].reachedAt}`).join(', ')}`);
  assert.deepEqual(await summaryOf(page), describeRuns(T.en, state).map(plain));
  assert.match((await page.textContent(`${PANEL} .ft-status`)), new RegExp(`${(ms / 1000).toFixed(1)} s`));

  // Korean: the section re-mounts with the finished runs; the same numbers, worded in Korean.
  await page.click('.lang-switch button[data-lang="ko"]');
  await page.waitForSelector('body[data-ready="ko"]', { timeout: 30000 });
  await page.waitForSelector(`${PANEL}[data-state="done"] .ft-summary p`);
  assert.deepEqual(await summaryOf(page), describeRuns(T.ko, state).map(plain));
  assert.match(await page.textContent(`${PANEL} .ft-summary`), /[\uac00-\ud7a3]/);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(300);
  assert.ok(await sideways(page) <= 0, `the page scrolls sideways by ${await sideways(page)} px at 375`);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('a link to Luong general with a local-p window (Korean, 375 px): the window is drawn around each predicted position', async () => {
  const settings = { ...DEFAULTS, scores: ['general'], window: 'local' };
  const page = await session.newPage('learns.html?lang=ko&family-trained.models=general&family-trained.window=local', { width: 375, height: 800 });
  await page.waitForSelector('body[data-ready="ko"]', { timeout: 30000 });
  // A switch changes the variants to train, and the link; switched back, the link's one variant.
  const count = () => page.textContent(`${PANEL} .ft-count`);
  assert.equal(await count(), ko.controls.count.replace('{count}', '1'));
  await page.click(`${PANEL} button[data-score="bahdanau"]`);
  assert.equal(await count(), ko.controls.count.replace('{count}', '2'));
  await page.waitForFunction(() => /family-trained\.models=bahdanau(%2C|,)general/.test(location.search), null, { timeout: 5000 });
  await page.click(`${PANEL} button[data-score="bahdanau"]`);
  assert.equal(await count(), ko.controls.count.replace('{count}', '1'));
  assert.equal(await page.getAttribute(PANEL, 'data-state'), 'idle');
  const ms = await trainToEnd(page);
  lines.push(`Luong general local-p alone: ${(ms / 1000).toFixed(2)} s, load ${load()}`);
  assert.ok(ms < BUDGET_MS, `trained in ${ms} ms, budget ${BUDGET_MS}`);
  // Per row: the cells within D of p_t underlined, one tick at p_t, and p_t in the table.
  const rows = await page.$$eval(`${PANEL} .ft-map[data-variant="luong-general-local-feed"] .ft-positions tbody tr`, (trs) => trs.map((tr) => Number(tr.cells[1].textContent)));
  const map = await page.$eval(`${PANEL} .ft-map[data-variant="luong-general-local-feed"]`, (el) => {
    const grid = el.querySelector('.heatmap-grid');
    const cells = [...grid.querySelectorAll('.heatmap-cell')];
    return { cells: cells.map((c) => ({ inWindow: c.classList.contains('in-window'), centre: c.classList.contains('window-centre') })), cols: Number(el.querySelectorAll('.heatmap-col-label').length) };
  });
  assert.ok(rows.length > 0 && map.cols > 0);
  assert.equal(map.cells.length, rows.length * map.cols);
  rows.forEach((p, r) => {
    const row = map.cells.slice(r * map.cols, (r + 1) * map.cols);
    const centre = Math.min(map.cols - 1, Math.max(0, Math.round(p - 1)));
    assert.equal(row.findIndex((c) => c.centre), centre, `row ${r + 1}: the tick at p_t = ${p}`);
    row.forEach((c, j) => assert.equal(c.inWindow, Math.abs(j - (p - 1)) <= WINDOW_HALF_WIDTH + 0.01, `row ${r + 1}, column ${j + 1}: within D of p_t = ${p}`));
  });
  const state = await runsAsShown(page, settings);
  assert.deepEqual(await summaryOf(page), describeRuns(T.ko, state).map(plain));
  assert.ok(await sideways(page) <= 0, `the page scrolls sideways by ${await sideways(page)} px`);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('embedding: the section\'s "Embed this" gives a widget and an iframe of it, with its settings; embed.html shows it, ready to train', async () => {
  const page = await session.sharedPage('learns.html?lang=en&family-trained.task=reverse', { width: 1280 });
  await openEmbedThis(page, 'family-trained');
  const snippets = await page.$$eval('section#family-trained .embed-this .embed-code-text', (els) => els.map((e) => e.textContent));
  assert.equal(snippets.length, 2);
  assert.match(snippets[0], /<attention-demo section="family-trained"[^>]*task="reverse"/);
  assert.match(snippets[1], /embed\.html\?section=family-trained[^"]*task=reverse/);

  const embed = await session.newPage('embed/embed.html?section=family-trained&lang=ko&task=reverse', { width: 335, height: 900 });
  await embed.waitForSelector('attention-demo[data-ready]', { timeout: 30000 });
  const shown = await embed.$eval('attention-demo', (el) => {
    const root = el.shadowRoot ?? el;
    return {
      panel: Boolean(root.querySelector('#family-trained-runs[data-state="idle"] button[data-action="play"]')),
      reverse: root.querySelector('#family-trained-task [aria-pressed="true"], #family-trained-task [aria-checked="true"], #family-trained-task input:checked')?.closest('label, button')?.textContent ?? '',
      text: root.textContent,
    };
  });
  assert.ok(shown.panel, 'the runs panel, idle, with its play button');
  assert.match(shown.reverse, /뒤집기/);
  assert.match(shown.text, /[\uac00-\ud7a3]/);
  assert.ok(!shown.text.includes('\u27e6'), 'no missing string');
  assert.ok(await embed.evaluate(() => document.documentElement.scrollWidth - window.innerWidth) <= 0, 'no sideways scroll at 335 px');
  assert.deepEqual(session.consoleErrors(embed), []);
  await embed.close();
});
