// The soaks: a change made `changes` times in a row, each rendered, leaves
// nothing behind (DOM nodes, event listeners, documents and heap, read through
// the Chrome DevTools Protocol after a garbage collection) and does not slow
// (the same DOM mutations per tenth of the changes at the end as at the start;
// the times are printed). `npm test` runs them with 100 changes
// (tests/e2e/hostile-inputs.test.mjs): a leak of one node or one listener per
// render fails there. `npm run test:stress` runs them with 1,000
// (tests/stress/soak.test.mjs), where a smaller leak adds up.
//
//   soakTests(() => session, 1000);   // registers the three tests in the calling file
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sections } from '../../web/src/sections/registry.js';
import { codecs, expectNothingRan, openWidgets } from './hostile.mjs';

// Lets what the widgets build while the reader reads finish first (the
// multi-head section builds its other choices of h in idle callbacks, the
// scaling experiments run in workers), so that two measurements see the same
// state: no widget busy, then several idle periods in a row.
async function settle(page) {
  await page.waitForFunction(() => [...document.querySelectorAll('attention-demo')]
    .every((el) => !el.shadowRoot.querySelector('[aria-busy="true"]')), null, { timeout: 60000 });
  await page.evaluate(async () => {
    for (let i = 0; i < 8; i++) await new Promise((done) => requestIdleCallback(done, { timeout: 2000 }));
  });
}

