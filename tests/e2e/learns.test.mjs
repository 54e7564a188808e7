// End to end: the second page, "How attention learns" (dist/learns.html, issue
// 23), in headless Chromium under the site's Content-Security-Policy, in both
// languages at 375 and 1280 px: its hero and its own table of contents (its
// sections, numbered from 1, in the registry's order: src/sections/pages.js),
// the links between the two pages, no sideways scroll, axe clean, no console
// error. The page is loaded once per language and width (session.sharedPage);
// the tests of the page's sections, which train, come below or in files of their
// own (tests/e2e/learns-<id>.test.mjs), sharing those loads where they only read.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, openSite, addTestStyles } from './browser.mjs';
import { axeViolations, describeViolations } from './a11y.mjs';
import { sectionsOf } from '../../web/src/sections/pages.js';
import en from '../../web/src/i18n/en/common.js';
import ko from '../../web/src/i18n/ko/common.js';

const COMMON = { en, ko };
const IDS = sectionsOf('learns').map((s) => s.id);
const WALKTHROUGH_IDS = sectionsOf('walkthrough').map((s) => s.id);
let session;

before(async () => {
  assert.ok(existsSync(join(DIST, 'learns.html')), 'dist/learns.html is missing: run `npm run build` first');
  session = await openSite();
});
after(async () => { await session?.close(); });

const learns = (lang, width) => session.sharedPage(`learns.html?lang=${lang}`, { width });
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

for (const lang of ['en', 'ko']) {
  for (const width of [375, 1280]) {
    test(`learns.html (${lang}, ${width} px): its hero, its contents, the link to the walkthrough; no sideways scroll, axe clean`, async () => {
      const page = await learns(lang, width);
      const c = COMMON[lang];
      assert.equal(await page.getAttribute('html', 'lang'), lang);
      assert.equal(await page.getAttribute('body', 'data-page'), 'learns');
      assert.equal(await page.title(), c.pages.learns.meta.title);
      assert.equal((await page.textContent('h1')).trim(), c.pages.learns.title);
      // Its own sections, in the registry's order, numbered from 1; none of the walkthrough's.
      assert.deepEqual(await page.$$eval('main section.section', (els) => els.map((e) => e.id)), IDS);
      assert.deepEqual(await page.$$eval('nav.toc a', (els) => els.map((a) => a.getAttribute('href'))), IDS.map((id) => `#${id}`));
      assert.deepEqual(await page.$$eval('nav.toc .toc-num', (els) => els.map((e) => e.textContent)), IDS.map((_, i) => String(i + 1)));
      assert.deepEqual(await page.$$eval('main .section-number', (els) => els.map((e) => e.textContent)), IDS.map((_, i) => String(i + 1)));
      if (IDS.length === 0) assert.equal((await page.textContent('main')).trim(), c.pageEmpty, 'a page without sections says so');
      for (const id of IDS) {
        const content = await page.$eval(`section#${id}`, (el) => el.textContent);
        assert.ok(!content.includes('\u27e6'), `#${id} (${lang}) has no missing string: ${content.match(/\u27e6[^\u27e7]*\u27e7/)?.[0]}`);
        assert.ok(!content.includes('{\u00a7'), `#${id} (${lang}): every {\u00a7section} reference is numbered`);
        if (lang === 'ko') assert.match(content, /[\uac00-\ud7a3]/, `#${id} is in Korean`);
      }
      // The links between the pages: this one is current, the walkthrough's keeps the language.
      const links = await page.$$eval('nav.page-links a', (els) => els.map((a) => ({ text: a.textContent, href: a.getAttribute('href'), current: a.getAttribute('aria-current') })));
      assert.deepEqual(links, [
        { text: c.pages.walkthrough.name, href: `./?lang=${lang}`, current: null },
        { text: c.pages.learns.name, href: '#main', current: 'page' },
      ]);
      // The hero's link to the walkthrough, and no link on the page to a section it does not hold.
      const hrefs = await page.$$eval('a[href]', (els) => els.map((a) => a.getAttribute('href')));
      for (const href of hrefs.filter((h) => h.startsWith('#'))) {
        assert.ok(href === '#main' || IDS.includes(href.slice(1)), `${href} points to a section of this page`);
      }
      assert.ok(hrefs.includes(`./?lang=${lang}`), 'the hero links to the walkthrough');
      for (const href of hrefs.filter((h) => h.startsWith('./?'))) {
        const hash = href.split('#')[1];
        if (hash) assert.ok(WALKTHROUGH_IDS.includes(hash), `${href} points to a section of the walkthrough`);
      }

      const sheet = await addTestStyles(page, '.section { content-visibility: visible !important; }');
      assert.ok(await sideways(page) <= 0, `the page scrolls sideways by ${await sideways(page)}px`);
      const serious = await axeViolations(page);
      assert.equal(serious.length, 0, `learns ${lang} ${width}:\n${describeViolations(serious)}`);
      await sheet.evaluate((s) => { document.adoptedStyleSheets = document.adoptedStyleSheets.filter((x) => x !== s); });
      assert.deepEqual(session.consoleErrors(page), []);
    });
  }
}

test('the walkthrough links to this page in its header and its hero; the link keeps the language and opens it', async () => {
  const page = await session.newPage('index.html?lang=ko', { width: 375, height: 900 });
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  const link = page.locator('nav.page-links a', { hasText: ko.pages.learns.name });
  assert.equal(await link.getAttribute('href'), 'learns.html?lang=ko');
  assert.equal(await page.getAttribute('nav.page-links a[aria-current="page"]', 'href'), '#main');
  assert.ok(await page.locator('.hero a[href="learns.html?lang=ko"]').count() === 1, 'the hero names the second page');
  await link.click();
  await page.waitForSelector('body[data-page="learns"][data-ready="ko"]', { timeout: 30000 });
  assert.equal((await page.textContent('h1')).trim(), ko.pages.learns.title);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

// The seed box (components/seed-control.js, on both pages): a refused entry is told in words, the range
// of a seed, and the last valid seed stays in use; a valid one hides the words again.
for (const lang of ['en', 'ko']) {
  test(`a seed box refuses a negative and a huge number in words (${lang}), and keeps the last valid seed`, async () => {
    const page = await learns(lang, 375);
    const box = page.locator('#bottleneck .seed-input');
    const error = page.locator('#bottleneck .seed-error');
    const expected = COMMON[lang].seedInvalid.replace('{max}', '999999');
    for (const value of ['-5', '1e400']) {
      await box.fill(value);
      await box.press('Enter');
      assert.equal(await box.getAttribute('aria-invalid'), 'true', value);
      assert.equal(await error.isVisible(), true, `${value}: the words are shown`);
      assert.equal((await error.textContent()).trim(), expected);
      assert.match(new URL(page.url()).search, /^(?!.*bottleneck\.seed=)/, `${value} is not put in the address`);
    }
    await box.fill('7');
    await box.press('Enter');
    assert.equal(await box.getAttribute('aria-invalid'), 'false');
    assert.equal(await error.isVisible(), false);
    await box.fill('1');
    await box.press('Enter');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0, 'no sideways scroll with the words shown');
  });
}
