// End to end: the speed of the page as a reader meets it (issue 9, "Speed of
// the page"), printed against its targets with the load average (a measurement
// on a shared machine: figures are printed, and asserted only with a wide margin
// where a regression would be gross).
//
// - Cold load (no cache) to the worked example's numbers on screen, on
//   loopback: target under 1 s. Also first paint, when the .wasm is requested,
//   and the main thread's long tasks.
// - Every interaction's main-thread work (handlers, engine, DOM, the
//   microtasks they queue, a forced layout): target under 16 ms; and input to painted frame, against the floor
//   of an input that does nothing. The section 2 slider, typing in section 8,
//   and the controls of the two sections that learn (#gradients, #learning)
//   included.
// - The page's height stays put while scrolling (sections reserve about their
//   real height before they are built or while skipped off screen).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { DIST, openSite, timeToPaint } from './browser.mjs';

const LOAD_TARGET_MS = 1000;
const WORK_TARGET_MS = 16;
let session;
const lines = [];
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

before(async () => {
  assert.ok(existsSync(join(DIST, 'index.html')), 'dist/index.html is missing: run scripts/build-web.sh first');
  // SPEED_DIST: another build to measure (e.g. an older one, for a before/after).
  session = await openSite({ dir: process.env.SPEED_DIST ?? DIST });
});
after(async () => {
  await session?.close();
  console.log(`\nSpeed of the page (load average ${load()}):`);
  for (const line of lines) console.log(`  ${line}`);
});

test('cold load: the worked example’s numbers on screen in under a second', async () => {
  const runs = [];
  for (let run = 0; run < 5; run++) {
    const page = await session.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.addInitScript(() => {
      window.__long = [];
      new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => e.duration)))
        .observe({ type: 'longtask', buffered: true });
    });
    await page.goto(`${session.url}index.html?lang=en`, { waitUntil: 'commit' });
    // Checked every frame: the first frame in which the weights are in the page.
    await page.waitForFunction(() => {
      const shown = document.querySelector('#worked-example .step-weight .step-value')?.textContent === '0.401';
      if (shown) window.__numbersAt ??= performance.now();
      return shown;
    }, null, { polling: 'raf', timeout: 30000 });
    await page.waitForSelector('body[data-ready]', { timeout: 30000 });
    runs.push(await page.evaluate(() => ({
      numbers: window.__numbersAt,
      paint: performance.getEntriesByType('paint').find((p) => p.name === 'first-contentful-paint')?.startTime ?? NaN,
      wasm: performance.getEntriesByType('resource').find((e) => /attention-simd-[\w-]+\.wasm$/.test(e.name))?.startTime ?? NaN,
      longest: Math.max(0, ...window.__long),
      blocked: window.__long.reduce((a, d) => a + d - 50, 0),
    })));
    await page.close();
  }
  const m = (key) => median(runs.map((r) => r[key]));
  lines.push(`cold load to the worked example's numbers: median ${m('numbers').toFixed(0)} ms over ${runs.length} loads (${runs.map((r) => r.numbers.toFixed(0)).join(', ')}); target < ${LOAD_TARGET_MS} ms`);
  lines.push(`  first contentful paint ${m('paint').toFixed(0)} ms; .wasm requested at ${m('wasm').toFixed(0)} ms; longest task ${m('longest').toFixed(0)} ms; blocking time until ready ${m('blocked').toFixed(0)} ms`);
  // The .wasm is requested from the HTML's head, not after the module graph.
  assert.ok(m('wasm') < m('paint') + 100, `the .wasm is requested early (${m('wasm')} ms, first paint ${m('paint')} ms)`);
  assert.ok(m('numbers') < 3 * LOAD_TARGET_MS, `numbers on screen in ${m('numbers')} ms (target ${LOAD_TARGET_MS}; asserted at 3x for a shared machine)`);
});

// Times `action({ i, sel })` (run in the page; returns the ms of its
// synchronous work, measured by window.__time) `runs` times, and the
// input-to-paint of each.
async function measure(page, label, action, sel = null, runs = 7) {
  // The work an input causes: its handlers, then the microtasks they queued
  // (mutation observers, promise callbacks: scroll-regions' observer used to
  // read the layout of 85 boxes there), then style and layout.
  await page.evaluate(() => {
    window.__time = async (fn) => {
      const t0 = performance.now();
      fn();
      for (let i = 0; i < 3; i++) await null;   // let the queued microtasks run
      document.documentElement.getBoundingClientRect();   // force style and layout
      return performance.now() - t0;
    };
  });
  const work = [];
  const paint = [];
  for (let i = 0; i < runs; i++) {
    paint.push(await timeToPaint(page, async () => { work.push(await page.evaluate(action, { i, sel })); }));
  }
  return { label, work: median(work), worst: Math.max(...work), paint: median(paint) };
}

