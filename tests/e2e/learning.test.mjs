// End to end: the two sections that learn (#gradients, #learning) in Chromium,
// on the built site under its CSP, on the widget and from disk. Figures are
// printed with the load average (a shared machine); what is asserted is what
// holds however loaded the machine is: the targets are checked with a wide
// margin, the sentences against the numbers shown.
//
// - learning: reverse and translate train from a click (the worker), the
//   probe's heatmap changes and the alignment forms; the time from the click
//   to the targets (reverse: held-out accuracy >= 0.98 and every
//   target position's largest weight on its source, target 3 s; translate:
//   >= 0.95 and the same, target 10 s); the main thread's long tasks while it
//   trains; reset terminates the worker; one step, pause, the reader's
//   sentence, in Korean.
// - gradients: the sweep and the row computed on the page, the experiment
//   trains both runs from a click in two workers, which are stopped after;
//   the sentences in both languages (the switch keeps the runs).
// - <attention-demo section="learning"> trains in its shadow root; the single
//   file trains on the page (no worker can start from disk) in slices.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { DIST, openSite } from './browser.mjs';
import { CONTENT_SECURITY_POLICY } from '../../scripts/lib/serve.mjs';
import { createAttention } from '../../web/src/engine/index.js';
import { RUNS, evaluateEvery, firstReaching, runOptions } from '../../web/src/sections/gradients/experiment.js';
import { DEFAULTS } from '../../web/src/sections/gradients/state.js';

// The gradients experiment's two runs in Node with the same engine build as
// the page (SIMD, the basic learning module): the first evaluated step at which each reaches the target
// accuracy, evaluated as the page's workers do (every steps/20 steps).
async function experimentInNode({ dk, seed, steps }) {
  const engine = await createAttention({ build: 'simd', learning: 'basic' });
  const reached = {};
  for (const run of RUNS) {
    const trainer = engine.createTrainer(runOptions({ dk, seed }, run));
    const points = [];
    for (let step = 0; step < steps;) {
      step = trainer.step(evaluateEvery(steps)).step;
      points.push({ step, accuracy: trainer.evaluate().accuracy });
    }
    trainer.dispose();
    reached[run] = firstReaching(points);
  }
  return reached;
}

const TARGETS = { reverse: { accuracy: 0.98, seconds: 3 }, translate: { accuracy: 0.95, seconds: 10 } };
const MARGIN = 5;   // asserted at 5x the target: a shared machine can be that slow
let session;
const lines = [];
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

before(async () => {
  assert.ok(existsSync(join(DIST, 'index.html')), 'dist/ is missing: run `npm run build` first');
  session = await openSite();
});
after(async () => {
  await session?.close();
  console.log(`\nLearning in the browser (load average ${load()}):`);
  for (const line of lines) console.log(`  ${line}`);
});

// Long tasks of the page, recorded from its start.
const recordLongTasks = (page) => page.addInitScript(() => {
  window.__long = [];
  new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => ({ start: e.startTime, duration: e.duration }))))
    .observe({ type: 'longtask', buffered: true });
});
// The main thread's long tasks over the next `ms`: { count, total, longest }.
async function blockedFor(page, ms) {
  const from = await page.evaluate(() => performance.now());
  await page.waitForTimeout(ms);
  return page.evaluate(({ from: t, ms: span }) => {
    const during = window.__long.filter((e) => e.start >= t && e.start < t + span);
    return { count: during.length, total: during.reduce((a, e) => a + e.duration, 0), longest: Math.max(0, ...during.map((e) => e.duration)) };
  }, { from, ms });
}
const heatmapText = (root, selector) => root.$$eval(`${selector} .heatmap-grid .heatmap-cell`, (cells) => cells.map((c) => c.textContent).join(' '));
// The name of a worker: the service it runs (the page's every worker starts in
// web/src/worker/bridge.js, named after its service); null if it has closed.
const serviceOf = (worker) => worker.evaluate(() => self.name).catch(() => null);
// The page's workers that train.
async function trainingWorkers(page) {
  const workers = page.workers();
  const names = await Promise.all(workers.map(serviceOf));
  return workers.filter((_, i) => names[i] === 'training');
}
// Waits (up to 5 s) until the page has no training worker left; -> how many are left.
async function trainingWorkersLeft(page) {
  for (let i = 0; i < 50 && (await trainingWorkers(page)).length; i++) await page.waitForTimeout(100);
  return (await trainingWorkers(page)).length;
}

