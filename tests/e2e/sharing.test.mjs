// End to end: the reader's inputs live in the URL. After edits in several
// sections the address holds them (debounced replaceState); opening that
// address in a fresh page shows the same numbers; a link with every section's
// parameters opens every section as it says. Hostile values in a link fall back
// to each section's defaults with a notice in the reader's language, and
// nothing from them runs or lands in the page as HTML.
//
// The page writes the address from a timer (a debounce). Instead of sleeping
// past it, the tests run the page's clock forward (Playwright's clock,
// installed for this file's browser context), which fires every pending timer,
// and then look: a late write cannot slip past.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, openSite } from './browser.mjs';

let session;
before(async () => {
  assert.ok(existsSync(join(DIST, 'index.html')), 'dist/index.html is missing: run `npm run build` first');
  session = await openSite();
  await session.context.clock.install();   // time flows as usual until runFor() jumps it
});
after(async () => { await session?.close(); });

async function open(path) {
  const page = await session.newPage(path, { width: 1280, height: 900 });
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  return page;
}
const texts = (page, selector) => page.$$eval(selector, (els) => els.map((e) => e.textContent.trim()));
const text = (page, selector) => page.$eval(selector, (el) => el.textContent.trim());
// Fires every timer the page has pending (the URL debounce among them), as if
// two seconds had passed, then lets the page finish what they started.
async function flushTimers(page) {
  await page.clock.runFor(2000);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(done)));
}

// What the reader sees in the five sections this test edits.
async function snapshot(page) {
  return {
    weights: await texts(page, '#worked-example .step-weight .step-value'),
    output: await texts(page, '#worked-example .step-mix .step-sum .cv-entry'),
    scaling: await page.getAttribute('#worked-example button[role="switch"]', 'aria-checked'),
    q2: await page.inputValue('#worked-example input[aria-label="q, component 2"]'),
    sentence: await texts(page, '#sentence .heatmap-cell'),
    maskMode: await page.$eval('#masking input[type="radio"]:checked', (e) => e.value),
    masked: await page.$$eval('#masking .heatmap-cell', (els) => els.map((e) => e.getAttribute('aria-pressed'))),
    maskRow: await page.inputValue('#masking select'),
    heads: await page.$eval('#multi-head input[type="radio"]:checked', (e) => e.value),
    seed: (await page.textContent('#multi-head .mh-seed')).trim(),
    cross: await texts(page, '#cross-attention .cross-results .heatmap-cell'),
  };
}

test('a shared URL restores every edited section', async () => {
  const page = await open('index.html?lang=en');
  const before = await snapshot(page);

  await page.fill('#worked-example input[aria-label="q, component 2"]', '0.5');
  await page.click('#worked-example button[role="switch"]');
  await page.fill('#sentence input[aria-label="embedding of “karina”, component 2"]', '3');
  await page.click('#masking button.heatmap-cell[data-row="0"][data-col="1"]');   // unmask one cell: a custom mask
  await page.selectOption('#masking select', '4');
  await page.check('#multi-head input[type="radio"][value="8"]');
  await page.click('#multi-head .mh-seed-box button');                             // new projections: seed 2
  await page.fill('#cross-attention input[aria-label]', '0.25');
  await flushTimers(page);

  const edited = await snapshot(page);
  assert.notDeepEqual(edited.weights, before.weights);
  assert.equal(edited.maskMode, 'custom');
  assert.equal(edited.heads, '8');
  const url = page.url();
  const search = new URL(url).search;
  for (const part of ['lang=en', 'worked-example.q=1,0.5', 'worked-example.scaling=off', 'sentence.embeddings=1,3;',
    'masking.mask=11000;', 'masking.row=5', 'multi-head.heads=8', 'multi-head.seed=2', 'cross-attention.decoder=0.25,']) {
    assert.ok(search.includes(part), `the URL holds ${part}: ${search}`);
  }
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();

  const restored = await open(url.replace(session.url, ''));
  assert.deepEqual(await snapshot(restored), edited, 'the link reproduces what the reader saw');
  assert.equal(await restored.locator('.share-notice').count(), 0);
  // Reset goes back to where the link started.
  await restored.click('#worked-example button:has-text("Reset")');
  assert.deepEqual(await texts(restored, '#worked-example .step-weight .step-value'), edited.weights);
  assert.deepEqual(session.consoleErrors(restored), []);
  await restored.close();
});

