// End to end: the page and the widget under abuse (issue 12), for every
// section of the registry (web/src/sections/registry.js), so a section added
// later is covered without a change here. Hostile values (script payloads,
// javascript: URLs, 10^6-character values, NaN, huge numbers, Unicode, the
// replacement patterns $& $' $`) go into every parameter of every section, in
// the page's URL and as <attention-demo> attributes, and are typed into every
// text box; hostile section names go into the widget. Each time: nothing runs
// and nothing is inserted as HTML, the section shows its defaults with a
// notice naming exactly the parameters its codec rejects (computed here with
// the same codec), the address is cleaned back to the defaults, no console
// error, no Content-Security-Policy violation (scripts/lib/browser.mjs), and
// the page answers: an input paints within 2 s. Then the soaks (tests/e2e/soak.mjs):
// setting an attribute (or typing into a box) 100 times neither leaks (DOM
// nodes, event listeners, documents and heap, read through the Chrome DevTools
// Protocol after a garbage collection) nor slows (the same DOM mutations per
// render at the end as at the start); npm run test:stress runs them 1,000 times.
//
// (sharing.test.mjs checks a link restores a reader's edits and the notice's
// language; embed.test.mjs the widget's styles, attributes and the iframe
// route; params.test.js every codec against these values in Node.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSite, timeToPaint } from './browser.mjs';
import { codecs, expectNothingRan, openWidgets } from './hostile.mjs';
import { soakTests } from './soak.mjs';
import { sections } from '../../web/src/sections/registry.js';
import { decodeSection } from '../../web/src/lib/params.js';

const MILLION = '1,'.repeat(500000);   // 10^6 characters
// In a URL: characters that need no percent-encoding (Chromium's URLs end at
// 2 MB). Chromium under Playwright takes 20-45 s here to load any page whose
// URL is 10^6 characters long, a static one without a script too, so the
// rounds carry 10^4 and one load 10^6 (what the page's own code does with it
// is timed inside the page: its longest task).
const LONG_URL_VALUE = '1'.repeat(10000);
const MILLION_URL_VALUE = '1'.repeat(1000000);
const HOSTILE = [
  '<img src=x onerror="window.__pwned=1">',
  '"><script>window.__pwned=2</script>',
  'javascript:window.__pwned=3',
  "$&$'$`$1",
  'NaN',
  '1e308',
  '-99999999999999999999',
  '3.5e38',
  '\uff11,\uff10;\u0663,\u0664',          // full-width and Arabic-Indic digits
  '\u202e1,0\u202c',                      // a right-to-left override
  '\ud83d\ude00;\u00e9\u0301',            // an emoji, a combining accent
];
const RESPONSE_MS = 2000;