// Clicks `selector` and stamps the time of the click in the page; then waits
// until the training panel shows the task's targets reached. -> { ms, step, longTasks }
async function trainToTargets(page, panel, task) {
  const target = TARGETS[task].accuracy;
  await page.evaluate((sel) => {
    window.__clicked = performance.now();
    document.querySelector(sel).click();
  }, `${panel} button[data-action="play"]`);
  await page.waitForFunction(({ sel, target: t }) => {
    const el = document.querySelector(sel);
    const done = Number(el.dataset.accuracy) >= t && el.dataset.aligned === el.dataset.total;
    if (done) window.__reached ??= performance.now();
    return done;
  }, { sel: panel, target }, { polling: 'raf', timeout: TARGETS[task].seconds * MARGIN * 1000 });
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const during = window.__long.filter((e) => e.start + e.duration >= window.__clicked && e.start <= window.__reached);
    return {
      ms: window.__reached - window.__clicked, step: Number(el.dataset.step), accuracy: Number(el.dataset.accuracy),
      longTasks: during.length, longest: Math.max(0, ...during.map((e) => e.duration)),
    };
  }, panel);
}

for (const task of ['reverse', 'translate']) {
  test(`learning (${task}): trains from a click in a worker, reaches the targets; the page stays responsive; reset stops the worker`, async () => {
    const page = await session.newPage(null, { width: 1280, height: 900 });
    await recordLongTasks(page);
    await page.goto(`${session.url}index.html?lang=en&learning.task=${task}#learning`);
    await page.waitForSelector('body[data-ready]', { timeout: 60000 });
    await page.locator('#learning-training').scrollIntoViewIfNeeded();
    // The page's own start-up work done (section 2's experiments, the sweep, idle callbacks).
    await page.waitForSelector('#scaling-sweep[data-run]', { timeout: 60000 });
    await page.waitForSelector('#gradients-sweep[data-run]', { timeout: 60000 });
    await page.evaluate(() => new Promise((done) => requestIdleCallback(() => done())));
    const idle = await blockedFor(page, 2000);
    assert.equal(await page.getAttribute('#learning-training', 'data-state'), 'idle');
    assert.equal((await trainingWorkers(page)).length, 0, 'no training worker before play');
    const before = await heatmapText(page, '#learning-probe');

    const reached = await trainToTargets(page, '#learning-training', task);
    const { accuracy, seconds } = TARGETS[task];
    lines.push(`${task}: held-out accuracy ${reached.accuracy.toFixed(3)} >= ${accuracy} with every target position's largest weight on its source, `
      + `${(reached.ms / 1000).toFixed(2)} s after the click (step ${reached.step}; target ${seconds} s); `
      + `main-thread long tasks meanwhile: ${reached.longTasks} (longest ${reached.longest.toFixed(0)} ms)`);
    assert.ok(reached.ms < seconds * MARGIN * 1000, `${task}: ${reached.ms} ms (target ${seconds} s, asserted at ${MARGIN}x)`);
    assert.equal((await trainingWorkers(page)).length, 1, 'the run trains in one worker');
    assert.notEqual(await heatmapText(page, '#learning-probe'), before, 'the heatmap changed');
    // The sentences are redrawn 4 times a second (the heatmap 10): they follow within a quarter of a second.
    await page.waitForFunction(() => /The alignment has formed/.test(document.querySelector('#learning-training .le-summary').textContent),
      null, { timeout: 5000 });
    // The sentence carries the step's loss and accuracy as numbers (a later part
    // of it once blanked them to dashes).
    const sentence = await page.textContent('#learning-training .le-summary');
    assert.match(sentence, /training loss \d[\d.]*, held-out accuracy [01]\.\d{3}\./, sentence);

    // Two more seconds of training: what the main thread does meanwhile, against two idle seconds before.
    const busy = await blockedFor(page, 2000);
    const step = Number(await page.getAttribute('#learning-training', 'data-step'));
    lines.push(`${task}: 2 s more of training (to step ${step}): ${busy.count} long tasks on the main thread, ${busy.total.toFixed(0)} ms in all, `
      + `longest ${busy.longest.toFixed(0)} ms (2 idle seconds before play: ${idle.count} long tasks, ${idle.total.toFixed(0)} ms)`);
    // What holds on a loaded machine: no task near a second (training on the
    // main thread would block it for the whole run); the totals are printed.
    assert.ok(busy.longest < 1000 && reached.longest < 1000, `a main-thread task of ${Math.max(busy.longest, reached.longest)} ms while the worker trained`);

    // Reset terminates the worker.
    const [worker] = await trainingWorkers(page);
    const closed = new Promise((resolve) => worker.once('close', resolve));
    await page.click('#learning-training button[data-action="reset"]');
    await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error('the worker did not stop on reset')), 10000))]);
    assert.equal((await trainingWorkers(page)).length, 0);
    assert.equal(await page.getAttribute('#learning-training', 'data-state'), 'idle');
    assert.equal(await page.getAttribute('#learning-training', 'data-step'), '0');
    assert.equal(await heatmapText(page, '#learning-probe'), before, 'reset shows the untrained model again');
    assert.deepEqual(session.consoleErrors(page), []);
    await page.close();
  });
}

