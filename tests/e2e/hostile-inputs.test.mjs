// End to end: the page and the widget under abuse (issue 12), for every
// section of the registry (web/src/sections/registry.js), so a section added
// later is covered without a change here. Hostile values (script payloads,
// javascript: URLs, 10^6-character values, NaN, huge numbers, Unicode, the
// replacement patterns $& $' $`; tests/e2e/hostile.mjs) go into every
// parameter of every section, in the page's URL and as <attention-demo>
// attributes, two rounds of each (npm run test:stress: every round, so that
// each parameter meets each value), and are typed into a box of each kind
// (test:stress: every box); hostile section names go into the widget, and
// malformed hashes into the page's address. Each time: nothing runs and
// nothing is inserted as HTML, the section shows its defaults with a notice
// naming exactly the parameters its codec rejects (computed here with the
// same codec), the address is cleaned back to the defaults, no console error,
// no Content-Security-Policy violation (scripts/lib/browser.mjs), and the page
// answers: an input paints within 2 s. Then the soaks (tests/e2e/soak.mjs):
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
import { expectAnswers, expectNothingRan, hostileRoundTests, openHostileSite, openWidgets } from './hostile.mjs';
import { soakTests } from './soak.mjs';

let session;
before(async () => { session = await openHostileSite(); });
after(async () => { await session?.close(); });

hostileRoundTests(() => session, { rounds: [0, 1], everyBox: false });

test('the page: a value of 10^6 characters in the URL is rejected unread and the page answers', async () => {
  // A value of 10^6 characters: rejected unread (the codecs read at most 2,000)
  // and shortened in the address first thing (lib/params.js); the page then
  // answers within RESPONSE_MS. (Its load is slow in the browser itself:
  // parsing a document whose URL is 10^6 characters long took 3-7 s here
  // before any script of the page ran; the longest task is printed.)
  const page = await session.newPage(null, { width: 1280, height: 900 });
  await page.goto(`${session.url}index.html?lang=en&worked-example.q=${'1'.repeat(1000000)}`, { timeout: 180000 });
  await page.waitForSelector('body[data-ready="en"]', { timeout: 60000 });
  assert.match(await page.$eval('#worked-example .share-notice', (el) => el.textContent), /\bq\b/);
  const task = await page.evaluate(() => window.__longestTask);
  assert.ok(new URL(page.url()).search.length < 100, 'the address no longer holds the 10^6 characters');
  await expectAnswers(page, page.locator('#worked-example input[aria-label]').first(), '10^6 characters');
  await expectNothingRan(page, '10^6 characters');
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
  console.log(`  with a 10^6-character parameter: longest task ${task.toFixed(0)} ms (the document's parsing)`);
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