test('the language and an untouched section add nothing; a link without parameters shows the defaults', async () => {
  const page = await open('index.html');
  await flushTimers(page);
  assert.equal(new URL(page.url()).search, '', 'an untouched page keeps a clean address');
  await page.click('.lang-switch button[data-lang="ko"]');
  await page.waitForSelector('body[data-ready="ko"]');
  assert.equal(new URL(page.url()).search, '?lang=ko');
  await page.close();
});

test('hostile values fall back to the defaults with a notice in the reader\'s language; nothing runs', async () => {
  const hostile = {
    'worked-example.q': '<img src=x onerror="window.__pwned=1">',
    'worked-example.keys': '1,0;0,1;1,1;1e999,0',
    'sentence.embeddings': '"><script>window.__pwned=2</script>',
    'masking.mask': 'javascript:window.__pwned=3',
    'masking.row': '99',
    'multi-head.heads': '3',
    'multi-head.seed': '-1',
    'cross-attention.decoder': 'NaN,NaN,NaN;1,1,1;1,1,1',
  };
  const query = new URLSearchParams({ lang: 'ko', ...hostile }).toString();
  const page = await open(`index.html?${query}`);
  const notices = await page.$$eval('.share-notice', (els) => els.map((e) => ({
    section: e.closest('section').id, text: e.textContent, html: e.innerHTML })));
  assert.deepEqual(notices.map((n) => n.section).sort(),
    ['cross-attention', 'masking', 'multi-head', 'sentence', 'worked-example']);
  for (const n of notices) {
    assert.match(n.text, /[가-힣]/, `the notice in ${n.section} is in Korean`);
    assert.equal(n.html, n.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'), 'plain text only');
    assert.doesNotMatch(n.text, /onerror|script|javascript/, 'the notice names parameters, never their values');
  }
  assert.match(notices.find((n) => n.section === 'worked-example').text, /q, keys/);
  // Defaults everywhere.
  assert.deepEqual(await texts(page, '#worked-example .step-weight .step-value'), ['0.401', '0.198', '0.401']);
  assert.equal(await page.$eval('#masking input[type="radio"]:checked', (e) => e.value), 'causal');
  assert.equal(await page.$eval('#multi-head input[type="radio"]:checked', (e) => e.value), '2');
  // Nothing ran, nothing was inserted (also once every pending timer has fired).
  await flushTimers(page);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('img[src="x"], main script').count(), 0);
  assert.doesNotMatch(await page.content(), /onerror|__pwned/);
  // The address is cleaned of what could not be used.
  assert.equal(new URL(page.url()).search, '?lang=ko');
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('a link reproduces what the reader saw in sections 2, 3, 8, 9 and 10; the reader\u2019s changes go into the link', async () => {
  const page = await open('index.html?lang=en&order.perm=5,4,3,2,1,0&order.pe=on&scaling.dk=64&scaling.seed=7'
    + '&family.seed=42&reading-weights.token=t1&cost.n=256');
  await page.locator('#order').scrollIntoViewIfNeeded();
  assert.equal(await page.inputValue('#order .or-perm-input'), '5, 4, 3, 2, 1, 0');
  assert.equal(await page.getAttribute('#order-pe-toggle', 'aria-checked'), 'true');
  assert.ok(Number(await page.getAttribute('#order-max-diff', 'data-value')) > 0);
  assert.equal(await text(page, '#scaling-ten-keys .range-value'), '64');
  assert.equal(await page.inputValue('#scaling-ten-keys .seed-input'), '7');
  assert.equal(await page.inputValue('#family-panel .seed-input'), '42');
  assert.match(await text(page, '#reading-weights .rw-gaze-title'), /t1/);
  assert.equal(await page.$eval('#cost-largest input:checked', (i) => i.value), '256');
  assert.equal(await page.locator('.share-notice').count(), 0);
  // The reader switches the encodings off: the link follows.
  await page.click('#order-pe-toggle');
  await flushTimers(page);
  assert.doesNotMatch(await page.evaluate(() => location.search), /order\.pe=/);
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