test('learning in Korean: one step, pause, a sentence refused and one translated by the trained model', async () => {
  const page = await session.newPage('index.html?lang=ko#learning', { width: 375, height: 800 });
  await page.waitForSelector('body[data-ready]', { timeout: 60000 });
  const panel = '#learning-training';
  await page.locator(panel).scrollIntoViewIfNeeded();
  await page.click(`${panel} button[data-action="step"]`);
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.step === '1', panel);
  assert.match(await page.textContent(`${panel} .le-summary`), /1단계 뒤/);
  // The untrained model reads a sentence; an unknown word is told in Korean.
  await page.fill('#learning-translate input', 'the young cat reads an old book in the library');
  await page.click('#learning-translate button[data-action="translate"]');
  await page.waitForSelector('#learning-translate [role="alert"]');
  assert.match(await page.textContent('#learning-translate [role="alert"]'), /어휘에 없는 말: "cat"/);
  // Issue 25: a U+202E typed is named by its code point, not echoed (it turned the page's sentence backwards),
  // and each echoed word is isolated (<bdi>): a right-to-left word reorders neither the list nor the sentence.
  await page.fill('#learning-translate input', 'the young \u05E9\u05DC\u05D5\u05DD 123 reads \u202Ecat book');
  await page.click('#learning-translate button[data-action="translate"]');
  await page.waitForFunction(() => /U\+202E/.test(document.querySelector('#learning-translate [role="alert"]').textContent));
  // Where the sentence's start, the right-to-left word's letters and the digits after it are drawn.
  const [start, word, digits] = await page.evaluate((list) => {
    const alert = document.querySelector('#learning-translate [role="alert"]');
    const walker = document.createTreeWalker(alert, NodeFilter.SHOW_TEXT);
    const boxes = {};
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const needle of list.filter((n) => !(n in boxes) && node.data.includes(n))) {
        const range = document.createRange();
        range.setStart(node, node.data.indexOf(needle));
        range.setEnd(node, node.data.indexOf(needle) + needle.length);
        const { left, right, top } = range.getClientRects()[0];
        boxes[needle] = { left, right, top };
      }
    }
    return list.map((n) => boxes[n]);
  }, ['어휘에', '\u05E9\u05DC\u05D5\u05DD', '123']);
  const where = JSON.stringify({ start, word, digits });
  assert.ok(start.top < word.top || start.right <= word.left, `the page's sentence starts first: ${where}`);
  assert.equal(word.top, digits.top, `the right-to-left word and the digits after it on one line: ${where}`);
  assert.ok(word.right <= digits.left + 0.5, `the list keeps its order (the word, then "123"): ${where}`);
  await page.click(`${panel} button[data-action="play"]`);
  await page.waitForFunction((sel) => Number(document.querySelector(sel).dataset.accuracy) >= 0.95, panel, { timeout: 60000 });
  await page.click(`${panel} button[data-action="pause"]`);
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.state === 'paused', panel);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const step = Number(await page.getAttribute(panel, 'data-step'));
  assert.match(await page.textContent(`${panel} .le-counters`), new RegExp(`^${step}단계`), 'the counters show the step paused at');
  await page.waitForTimeout(300);
  assert.equal(Number(await page.getAttribute(panel, 'data-step')), step, 'paused: no more steps');
  assert.match(await page.textContent(`${panel} .le-status`), new RegExp(`${step}단계에서 일시 정지`));
  await page.fill('#learning-translate input', 'a happy farmer eats a red apple in the kitchen');
  await page.click('#learning-translate button[data-action="translate"]');
  await page.waitForSelector('#learning-sentence');
  assert.equal(await page.locator('#learning-translate [role="alert"]').count(), 0);
  const output = await page.textContent('#learning-sentence .le-output');
  lines.push(`translate after ${step} steps: "a happy farmer eats a red apple in the kitchen" -> ${output}`);
  assert.match(output, /농부가/);
  assert.match(await page.textContent('#learning-translate .le-note'), new RegExp(`${step}단계 학습한 모델`));
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(sideways <= 0, `375 px: the page scrolls sideways by ${sideways}px`);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

