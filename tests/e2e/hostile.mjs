// Hostile inputs (issue 12) for every section of the registry, so that a
// section added later is covered without a change here: script payloads,
// javascript: URLs, long values, NaN, huge numbers, Unicode, the replacement
// patterns $& $' $`. Shared by tests/e2e/hostile-inputs.test.mjs (npm test:
// two rounds, a box of each kind) and tests/stress/hostile.test.mjs (npm run
// test:stress: every round, so that each parameter meets each value, and every
// box), and by the soaks (./soak.mjs).
//
//   const session = await openHostileSite()   the site, with the page's clock and its longest task recorded
//   hostileRoundTests(() => session, { rounds: [0, 1], everyBox: false })   registers three tests
//   await expectNothingRan(page, where)       no hostile value ran or landed in the page as markup
//   await expectAnswers(page, box, where)     typing into `box` paints within RESPONSE_MS
//   const page = await openWidgets(session)   fixtures/all-sections.html, every widget rendered
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { openSite, timeToPaint } from './browser.mjs';
import { sections } from '../../web/src/sections/registry.js';
import { PAGES, PAGE_NAMES, sectionsOf } from '../../web/src/sections/pages.js';
import { decodeSection } from '../../web/src/lib/params.js';

register(new URL('./css-imports.mjs', import.meta.url));   // the codecs' components import CSS
// Each page's file on the site and the sections it shows.
const PAGE_FILES = PAGE_NAMES.map((name) => ({ name, file: name === 'walkthrough' ? 'index.html' : PAGES[name].file, shown: sectionsOf(name) }));
export const codecs = Object.fromEntries(await Promise.all(sections.map(async (s) =>
  [s.id, (await import(`../../web/src/sections/${s.id}/params.js`)).default])));

export const MILLION = '1,'.repeat(500000);   // 10^6 characters
// In a URL: characters that need no percent-encoding (Chromium's URLs end at
// 2 MB). Chromium under Playwright takes 20-45 s here to load any page whose
// URL is 10^6 characters long, a static one without a script too, so the
// rounds carry 10^4 and one load 10^6 (hostile-inputs.test.mjs; what the
// page's own code does with it is timed inside the page: its longest task).
const LONG_URL_VALUE = '1'.repeat(10000);
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
// Rounds 0 .. ALL_ROUNDS - 1: each parameter meets each value, each section's first parameter the long one.
export const ALL_ROUNDS = Math.max(HOSTILE.length, sections.length);
export const RESPONSE_MS = 2000;

