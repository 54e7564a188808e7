// End to end: section "decoding" of the second page (dist/learns.html) in
// headless Chromium under the site's CSP. One run per model: the transformer
// in English at 1280 px, Bahdanau's GRU in Korean at 375 px. Each trains in a
// worker to its target within the budget, with the page answering meanwhile;
// its generation is shown step by step (the cache one row longer per step, or
// one state), timed both ways; the sentences agree with the numbers shown; a
// typed sentence decodes and an unknown word comes back as the engine's
// message, isolated; no sideways scroll, axe clean, no console error. And the
// section as a widget (embed.html?section=decoding) with its parameters.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openSite, addTestStyles, removeTestStyles, medianClickToPaint, openEmbedThis } from './browser.mjs';
import { axeViolations, describeViolations } from './a11y.mjs';
import { formatNumber } from '../../web/src/lib/format.js';
import en from '../../web/src/i18n/en/decoding.js';
import ko from '../../web/src/i18n/ko/decoding.js';

// From pressing Train to the trained model's probe decoded and timed (the
// section's "done"). Measured (this file, Chromium, SIMD, load 8-9 on 2
// cores): transformer 3.1-6.8 s, Bahdanau's GRU 2.1-3.6 s (in Node at load
// 1-4: 1.6-2.1 s and 1.0-1.4 s of CPU to the target). The issue asks for
// under 10 s: that is the budget, with room at an idle machine.
const BUDGET_MS = 10000;
// The page answers a click during training: two frames later within this
// (~33 ms at 60 Hz; a loose bound for a loaded machine).
// A click painted while the workers train: two frames (~33 ms) at rest (16-49 ms measured at load 1-6);
// npm test runs two files at once, each training in two workers on two cores (load 7: 133 ms once), so it
// asserts only a gross stall, as reader-speed's checks do (tests/e2e/speed.mjs: 3x the target); the figure is printed.
const ANSWER_MS = 250;
const STRINGS = { en, ko };
let session;
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

before(async () => { session = await openSite(); });
after(async () => { await session?.close(); });

// Trains with the section's Train button; returns the ms until the section is done.
async function train(page) {
  const panel = page.locator('#decoding-training');
  await panel.scrollIntoViewIfNeeded();
  const started = Date.now();
  await panel.locator('button[data-action="train"]').click();
  // While it trains: the page paints the answer to a click on the next frames.
  await page.waitForFunction(() => Number(document.querySelector('#decoding-training').dataset.step) > 0, null, { timeout: 30000 });
  const answer = await medianClickToPaint(page, '#decoding-training .dc-plots details summary');
  await page.waitForSelector('#decoding-training[data-state="done"]', { timeout: 60000 });
  return { ms: Date.now() - started, answer };
}

async function checkRun(page, lang, model) {
  const s = STRINGS[lang];
  const { ms, answer } = await train(page);
  console.log(`decoding ${model} (${lang}): done ${ms} ms after the click; a click painted in (median of 5) ${answer.toFixed(0)} ms; load ${loadavg()}`);
  assert.ok(ms < BUDGET_MS, `${model}: ${ms} ms, budget ${BUDGET_MS}`);
  assert.ok(answer < ANSWER_MS, `the page answered a click in ${answer} ms during training`);

  // The sentences the section chose, against the numbers it shows.
  const summary = page.locator('#decoding-summary');
  await page.waitForFunction(() => document.querySelector('#decoding-summary').dataset.keys?.includes('summary.cost'));
  const keys = (await summary.getAttribute('data-keys')).split(' ');
  assert.equal(keys[0], 'summary.training.reached');
  assert.equal(keys[1], model === 'transformer' ? 'summary.cache.grows' : 'summary.cache.state');
  const text = await summary.textContent();
  const step = await page.getAttribute('#decoding-training', 'data-step');
  assert.ok(text.includes(step), `the summary names the step the run ended at (${step})`);
  const cost = page.locator('#decoding-cost');
  const ratio = Number(await cost.getAttribute('data-ratio'));
  assert.ok(ratio > 0);
  const expectedCost = ratio >= 1.15 ? 'summary.cost.faster' : ratio <= 1 / 1.15 ? 'summary.cost.slower' : 'summary.cost.same';
  assert.equal(keys[2], expectedCost, `ratio ${ratio}`);
  assert.ok(text.includes(formatNumber(ratio, 2)), `the summary gives the ratio measured (${formatNumber(ratio, 2)})`);
  assert.ok((await cost.textContent()).includes(formatNumber(ratio, 2)));

  // Step by step: the slider's last step is shown; at step k the transformer's cache holds k rows.
  const steps = page.locator('#decoding-steps');
  const n = Number(await steps.getAttribute('data-step'));
  assert.ok(n >= 4, `a generation of ${n} steps`);
  const slider = steps.locator('input[type="range"]');
  await slider.focus();
  await page.keyboard.press('Home');
  assert.equal(await steps.getAttribute('data-step'), '1');
  assert.equal(await steps.getAttribute('data-cache-length'), '1');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await steps.getAttribute('data-step'), '3');
  if (model === 'transformer') {
    assert.equal(await steps.getAttribute('data-cache-length'), '3');
    assert.equal(await steps.locator('.dc-self .heatmap-row').count(), 4, 'the cache map: a header and 3 rows');
  } else {
    assert.equal(await steps.locator('.dc-self').count(), 0, 'the recurrent model has no cache map');
  }
  assert.equal(await steps.locator('.dc-cross .heatmap-row').count(), 4, 'the source map: a header and 3 rows');

  // A typed sentence, then an unknown word.
  const typed = 'a happy girl quickly ate the sweet cake in the garden';
  await steps.locator('input[type="text"]').fill(typed);
  await steps.locator('button[data-action="decode"]').click();
  await page.waitForFunction((note) => document.querySelector('#decoding-steps .dc-note').textContent === note, s.steps.typed);
  const source = await steps.locator('.dc-cross .heatmap-col-label').allTextContents();
  assert.deepEqual(source, typed.split(' '));
  await steps.locator('input[type="text"]').fill('the dog runs');
  await steps.locator('button[data-action="decode"]').click();
  const error = steps.locator('.input-error[role="alert"]');
  await error.waitFor();
  assert.match(await error.innerHTML(), /<bdi dir="ltr">sentence: unknown word <bdi>"dog"<\/bdi>/);
  assert.deepEqual(await steps.locator('.dc-cross .heatmap-col-label').allTextContents(), typed.split(' '), 'the last sentence decoded stays');
}

