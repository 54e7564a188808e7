// End to end: the "Embed this" control of every section (issue 9, "For blog
// authors"). The snippet carries the section's current state; copied to the
// clipboard, pasted into another page, it makes a working widget that shows
// the same numbers: the script tag under the strict Content-Security-Policy,
// and the iframe, which sizes itself to its content with the lines that come
// with it. Both languages: one walkthrough per language, loaded once and
// shared by the tests (each edits a section of its own).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, openSite, openEmbedThis } from './browser.mjs';
import { CONTENT_SECURITY_POLICY } from '../../scripts/lib/serve.mjs';
import { sectionsOf } from '../../web/src/sections/pages.js';

let session;

before(async () => {
  assert.ok(existsSync(join(DIST, 'index.html')), 'dist/index.html is missing: run scripts/build-web.sh first');
  session = await openSite();
  await session.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.url.replace(/\/$/, '') });
});
after(async () => { await session?.close(); });

// The walkthrough in `lang`, loaded on first use and shared by the tests.
const walkthrough = (lang) => session.sharedPage(`index.html?lang=${lang}`);

// Opens a section's "Embed this", copies one snippet with its button, and
// returns the code shown and what the clipboard holds.
async function copySnippet(page, section, kind) {
  await openEmbedThis(page, section);
  const code = await page.locator(`#${section} .embed-block[data-kind="${kind}"] code`).textContent();
  await page.locator(`#${section} button[data-copy="${kind}"]`).click();
  await page.waitForFunction((s) => document.querySelector(`#${s} .embed-status`).textContent !== '', section);
  const status = await page.locator(`#${section} .embed-status`).textContent();
  const clipboard = await page.evaluate(() => navigator.clipboard.readText());
  return { code, clipboard, status };
}

// Serves `html` at a path of the test server (the widget's files come from the same origin).
async function hostPage(html, { csp } = {}) {
  const page = await session.newPage(null, { width: 900, height: 900 });
  const url = `${session.url}host-${Math.random().toString(36).slice(2)}.html`;
  await page.route(url, (route) => route.fulfill({
    status: 200, contentType: 'text/html; charset=utf-8', body: html,
    headers: csp ? { 'Content-Security-Policy': csp } : {},
  }));
  await page.goto(url);
  return page;
}

const weightsOnPage = (page, section) => page.$$eval(`#${section} .heatmap-grid .heatmap-cell`, (els) => els.map((e) => e.textContent));
const weightsInWidget = (page) => page.$eval('attention-demo', (el) => [...el.shadowRoot.querySelectorAll('.heatmap-grid .heatmap-cell')].map((e) => e.textContent));

test('every section has an "Embed this" control, in both languages', async () => {
  for (const [lang, summary, copy] of [['en', 'Embed this', 'Copy'], ['ko', '내 페이지에 넣기', '복사']]) {
    const page = await walkthrough(lang);
    const summaries = await page.$$eval('main > section details.embed-this summary', (els) => els.map((e) => e.textContent.trim()));
    assert.equal(summaries.length, sectionsOf('walkthrough').length);
    for (const s of summaries) assert.ok(s.endsWith(summary), s);
    await page.locator('#sentence details.embed-this summary').click();
    assert.deepEqual(await page.$$eval('#sentence .embed-copy', (els) => els.map((e) => e.textContent.trim())), [copy, copy]);
    assert.deepEqual(session.consoleErrors(page), []);
  }
});

test('the script snippet carries the edited state, copies, and round-trips into a widget under the strict CSP', async () => {
  const page = await walkthrough('en');
  // Mask one more cell: the masking section now has a custom keep-matrix.
  await page.locator('#masking').scrollIntoViewIfNeeded();
  await page.locator('#masking button.heatmap-cell').nth(5 * 4 + 1).click();   // "[PAD]" row, key "am"
  const expected = await weightsOnPage(page, 'masking');
  const { code, clipboard, status } = await copySnippet(page, 'masking', 'script');
  assert.equal(status, 'Copied to the clipboard.');
  assert.equal(clipboard, code);
  assert.match(code, /<attention-demo section="masking" lang="en" mask="[01;]+" row="5"><\/attention-demo>/);

  const host = await hostPage(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A blog</title></head><body><p>My post.</p>\n${clipboard}\n</body></html>`,
    { csp: CONTENT_SECURITY_POLICY });
  await host.waitForSelector('attention-demo[data-ready]', { timeout: 30000 });
  assert.deepEqual(await weightsInWidget(host), expected, 'the widget shows the numbers of the section it was copied from');
  assert.deepEqual(session.consoleErrors(host), []);
  await host.close();
});

test('the iframe snippet round-trips and sizes its frame to the content (no inner scrollbar)', async () => {
  const page = await walkthrough('ko');
  const initial = await page.$$eval('#worked-example .step-weight .step-value', (els) => els.map((e) => e.textContent).join());
  await page.locator('#worked-example input[aria-label="q의 2번째 성분"]').fill('0.5');
  await page.waitForFunction((old) => [...document.querySelectorAll('#worked-example .step-weight .step-value')]
    .map((e) => e.textContent).join() !== old, initial);
  const expected = await page.$$eval('#worked-example .step-weight .step-value', (els) => els.map((e) => e.textContent));
  const { clipboard } = await copySnippet(page, 'worked-example', 'iframe');
  assert.match(clipboard, /embed\.html\?section=worked-example&amp;lang=ko&amp;q=1,0\.5"/);
  const given = Number(clipboard.match(/height:(\d+)px/)[1]);

  const host = await hostPage(`<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>블로그</title></head><body style="margin:0"><div style="width:700px">\n${clipboard}\n</div></body></html>`);
  const frame = host.frameLocator('iframe');
  await frame.locator('attention-demo[data-ready]').waitFor({ timeout: 30000 });
  // The frame takes the height the embed page posts: its content's, so nothing scrolls inside.
  await host.waitForFunction(() => {
    const iframe = document.querySelector('iframe');
    const inner = iframe.contentDocument?.documentElement;
    return inner && Math.abs(iframe.getBoundingClientRect().height - inner.scrollHeight) <= 2;
  }, null, { timeout: 10000 });
  const sizes = await host.evaluate(() => {
    const iframe = document.querySelector('iframe');
    return { frame: iframe.getBoundingClientRect().height, content: iframe.contentDocument.documentElement.scrollHeight };
  });
  console.log(`  iframe: ${given} px in the snippet (measured on the page), ${sizes.frame} px once sized by the listener, content ${sizes.content} px`);
  const inWidget = await frame.locator('attention-demo').evaluate((el) => [...el.shadowRoot.querySelectorAll('.step-weight .step-value')].map((e) => e.textContent));
  assert.deepEqual(inWidget, expected);
  await host.close();
});