// DOM nodes, event listeners and documents of the page, and its JS heap, after
// a garbage collection (Chrome DevTools Protocol).
async function counters(page) {
  await settle(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { documents, nodes, jsEventListeners } = await cdp.send('Memory.getDOMCounters');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return { documents, nodes, listeners: jsEventListeners, heap: usedSize };
}

// No growth: renders that each kept one node or one listener would add one per
// change, 100 at least (the radio buttons of a widget's choice group once kept
// 1,000 nodes and 200 listeners over 1,000 renders); the state at the end may
// hold a little less than at the start (a section's lazily built parts), not more.
const expectNoLeak = (before, afterwards, where) => {
  assert.equal(afterwards.documents, before.documents, `${where}: documents`);
  assert.ok(afterwards.nodes <= before.nodes + 50, `${where}: DOM nodes ${before.nodes} -> ${afterwards.nodes}`);
  assert.ok(afterwards.listeners <= before.listeners + 10, `${where}: listeners ${before.listeners} -> ${afterwards.listeners}`);
  const growth = afterwards.heap - before.heap;
  assert.ok(growth < 2 * 1024 * 1024, `${where}: the heap grew by ${(growth / 1024).toFixed(0)} KB`);
};

// Changes the worked example `count` times in the page, ending on the value it
// started from, each change rendered before the next: 'widget attribute' sets
// the <attention-demo>'s q attribute (and waits for its render), 'page input'
// types into the page's q box. -> { perTenth: ms per tenth of the changes,
// work: DOM mutation records per tenth }.
function repeatInPage(page, what, count) {
  return page.evaluate(async ([kind, n]) => {
    const widget = document.querySelector('attention-demo');
    const box = document.querySelector('#worked-example input[aria-label="q, component 2"]');
    const root = kind === 'widget attribute' ? widget.shadowRoot : document.getElementById('worked-example');
    const change = async (i) => {
      if (kind === 'widget attribute') {
        const rendered = new Promise((done) => widget.addEventListener('attention-ready', done, { once: true }));
        widget.setAttribute('q', i % 2 ? '0,1' : '1,0');
        await rendered;
        await Promise.resolve();   // the observer's records of this render
      } else {
        box.value = i % 2 ? '0.5' : '0';
        box.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((done) => setTimeout(done, 0));
      }
    };
    let mutations = 0;
    const observer = new MutationObserver((records) => { mutations += records.length; });
    observer.observe(root, { childList: true, subtree: true, attributes: true, characterData: true });
    const tenth = n / 10;
    const perTenth = [], work = [];
    let t0 = performance.now(), counted = 0;
    for (let i = 1; i <= n; i++) {
      await change(i);
      if (i % tenth === 0) {
        perTenth.push(performance.now() - t0);
        work.push(mutations - counted);
        t0 = performance.now();
        counted = mutations;
      }
    }
    observer.disconnect();
    return { perTenth, work };
  }, [what, count]);
}

// Makes `changes` changes of `what` (repeatInPage) after `warm` to warm up,
// and checks that they left nothing behind and did the same DOM work per
// tenth at the end as at the start. -> the line to print.
async function expectNoLeakNorSlowing(page, what, { changes, warm, where }) {
  await repeatInPage(page, what, warm);
  const before = await counters(page);
  const { perTenth, work } = await repeatInPage(page, what, changes);
  const afterwards = await counters(page);
  expectNoLeak(before, afterwards, where);
  assert.equal(work.at(-1), work[0], `${where}: the same DOM work per ${changes / 10} changes at the end as at the start: ${work}`);
  return `${changes.toLocaleString('en')} changes (${what}) of ${where}: ms per ${changes / 10} ${perTenth.map((t) => t.toFixed(0)).join(', ')}; `
    + `nodes ${afterwards.nodes}, listeners ${afterwards.listeners}, heap ${(afterwards.heap / 1048576).toFixed(1)} MiB (was ${(before.heap / 1048576).toFixed(1)})`;
}

// Registers the three soaks, each changing `changes` times (a multiple of 20:
// even, so each ends on the value it started from, and in tenths).
export function soakTests(getSession, changes) {
  assert.equal(changes % 20, 0, `soakTests: ${changes} changes is not a multiple of 20`);
  const times = changes.toLocaleString('en');
  const warm = changes / 10;   // every code path once, caches filled, before the first count

  test(`the widget: an attribute set ${times} times neither leaks nor slows`, async () => {
    const session = getSession();
    // The iframe route: one worked-example widget, each change rendered before the next.
    const page = await session.newPage('embed/embed.html?section=worked-example&lang=en', { width: 800, height: 900 });
    await page.waitForSelector('attention-demo[data-ready]', { timeout: 30000 });
    console.log(`  ${await expectNoLeakNorSlowing(page, 'widget attribute', { changes, warm, where: 'the worked-example widget' })}`);
    assert.deepEqual(session.consoleErrors(page), []);
    await page.close();
  });

  test(`every section's widget: its first attribute set ${times} times in a row (renders superseded) leaves nothing behind`, async () => {
    const session = getSession();
    const page = await openWidgets(session);
    // Each section's first parameter that has a default, as text.
    const defaults = Object.fromEntries(sections.map((s) => {
      const codec = codecs[s.id], base = codec.fromState(codec.defaults());
      const name = codec.names.find((n) => base[n] !== undefined);
      return [s.id, [name, codec.fields[name].format(base[name])]];
    }));
    const cycle = (n) => page.evaluate(async ([all, count]) => {
      const widgets = [...document.querySelectorAll('attention-demo')];
      for (let i = 1; i <= count; i++) {
        for (const el of widgets) {
          const [name, value] = all[el.getAttribute('section')];
          el.setAttribute(name, i % 2 ? '<img src=x onerror="window.__pwned=6">' : value);   // ends on the default
        }
        await new Promise((done) => setTimeout(done, 0));
      }
      const rendered = widgets.map((el) => new Promise((done) => el.addEventListener('attention-ready', done, { once: true })));
      for (const el of widgets) el.setAttribute('lang', 'ko');   // one more render of each, from the final values
      await Promise.all(rendered);
      for (const el of widgets) el.setAttribute('lang', 'en');
      await Promise.all(widgets.map((el) => new Promise((done) => el.addEventListener('attention-ready', done, { once: true }))));
    }, [defaults, n]);
    await cycle(10);
    const before = await counters(page);
    await cycle(changes);
    const afterwards = await counters(page);
    expectNoLeak(before, afterwards, 'every widget');
    console.log(`  ${times} changes of every widget's first attribute: nodes ${before.nodes} -> ${afterwards.nodes}, `
      + `listeners ${before.listeners} -> ${afterwards.listeners}, heap ${(before.heap / 1048576).toFixed(1)} -> ${(afterwards.heap / 1048576).toFixed(1)} MiB`);
    await expectNothingRan(page, 'superseded renders');
    assert.deepEqual(session.consoleErrors(page), []);
    await page.close();
  });

  test(`the page: a box typed into ${times} times neither leaks nor slows`, async () => {
    const session = getSession();
    const page = await session.newPage('index.html?lang=en', { width: 1280, height: 900 });
    await page.waitForSelector('body[data-ready="en"]', { timeout: 60000 });
    console.log(`  ${await expectNoLeakNorSlowing(page, 'page input', { changes, warm, where: 'the page' })}`);
    assert.deepEqual(session.consoleErrors(page), []);
    await page.close();
  });
}
