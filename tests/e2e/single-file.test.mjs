// End to end: dist/attention.html, the whole walkthrough in one file, opened
// from disk (file://) in Chromium: it fetches nothing else (one request: the
// file itself), loads the SIMD build from its inline bytes and computes the
// worked example, in both languages, without console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, openSite } from './browser.mjs';
import { sectionsOf } from '../../web/src/sections/pages.js';

const FILE = join(DIST, 'attention.html');
let session;

before(async () => {
  assert.ok(existsSync(FILE), 'dist/attention.html is missing: run `npm run build` first');
  session = await openSite({ dir: null });   // no server: the file is opened from disk
  await session.context.clock.install();     // time flows as usual until runFor() jumps it
});
after(async () => { await session?.close(); });

test('the file holds everything: no external script, stylesheet, module or wasm reference', () => {
  const html = readFileSync(FILE, 'utf8');
  assert.doesNotMatch(html, /<script[^>]+src=/);
  assert.doesNotMatch(html, /<link[^>]+rel="(?:stylesheet|modulepreload)"/);
  assert.doesNotMatch(html, /\.wasm["']/, 'no .wasm file name is fetched');
  assert.doesNotMatch(html, /new Worker\(/, 'no worker is started from a file');
  assert.match(html, /AGFzbQ/, 'the wasm bytes are inline (base64 of "\\0asm")');
});

test('opened from file:// it computes the worked example (0.401, 1.203) and fetches nothing else', async () => {
  const page = await session.newPage(null, { width: 1280, height: 900 });
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  const url = `${pathToFileURL(FILE).href}?lang=en`;
  await page.goto(url);
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  assert.deepEqual(await page.$$eval('#worked-example .step-weight .step-value', (e) => e.map((x) => x.textContent)),
    ['0.401', '0.198', '0.401']);
  assert.deepEqual(await page.$$eval('#worked-example .step-mix .step-sum .cv-entry', (e) => e.map((x) => x.textContent)),
    ['1.203', '0.797']);
  assert.match(await page.textContent('#engine-status'), /SIMD/);
  assert.equal(await page.locator('section.section').count(), sectionsOf('walkthrough').length);
  // Every section computed something (no section stuck loading).
  assert.equal(await page.locator('.section-loading').count(), 0);
  // The language switch works from disk too (the text is inline).
  await page.click('.lang-switch button[data-lang="ko"]');
  await page.waitForSelector('body[data-ready="ko"]');
  assert.deepEqual(await page.$$eval('#worked-example .step-weight .step-value', (e) => e.map((x) => x.textContent)),
    ['0.401', '0.198', '0.401']);
  // Every section has rendered (data-ready). Then every pending timer fires (the
  // page's clock runs two seconds forward) and the work queued for idle time
  // (multi-head's other h) runs before this idle callback: nothing is left that
  // could fetch later.
  await page.clock.runFor(2000);
  await page.evaluate(() => new Promise((done) => requestIdleCallback(() => done())));
  assert.deepEqual(requests.filter((u) => !u.startsWith('data:')).map((u) => u.replace(/[?#].*$/, '')), [pathToFileURL(FILE).href]);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('opened from file:// the cost benchmark runs on the page (no worker): the page\'s build and plain JavaScript, the other build named as not measured', async () => {
  const page = await session.newPage(null, { width: 375, height: 800 });
  await page.goto(`${pathToFileURL(FILE).href}?lang=en&cost.n=128#cost`);
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  await page.locator('#cost-bench').scrollIntoViewIfNeeded();
  await page.click('#cost-bench button[data-action="run"]');
  assert.equal(await page.getAttribute('#cost-bench', 'data-background'), 'false');
  assert.match(await page.textContent('#cost-bench .co-summary'), /runs on this page/);
  await page.waitForSelector('#cost-bench[data-state="done"], #cost-bench[data-state="error"]', { timeout: 60000 });
  assert.equal(await page.getAttribute('#cost-bench', 'data-state'), 'done', await page.textContent('#cost-bench .co-status'));
  assert.equal(page.workers().length, 0, 'no worker from disk');
  await page.$eval('#cost-bench details.table-alt', (d) => { d.open = true; });
  const rows = await page.$$eval('#cost-bench .lc-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent.trim())));
  assert.deepEqual(rows.map((r) => r[0]), ['64', '128']);
  // SIMD full and tiled and plain JavaScript measured; the build without SIMD is not (this page loaded the SIMD build only).
  for (const row of rows) assert.deepEqual(row.slice(1).map((cell) => /\d/.test(cell)), [true, true, false, true], row.join(' | '));
  const summary = await page.textContent('#cost-bench .co-summary');
  assert.match(summary, /Not measured here: wasm without SIMD/);
  assert.doesNotMatch(summary, /\u2014/, 'the medians name only the builds measured (no "\u2014 ms")');
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('the file holds the second page too: ?page=learns shows "How attention learns" from disk, and the two link to each other by that query', async () => {
  const page = await session.newPage(null, { width: 375, height: 800 });
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${pathToFileURL(FILE).href}?page=learns&lang=ko`);
  await page.waitForSelector('body[data-page="learns"][data-ready="ko"]', { timeout: 30000 });
  assert.deepEqual(await page.$$eval('main section.section', (els) => els.map((e) => e.id)), sectionsOf('learns').map((s) => s.id));
  assert.match(await page.textContent('#engine-status'), /SIMD/);
  assert.equal(await page.getAttribute('nav.page-links a:not([aria-current])', 'href'), '?lang=ko');
  await page.click('nav.page-links a:not([aria-current])');
  await page.waitForSelector('body[data-page="walkthrough"][data-ready="ko"]', { timeout: 30000 });
  assert.equal(await page.getAttribute('nav.page-links a:not([aria-current])', 'href'), '?page=learns&lang=ko');
  assert.equal(await page.locator('section.section').count(), sectionsOf('walkthrough').length);
  assert.deepEqual([...new Set(requests.filter((u) => !u.startsWith('data:')).map((u) => u.replace(/[?#].*$/, '')))], [pathToFileURL(FILE).href]);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});