async function checkPage(page, lang, width) {
  const content = await page.locator('#decoding').textContent();
  assert.ok(!content.includes('\u27e6'), `no missing string (${lang})`);
  assert.ok(!content.includes('{\u00a7'), 'every {\u00a7section} reference is numbered');
  if (lang === 'ko') assert.match(content, /[\uac00-\ud7a3]/);
  const sheet = await addTestStyles(page, '.section { content-visibility: visible !important; }');
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(sideways <= 0, `${lang} ${width}: the page scrolls sideways by ${sideways} px`);
  const serious = await axeViolations(page, { include: '#decoding' });
  assert.equal(serious.length, 0, describeViolations(serious));
  await removeTestStyles(sheet);
  assert.deepEqual(session.consoleErrors(page), []);
}

test('the transformer (English, 1280 px): trained within the budget, decoded step by step with its cache, timed both ways; the text agrees', async () => {
  const page = await session.newPage('learns.html?lang=en#decoding', { width: 1280, height: 900 });
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  await checkRun(page, 'en', 'transformer');
  await checkPage(page, 'en', 1280);
  await page.close();
});

test('Bahdanau\'s GRU (Korean, 375 px, from the link\'s model=bahdanau): its one state, the same checks', async () => {
  const page = await session.newPage('learns.html?lang=ko&decoding.model=bahdanau#decoding', { width: 375, height: 800 });
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  assert.equal(await page.locator('#decoding-training input[value="bahdanau"]').isChecked(), true);
  await checkRun(page, 'ko', 'bahdanau');
  await checkPage(page, 'ko', 375);
  await page.close();
});

test('the widget (embed.html?section=decoding): its parameters; the learning module only when it trains; the Embed this code', async () => {
  const page = await session.newPage(null, { width: 700, height: 900 });
  const fullModule = [];
  page.on('request', (r) => { if (/attention-learning-(simd|baseline)-[^/]*\.wasm$/.test(r.url())) fullModule.push(r.url()); });
  await page.goto(`${session.url}embed/embed.html?section=decoding&lang=ko&model=bahdanau&seed=5`);
  await page.waitForSelector('attention-demo[data-ready]', { timeout: 30000 });
  const widget = page.locator('attention-demo');
  assert.equal(await widget.locator('#decoding-training input[value="bahdanau"]').isChecked(), true);
  assert.ok((await widget.locator('#decoding-training').textContent()).includes(ko.training.title));
  assert.deepEqual(fullModule, [], 'the widget loads without the learning module');
  // Trained, its worker fetches the module with every model.
  await widget.locator('#decoding-training button[data-action="train"]').click();
  await page.waitForFunction(() => document.querySelector('attention-demo').shadowRoot.querySelector('#decoding-training').dataset.state === 'done', null, { timeout: 60000 });
  assert.equal(fullModule.length, 1, 'the worker fetched the module with every model');
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
  const frame = await session.newPage('learns.html?lang=en&decoding.seed=5#decoding', { width: 1280, height: 900 });
  await frame.waitForSelector('body[data-ready]', { timeout: 30000 });
  await openEmbedThis(frame, 'decoding');
  const code = (await frame.locator('#decoding .embed-code-text').allTextContents()).join('\n');
  assert.match(code, /<attention-demo section="decoding" lang="en" seed="5"><\/attention-demo>/, 'the section frame has its Embed this code');
  await frame.close();
});