test('every interaction: main-thread work under 16 ms, input to paint within a frame of the floor', async () => {
  const page = await session.newPage('index.html?lang=en', { width: 1280, height: 900 });
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  const type = ({ i, sel }) => window.__time(() => {
    const input = document.querySelector(sel);
    input.value = String(0.5 + ((i % 5) + 1) / 10);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  const click = ({ i, sel }) => window.__time(() => {
    const all = document.querySelectorAll(sel);
    all[i % all.length].click();
  });
  const results = [await measure(page, '(floor: an input that does nothing)', () => window.__time(() => {}))];
  const cases = [
    ['#worked-example', '1 worked example: typing q', type, '#worked-example input[aria-label="q, component 2"]'],
    ['#scaling', '2 scaling: the d_k slider (ten keys)', ({ i }) => window.__time(() => {
      const slider = document.querySelector('#scaling-ten-keys input[type="range"]');
      slider.value = String(4 + (i % 8));
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    })],
    ['#gradients', '3 gradients: the row\'s d_k slider', ({ i }) => window.__time(() => {
      const slider = document.querySelector('#gradients-row input[type="range"]');
      slider.value = String(i % 9);
      slider.dispatchEvent(new Event('change', { bubbles: true }));
    })],
    ['#gradients', '3 gradients: choosing the row\'s query', click, '#gradients-row .gr-query-choice input[type="radio"]'],
    ['#gradients', '3 gradients: a new seed (the sweep restarts)', click, '#gradients-sweep button[data-action="rerun"]'],
    ['#gradients', '3 gradients: the experiment\'s steps', click, '#gradients-experiment input[type="radio"]'],
    ['#reading-weights', '4 reading weights: typing an entry of M', type, '#reading-weights .matrix-input input'],
    ['#reading-weights', '4 reading weights: choosing a token', click, '#reading-weights .rw-gaze input[type="radio"]'],
    ['#sentence', '5 sentence: typing an embedding', type, '#sentence .matrix-input input'],
    ['#masking', '6 masking: clicking a cell', click, '#masking button.heatmap-cell'],
    ['#multi-head', '7 multi-head: changing h', click, '#multi-head .mh-controls input[type="radio"]'],
    ['#cross-attention', '8 cross-attention: typing a decoder feature', type, '#cross-attention .cross-inputs .matrix-input input'],
    ['#family', '9 family: a new seed', click, '#family button[data-action="rerun"]'],
    ['#learning', '10 learning: choosing the task (a new untrained model)', click, '#learning-task input[type="radio"]'],
    ['#learning', '10 learning: choosing h', click, '#learning-heads input[type="radio"]'],
    ['#learning', '10 learning: the scaling on/off', click, '#learning-scaling'],
    ['#learning', '10 learning: play, then pause (a worker starts)', click,
      '#learning-training button[data-action="play"], #learning-training button[data-action="pause"]'],
    ['#learning', '10 learning: reset (the worker stops)', click, '#learning-training button[data-action="reset"]'],
    ['#order', '11 order: shuffling', click, '#order button[data-action="shuffle"]'],
    ['#order', '11 order: positional encodings on/off', click, '#order-pe-toggle'],
    ['#cost', '12 cost: choosing the largest n', click, '#cost-largest input[type="radio"]'],
  ];
  for (const [section, label, action, sel] of cases) {
    await page.locator(section).scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);   // laid out, idle work done
    results.push(await measure(page, label, action, sel));
  }
  const floor = results[0].paint;
  lines.push(`interactions (median of 7; work target < ${WORK_TARGET_MS} ms; paint floor ${floor.toFixed(1)} ms):`);
  lines.push(`  ${'interaction'.padEnd(56)} ${'work'.padStart(6)} ${'worst'.padStart(6)} ${'paint'.padStart(7)}`);
  for (const r of results) lines.push(`  ${r.label.padEnd(56)} ${r.work.toFixed(2).padStart(6)} ${r.worst.toFixed(2).padStart(6)} ${r.paint.toFixed(1).padStart(7)}`);
  for (const r of results) assert.ok(r.work < 4 * WORK_TARGET_MS, `${r.label}: ${r.work} ms of work (target ${WORK_TARGET_MS}; asserted at 4x for a shared machine)`);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('the page’s height stays put while the reader scrolls (375 and 1280 px)', async () => {
  for (const width of [375, 1280]) {
    const page = await session.newPage('index.html?lang=en', { width, height: 800 });
    await page.waitForSelector('body[data-ready]', { timeout: 30000 });
    const atLoad = await page.evaluate(() => document.documentElement.scrollHeight);
    const seen = [atLoad];
    for (let y = 0; y < seen[seen.length - 1]; y += 700) {
      // Instant: the page scrolls smoothly (page.css), and a smooth scroll of 700 px held
      // each step for ~0.5 s (the test took 80 s); every part of the page still passes the screen.
      await page.evaluate((top) => scrollTo({ top, behavior: 'instant' }), y);
      await page.waitForTimeout(20);
      seen.push(await page.evaluate(() => document.documentElement.scrollHeight));
    }
    const [lo, hi] = [Math.min(...seen), Math.max(...seen)];
    const change = (hi - lo) / lo;
    lines.push(`page height at ${width} px: ${atLoad} px at load, ${lo} to ${hi} px while scrolling (${(100 * change).toFixed(1)}%)`);
    assert.ok(change < 0.15, `the page height changes by ${(100 * change).toFixed(1)}% while scrolling at ${width} px`);
    await page.close();
  }
});