// The gradients section's three sentences in `lang`, each against what it
// reports: the sweep at seed 1, the row's query 1, and the experiment's steps
// to 95% (`reached`, the same runs in Node).
async function expectGradientSentences(page, lang, reached) {
  const summary = await page.textContent('#gradients-sweep .gr-summary');
  assert.match(summary, lang === 'en' ? /7775 times less/ : /7775배 작고/, 'seed 1: the vanishing gradient, as computed in Node');
  assert.match(await page.textContent('#gradients-row .gr-summary'), lang === 'en' ? /^Query 1 at/ : /쿼리 1:/, 'the sentence follows the row');
  const text = await page.textContent('#gradients-experiment .gr-summary');
  assert.match(text, lang === 'en' ? new RegExp(`after ${reached.scaled} steps; without it, after ${reached.raw}\\b`)
    : new RegExp(`${reached.scaled}단계 만에 95%에 이르렀고, 나누지 않으면 ${reached.raw}단계`), 'the steps the same runs take in Node');
  return text;
}

test('gradients: the sweep and the row on the page; the experiment trains both runs from a click, then stops its workers; in Korean after the switch, the same runs', async () => {
  const page = await session.newPage('index.html?lang=en#gradients', { width: 1280, height: 900 });
  await page.waitForSelector('body[data-ready]', { timeout: 60000 });
  await page.waitForSelector('#gradients-sweep[data-run]', { timeout: 60000 });
  assert.equal(await page.locator('#gradients-sweep .gr-table tbody tr').count(), 9);

  const row = await heatmapText(page, '#gradients-row .gr-raw');
  await page.click('#gradients-row .gr-query-choice label:has-text("1")');
  await page.waitForFunction(() => document.querySelector('#gradients-row').dataset.query === '1');
  assert.notEqual(await heatmapText(page, '#gradients-row .gr-raw'), row, 'another query, another Jacobian');

  const panel = '#gradients-experiment';
  await page.locator(panel).scrollIntoViewIfNeeded();
  const started = [];
  page.on('worker', async (w) => { if (await serviceOf(w) === 'training') started.push(w); });
  const t0 = Date.now();
  await page.click(`${panel} button[data-action="run"]`);
  for (let i = 0; i < 100 && started.length < 2; i++) await page.waitForTimeout(50);
  assert.equal(started.length, 2, 'one worker per run');
  await page.waitForSelector(`${panel}[data-state="done"]`, { timeout: 120000 });
  const seconds = (Date.now() - t0) / 1000;
  const reached = await experimentInNode(DEFAULTS.train);
  const text = await expectGradientSentences(page, 'en', reached);
  lines.push(`gradients experiment (d_k = 64, 200 steps): ${seconds.toFixed(1)} s; ${text}`);
  assert.equal(await page.locator(`${panel} .lc-line`).count(), 4, 'two curves in each chart');
  assert.equal(await trainingWorkersLeft(page), 0, 'the finished runs\' workers are stopped');

  // Korean: the language switch redraws every sentence from the same runs, without a reload or a new run.
  await page.click('.lang-switch button[data-lang="ko"]');
  await page.waitForSelector('body[data-ready="ko"]', { timeout: 60000 });
  lines.push(`  in Korean: ${await expectGradientSentences(page, 'ko', reached)}`);
  assert.equal(await page.locator(`${panel} .lc-line`).count(), 4, 'two curves in each chart');
  assert.equal(started.length, 2, 'no new run');
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('the widget: <attention-demo section="learning"> trains in its shadow root under the strict CSP', async () => {
  const page = await session.newPage(null, { width: 900, height: 900 });
  const url = `${session.url}host-learning.html`;
  await page.route(url, (route) => route.fulfill({
    status: 200, contentType: 'text/html; charset=utf-8', headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>widget</title><link rel="icon" href="data:,">
<script type="module" src="embed/attention-embed.js"></script></head>
<body><attention-demo section="learning" task="reverse" compact></attention-demo></body></html>`,
  }));
  await page.goto(url);
  await page.waitForSelector('attention-demo[data-ready]', { timeout: 60000 });
  const widget = page.locator('attention-demo');
  await widget.locator('#learning-training button[data-action="play"]').click();
  await page.waitForFunction(() => {
    const el = document.querySelector('attention-demo').shadowRoot.querySelector('#learning-training');
    return Number(el.dataset.accuracy) >= 0.98 && el.dataset.aligned === el.dataset.total;
  }, null, { timeout: 60000 });
  assert.equal((await trainingWorkers(page)).length, 1, 'the widget trains in a worker');
  await widget.locator('#learning-training button[data-action="reset"]').click();
  assert.equal(await trainingWorkersLeft(page), 0, 'reset stops the widget\'s worker');
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('from disk (dist/attention.html): no worker starts; the learning section trains on the page in slices', async () => {
  const page = await session.newPage(null, { width: 1280, height: 900 });
  await recordLongTasks(page);
  await page.goto(`${pathToFileURL(join(DIST, 'attention.html')).href}?lang=en&learning.task=reverse#learning`);
  await page.waitForSelector('body[data-ready]', { timeout: 60000 });
  await page.locator('#learning-training').scrollIntoViewIfNeeded();
  const reached = await trainToTargets(page, '#learning-training', 'reverse');
  lines.push(`from disk, on the page: reverse reached its targets ${(reached.ms / 1000).toFixed(2)} s after the click (step ${reached.step}); `
    + `long tasks meanwhile: ${reached.longTasks} (longest ${reached.longest.toFixed(0)} ms)`);
  assert.equal(page.workers().length, 0, 'no worker from disk');
  assert.ok(reached.ms < TARGETS.reverse.seconds * MARGIN * 1000);
  await page.click('#learning-training button[data-action="pause"]');
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});
