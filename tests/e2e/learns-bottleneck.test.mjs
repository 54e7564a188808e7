// End to end: section "bottleneck" on the second page (dist/learns.html) in
// headless Chromium under the site's CSP. The sweep (both models at every
// length, two workers) runs from one press of play and finishes within its
// budget; the sentences under the chart are the ones state.js words from the
// numbers the table shows, in English and, after switching (the finished sweep
// is kept), in Korean; at 375 px nothing scrolls sideways. The time is printed
// with the load average (a shared machine).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { DIST, openSite } from './browser.mjs';
import { DEFAULTS, applyEvent, describeSweep, emptySweep } from '../../web/src/sections/bottleneck/state.js';
import { translator } from '../../web/src/i18n/lookup.js';
import en from '../../web/src/i18n/en/bottleneck.js';
import ko from '../../web/src/i18n/ko/bottleneck.js';

const T = { en: translator(en), ko: translator(ko) };
// From pressing play to every run evaluated. The sweep's target is 30 s; it
// took 14.1 s at load 10 when the section was merged (its commit message). The
// assertion guards against a regression on a machine four helpers share: 2x
// the target (the time measured is printed with the load).
const TARGET_MS = 30000;
const BUDGET_MS = 2 * TARGET_MS;
const PANEL = '#bottleneck-sweep';
let session;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

before(async () => {
  assert.ok(existsSync(join(DIST, 'learns.html')), 'dist/learns.html is missing: run `npm run build` first');
  session = await openSite();
});
after(async () => { await session?.close(); });

// The finished sweep as the table shows it: each run's final accuracy and the step it reached the target at.
async function sweepAsShown(page) {
  const cells = await page.$$eval(`${PANEL} td[data-run]`, (tds) => tds.map((td) => ({ ...td.dataset, text: td.textContent })));
  const sweep = emptySweep(DEFAULTS);
  assert.deepEqual(cells.map((c) => c.run).sort(), Object.keys(sweep.runs).sort(), 'a cell per run');
  for (const cell of cells) {
    assert.equal(cell.status, 'done', `${cell.run} is done`);
    const reached = cell.reached === '' ? null : Number(cell.reached);
    applyEvent(sweep, { type: 'started', id: cell.run, points: [] });
    if (reached !== null) applyEvent(sweep, { type: 'progress', id: cell.run, step: reached, points: [{ step: reached, generatedAccuracy: 1 }] });
    applyEvent(sweep, { type: 'final', id: cell.run, evaluation: { generatedAccuracy: Number(cell.accuracy) } });
  }
  return sweep;
}

// The summary as its sentences: two paragraphs, the last one the budget's.
const summaryOf = (page) => page.$$eval(`${PANEL} .bn-summary p`, (ps) => ps.map((p) => p.textContent).join(' '));
const plain = (sentences) => sentences.map((s) => s.replace(/<[^>]*>/g, '')).join(' ');
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('the sweep runs from one press of play within its budget; the sentences are those of the numbers shown, in English and Korean; 375 px', async () => {
  const page = await session.newPage('learns.html?lang=en', { width: 1280, height: 900 });
  await page.waitForSelector('body[data-ready="en"]', { timeout: 30000 });
  assert.equal(await page.getAttribute(PANEL, 'data-state'), 'idle');
  await page.locator(`${PANEL} button[data-action="play"]`).scrollIntoViewIfNeeded();
  await page.click(`${PANEL} button[data-action="play"]`);
  await page.waitForSelector(`${PANEL}[data-state="done"]`, { timeout: BUDGET_MS + 30000 });
  const ms = Number(await page.getAttribute(PANEL, 'data-ms'));
  console.log(`bottleneck sweep: ${(ms / 1000).toFixed(2)} s from play to every run evaluated (target ${TARGET_MS / 1000} s), load ${load()}`);
  assert.ok(ms > 0 && ms < BUDGET_MS, `swept in ${ms} ms, budget ${BUDGET_MS}`);
  const sweep = await sweepAsShown(page);
  assert.equal(await summaryOf(page), plain(describeSweep(T.en, sweep)));
  assert.match(await page.textContent(`${PANEL} .bn-status`), new RegExp(`${(ms / 1000).toFixed(1)} s`));

  await page.click('.lang-switch button[data-lang="ko"]');
  await page.waitForSelector('body[data-ready="ko"]', { timeout: 30000 });
  await page.waitForSelector(`${PANEL}[data-state="done"] .bn-summary p`);
  assert.equal(await summaryOf(page), plain(describeSweep(T.ko, sweep)));
  assert.match(await page.textContent(`${PANEL} .bn-summary`), /[\uac00-\ud7a3]/);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(300);
  assert.ok(await sideways(page) <= 0, `the page scrolls sideways by ${await sideways(page)} px at 375`);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});