// The site, with the page's clock installed (time flows as usual until
// runFor() jumps it) and each page's longest task recorded (window.__longestTask).
export async function openHostileSite() {
  const session = await openSite();
  await session.context.clock.install();
  await session.context.addInitScript(() => {
    window.__longestTask = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longestTask = Math.max(window.__longestTask, entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  return session;
}

// The parameters a page or widget gets in round `r`: every parameter of every
// section a hostile value (rotated so that each meets each value over
// ALL_ROUNDS rounds), and in round r one section's first parameter the long value.
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

// What the codec makes of a section's values: the parameters it rejects.
const rejectedBy = (id, values) => decodeSection(codecs[id], (name) => values[name] ?? null).rejected;

// The section's parameters a notice names (names are whole words: "trials" is not "trials-dk").
const namedIn = (notice, id) => codecs[id].names.filter((name) =>
  new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(notice));

// Nothing ran and nothing was inserted, in the document and in every shadow root.
export async function expectNothingRan(page, where) {
  const report = await page.evaluate(() => {
    // The page's content, and each widget's shadow root (a widget's own
    // attributes, in the host page's markup, hold the hostile text as given).
    const widgets = [...document.querySelectorAll('attention-demo')].map((el) => el.shadowRoot);
    const roots = widgets.length ? widgets : [document.querySelector('main')];
    const injected = 'img[src="x"], [onerror], [onload], a[href^="javascript"], main script';
    return {
      pwned: window.__pwned,
      injected: [document, ...widgets].reduce((n, r) => n + r.querySelectorAll(injected).length, 0)
        + widgets.reduce((n, r) => n + r.querySelectorAll('script').length, 0),
      // hostile text may be shown as text (a notice quoting a name); never in an attribute
      markup: roots.some((r) => [...r.querySelectorAll('*')].some((el) =>
        [...el.attributes].some((a) => /__pwned|onerror|javascript:/i.test(`${a.name}=${a.value}`)))),
    };
  });
  assert.deepEqual(report, { pwned: undefined, injected: 0, markup: false }, where);
}

// The page answers: typing into the worked example paints within RESPONSE_MS.
export async function expectAnswers(page, box, where) {
  const ms = await timeToPaint(page, () => box.fill('0.5'));
  assert.ok(ms < RESPONSE_MS, `${where}: an input took ${ms.toFixed(0)} ms to paint`);
  return ms;
}

// The widgets of fixtures/all-sections.html, one per section (checked to be
// the registry's), once every one has rendered.
export async function openWidgets(session) {
  const page = await session.newPage('all-sections.html', { width: 900, height: 900 });
  await page.waitForFunction(() => [...document.querySelectorAll('attention-demo')].every((el) => el.dataset.ready),
    null, { timeout: 60000 });
  assert.deepEqual(await page.$$eval('attention-demo', (els) => els.map((e) => e.getAttribute('section'))),
    sections.map((s) => s.id), 'the fixture holds every section of the registry');
  return page;
}

// The widgets of fixtures/all-sections.html, each given `attributes` (section
// id -> { name: value }) at once; resolves when every widget has rendered them.
async function setWidgetAttributes(page, attributes) {
  return page.evaluate(async (all) => {
    const widgets = [...document.querySelectorAll('attention-demo')];
    const rendered = widgets.map((el) => new Promise((done) => el.addEventListener('attention-ready', done, { once: true })));
    for (const el of widgets) for (const [name, value] of Object.entries(all[el.getAttribute('section')])) el.setAttribute(name, value);
    await Promise.all(rendered);
  }, attributes);
}

// Registers the three tests that put the hostile values everywhere: in the
// page's URL and as widget attributes, round by round (`rounds`: which of
// 0 .. ALL_ROUNDS - 1), and typed into the text boxes (`everyBox`: every box;
// otherwise the first box of each matrix of inputs and every box on its own,
// one of each kind: a matrix's boxes share their code).
export function hostileRoundTests(getSession, { rounds, everyBox }) {
  const which = rounds.length === ALL_ROUNDS ? 'every round' : `rounds ${rounds.join(', ')} of ${ALL_ROUNDS}`;

  test(`the page (${which}): hostile values in every parameter of every section fall back to the defaults with a notice; nothing runs`, async () => {
    const session = getSession();
    const slowest = { answer: 0, task: 0 };
    for (const r of rounds) for (const { file, name, shown } of PAGE_FILES) {
      const values = roundValues(r, LONG_URL_VALUE);
      const lang = r % 2 ? 'ko' : 'en';
      const query = new URLSearchParams({ lang });
      for (const s of shown) for (const [param, value] of Object.entries(values[s.id])) query.set(`${s.id}.${param}`, value);
      const page = await session.newPage(`${file}?${query}`, { width: 1280, height: 900 });
      await page.waitForSelector(`body[data-ready="${lang}"]`, { timeout: 60000 });
      const where = `round ${r}, ${name}`;
      for (const s of shown) {
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
      if (name === 'walkthrough') {
        const box = page.locator('#worked-example input[aria-label]').first();
        slowest.answer = Math.max(slowest.answer, await expectAnswers(page, box, where));
      }
      const task = await page.evaluate(() => window.__longestTask);
      assert.ok(task < RESPONSE_MS, `${where}: the page's longest task took ${task.toFixed(0)} ms`);
      slowest.task = Math.max(slowest.task, task);
      assert.deepEqual(session.consoleErrors(page), [], where);
      await page.close();
    }
    console.log(`  ${rounds.length * PAGE_FILES.length} hostile page loads: slowest answer ${slowest.answer.toFixed(0)} ms, longest task ${slowest.task.toFixed(0)} ms`);
  });

  test(`the page: hostile text typed into ${everyBox ? 'every box' : 'a box of each kind'} of every section; the page answers, shows a message or a number, never NaN`, async () => {
    const session = getSession();
    const typed = ['3.4e38', '1e39', 'NaN', '<img src=x onerror="window.__pwned=4">', MILLION.slice(0, 20000)];
    let boxes = 0, slowest = 0;
    for (const { file, shown } of PAGE_FILES) {
      const page = await session.newPage(`${file}?lang=en`, { width: 1280, height: 900 });
      await page.waitForSelector('body[data-ready="en"]', { timeout: 60000 });
      for (const s of shown) {
        const inputs = page.locator(`#${s.id} input[type="text"], #${s.id} textarea`);
        // A box of each kind: every box on its own, and the first of each matrix of boxes.
        const ofItsKind = await inputs.evaluateAll((els) => els.map((el) => {
          const matrix = el.closest('.matrix-input');
          return !matrix || matrix.querySelector('input[type="text"], textarea') === el;
        }));
        for (let i = 0; i < ofItsKind.length; i++) {
          const box = inputs.nth(i);
          if ((!everyBox && !ofItsKind[i]) || !(await box.isVisible())) continue;
          boxes++;
          const before = await box.inputValue();
          for (const value of typed) {
            const ms = await timeToPaint(page, () => box.fill(value));
            slowest = Math.max(slowest, ms);
            assert.ok(ms < RESPONSE_MS, `${s.id} box ${i}: typing ${value.slice(0, 20)} took ${ms.toFixed(0)} ms to paint`);
            const text = await page.$eval(`#${s.id}`, (el) => el.textContent);
            assert.doesNotMatch(text, /\bNaN\b|Infinity|undefined/, `${s.id} box ${i} after ${value.slice(0, 20)}`);
          }
          await box.fill(before);
        }
      }
      await expectNothingRan(page, `typed, ${file}`);
      assert.deepEqual(session.consoleErrors(page), []);
      await page.close();
    }
    assert.ok(boxes >= 10, `only ${boxes} text boxes found`);
    console.log(`  ${boxes} boxes, ${typed.length} hostile texts each: slowest paint ${slowest.toFixed(0)} ms`);
  });

  test(`the widget (${which}): hostile attributes for every section fall back to the defaults with a notice; nothing runs`, async () => {
    const session = getSession();
    const page = await openWidgets(session);
    let slowest = 0;
    for (const r of rounds) {
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
    console.log(`  ${rounds.length} rounds of hostile attributes on ${sections.length} widgets: slowest round ${slowest} ms`);
    await page.close();
  });
}