let session;
before(async () => {
  session = await openSite();
  await session.context.clock.install();   // time flows as usual until runFor() jumps it
  await session.context.addInitScript(() => {
    window.__longestTask = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longestTask = Math.max(window.__longestTask, entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
});
after(async () => { await session?.close(); });

// The parameters a page or widget gets in round `r`: every parameter of every
// section a hostile value (rotated so that each meets each value), and in
// round r one section's first parameter the 10^6-character value.
function roundValues(r, long = MILLION) {
  const values = {};
  let index = 0;
  sections.forEach((s, k) => {
    values[s.id] = Object.fromEntries(codecs[s.id].names.map((name, i) => {
      const value = k === r % sections.length && i === 0 ? long : HOSTILE[(index + r) % HOSTILE.length];
      index++;
      return [name, value];
    }));
  });
  return values;
}
const ROUNDS = Math.max(HOSTILE.length, sections.length);

// What the codec makes of a section's values: the parameters it rejects.
const rejectedBy = (id, values) => decodeSection(codecs[id], (name) => values[name] ?? null).rejected;

// The section's parameters a notice names (names are whole words: "trials" is not "trials-dk").
const namedIn = (notice, id) => codecs[id].names.filter((name) =>
  new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(notice));

// The page answers: typing into the worked example paints within RESPONSE_MS.
async function expectAnswers(page, box, where) {
  const ms = await timeToPaint(page, () => box.fill('0.5'));
  assert.ok(ms < RESPONSE_MS, `${where}: an input took ${ms.toFixed(0)} ms to paint`);
  return ms;
}

test('the page: hostile values in every parameter of every section fall back to the defaults with a notice; nothing runs', async () => {
  const slowest = { answer: 0, task: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const values = roundValues(r, LONG_URL_VALUE);
    const lang = r % 2 ? 'ko' : 'en';
    const query = new URLSearchParams({ lang });
    for (const s of sections) for (const [name, value] of Object.entries(values[s.id])) query.set(`${s.id}.${name}`, value);
    const page = await session.newPage(`index.html?${query}`, { width: 1280, height: 900 });
    await page.waitForSelector(`body[data-ready="${lang}"]`, { timeout: 60000 });
    const where = `round ${r}`;
    for (const s of sections) {
      const expected = rejectedBy(s.id, values[s.id]);
      const notice = await page.$eval(`#${s.id}`, (el) => el.querySelector('.share-notice')?.textContent ?? '');
      assert.deepEqual(namedIn(notice, s.id), expected, `${where}, ${s.id}: the notice "${notice}" names what the codec rejects`);
      if (expected.length) assert.ok(notice.length > 0 && notice.length < 400, `${where}, ${s.id}: a short notice`);
      assert.doesNotMatch(notice, /onerror|script|javascript|\$&|1,1,1,1/, `${where}, ${s.id}: the notice names, never quotes`);
    }
    await expectNothingRan(page, where);
    // Every pending timer fires (the address's debounce): the address holds nothing but the language.
    await page.clock.runFor(2000);
    await expectNothingRan(page, where);
    assert.equal(new URL(page.url()).search, `?lang=${lang}`, `${where}: the address cleaned of what could not be used`);
    const box = page.locator('#worked-example input[aria-label]').first();
    slowest.answer = Math.max(slowest.answer, await expectAnswers(page, box, where));
    const task = await page.evaluate(() => window.__longestTask);
    assert.ok(task < RESPONSE_MS, `${where}: the page's longest task took ${task.toFixed(0)} ms`);
    slowest.task = Math.max(slowest.task, task);
    assert.deepEqual(session.consoleErrors(page), [], where);
    await page.close();
  }
  // A value of 10^6 characters: rejected unread (the codecs read at most 2,000)
  // and shortened in the address first thing (lib/params.js); the page then
  // answers within RESPONSE_MS. (Its load is slow in the browser itself:
  // parsing a document whose URL is 10^6 characters long took 3-7 s here
  // before any script of the page ran; the longest task is printed.)
  const page = await session.newPage(null, { width: 1280, height: 900 });
  await page.goto(`${session.url}index.html?lang=en&worked-example.q=${MILLION_URL_VALUE}`, { timeout: 180000 });
  await page.waitForSelector('body[data-ready="en"]', { timeout: 60000 });
  assert.match(await page.$eval('#worked-example .share-notice', (el) => el.textContent), /\bq\b/);
  const task = await page.evaluate(() => window.__longestTask);
  assert.ok(new URL(page.url()).search.length < 100, 'the address no longer holds the 10^6 characters');
  await expectAnswers(page, page.locator('#worked-example input[aria-label]').first(), '10^6 characters');
  await expectNothingRan(page, '10^6 characters');
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
  console.log(`  ${ROUNDS} hostile page loads: slowest answer ${slowest.answer.toFixed(0)} ms, longest task ${slowest.task.toFixed(0)} ms; `
    + `with a 10^6-character parameter: longest task ${task.toFixed(0)} ms (the document's parsing)`);
});

test('the page: a malformed or hostile location hash opens the page at the top, without an error', async () => {
  // #%E0%A4%A made decodeURIComponent throw a URIError and the page never finished building (issue 12)
  for (const hash of ['#%E0%A4%A', '#%', '#"><img src=x onerror="window.__pwned=7">', `#${'x'.repeat(100000)}`, '#masking']) {
    const page = await session.newPage(`index.html?lang=en${hash}`, { width: 1280, height: 900 });
    await page.waitForSelector('body[data-ready="en"]', { timeout: 60000 });
    await expectNothingRan(page, hash.slice(0, 20));
    assert.deepEqual(session.consoleErrors(page), [], hash.slice(0, 20));
    await page.close();
  }
});

test('the page: hostile text typed into every box of every section; the page answers, shows a message or a number, never NaN', async () => {
  const page = await session.newPage('index.html?lang=en', { width: 1280, height: 900 });
  await page.waitForSelector('body[data-ready="en"]', { timeout: 60000 });
  const typed = ['3.4e38', '1e39', 'NaN', '<img src=x onerror="window.__pwned=4">', MILLION.slice(0, 20000)];
  let boxes = 0, slowest = 0;
  for (const s of sections) {
    const inputs = page.locator(`#${s.id} input[type="text"]:visible, #${s.id} textarea:visible`);
    const count = await inputs.count();
    for (let i = 0; i < count; i++) {
      boxes++;
      const box = inputs.nth(i);
      const before = await box.inputValue();
      for (const value of typed) {
        const ms = await timeToPaint(page, () => box.fill(value));
        slowest = Math.max(slowest, ms);
        assert.ok(ms < RESPONSE_MS, `${s.id} box ${i}: typing ${value.slice(0, 20)} took ${ms.toFixed(0)} ms to paint`);
        const shown = await page.$eval(`#${s.id}`, (el) => el.textContent);
        assert.doesNotMatch(shown, /\bNaN\b|Infinity|undefined/, `${s.id} box ${i} after ${value.slice(0, 20)}`);
      }
      await box.fill(before);
    }
  }
  assert.ok(boxes >= 10, `only ${boxes} text boxes found`);
  await expectNothingRan(page, 'typed');
  assert.deepEqual(session.consoleErrors(page), []);
  console.log(`  ${boxes} boxes, ${typed.length} hostile texts each: slowest paint ${slowest.toFixed(0)} ms`);
  await page.close();
});

// The widgets of fixtures/all-sections.html (one per section, checked to be
// the registry's), each given `attributes` (section id -> { name: value }) at
// once; resolves when every widget has rendered them.
async function setWidgetAttributes(page, attributes) {
  return page.evaluate(async (all) => {
    const widgets = [...document.querySelectorAll('attention-demo')];
    const rendered = widgets.map((el) => new Promise((done) => el.addEventListener('attention-ready', done, { once: true })));
    for (const el of widgets) for (const [name, value] of Object.entries(all[el.getAttribute('section')])) el.setAttribute(name, value);
    await Promise.all(rendered);
  }, attributes);
}

test('the widget: hostile attributes for every section fall back to the defaults with a notice; nothing runs', async () => {
  const page = await openWidgets(session);
  let slowest = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const values = roundValues(r);
    const t0 = Date.now();
    await setWidgetAttributes(page, values);
    slowest = Math.max(slowest, Date.now() - t0);
    const notices = await page.$$eval('attention-demo', (els) => Object.fromEntries(els.map((el) =>
      [el.getAttribute('section'), el.shadowRoot.querySelector('.share-notice')?.textContent ?? ''])));
    for (const s of sections) {
      const expected = rejectedBy(s.id, values[s.id]);
      assert.deepEqual(namedIn(notices[s.id], s.id), expected, `round ${r}, ${s.id}: "${notices[s.id]}"`);
      if (!expected.length) assert.equal(notices[s.id], '', `round ${r}, ${s.id}: accepted values, no notice`);
      assert.doesNotMatch(notices[s.id], /onerror|script|javascript|\$&|1,1,1,1/);
    }
    await expectNothingRan(page, `widget round ${r}`);
  }
  // Back to the defaults: no attribute, no notice.
  await page.evaluate(async (names) => {
    const widgets = [...document.querySelectorAll('attention-demo')];
    const rendered = widgets.map((el) => new Promise((done) => el.addEventListener('attention-ready', done, { once: true })));
    for (const el of widgets) for (const name of names[el.getAttribute('section')]) el.removeAttribute(name);
    await Promise.all(rendered);
  }, Object.fromEntries(sections.map((s) => [s.id, codecs[s.id].names])));
  assert.equal(await page.$$eval('attention-demo', (els) => els.filter((el) => el.shadowRoot.querySelector('.share-notice')).length), 0);
  assert.deepEqual(session.consoleErrors(page), []);
  console.log(`  ${ROUNDS} rounds of hostile attributes on ${sections.length} widgets: slowest round ${slowest} ms`);
  await page.close();
});

test('the widget: hostile section names and presentation attributes are quoted literally and shortened', async () => {
  const page = await openWidgets(session);
  const el = page.locator('attention-demo').first();
  // Sets the section attribute and waits for the message that shows `start`.
  const message = async (section, start) => {
    await el.evaluate((widget, name) => widget.setAttribute('section', name), section);
    await page.waitForFunction((text) => document.querySelector('attention-demo').shadowRoot
      .querySelector('[role="alert"]')?.textContent.includes(text), start, { timeout: 10000 });
    return el.evaluate((widget) => widget.shadowRoot.querySelector('[role="alert"]').textContent);
  };
  const patterns = await message("no$&such$'section$`", 'no$&such');
  assert.match(patterns, /“no\$&such\$'section\$`”/, `replacement patterns are shown as typed: ${patterns}`);
  const long = await message('y'.repeat(1000000), `${'y'.repeat(40)}\u2026`);
  assert.ok(long.length < 400, `a 10^6-character name is shortened (${long.length} characters)`);
  assert.match(long, /y{40}… \(1,000,000 characters\)/);
  const script = await message('<img src=x onerror="window.__pwned=5">', '<img src=x');
  assert.match(script, /<img src=x onerror/, 'shown as text');
  await expectNothingRan(page, 'section names');
  // Hostile lang and theme: the defaults (the page's language, the reader's scheme).
  await el.evaluate(async (widget) => {
    const rendered = new Promise((done) => widget.addEventListener('attention-ready', done, { once: true }));
    widget.removeAttribute('q');   // (the first widget is the worked example's)
    widget.setAttribute('section', 'worked-example');
    widget.setAttribute('lang', '<script>');
    widget.setAttribute('theme', "javascript:$&");
    await rendered;
  });
  assert.equal(await el.evaluate((widget) => widget.dataset.ready), 'en');
  assert.deepEqual(session.consoleErrors(page), [], 'unknown sections are told in the widget, not in the console');
  await page.close();
});

soakTests(() => session, 100);
