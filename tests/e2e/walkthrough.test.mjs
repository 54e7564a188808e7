// End to end: the walkthrough page as a whole (dist/index.html, built by `vite
// build`) in headless Chromium under the site's Content-Security-Policy, driven
// by the section registry: every section is on the page in reading order with
// its link in the table of contents, its text complete in both languages, its
// formulas as MathML and its numbers computed (no NaN); the language switch
// changes the text without a reload and keeps the reader's results. What a
// reader does in each section is in sections.test.mjs (the screenshots of
// each section: tests/stress/screenshots.test.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, ROOT, openSite, addTestStyles } from './browser.mjs';
import { sectionsOf } from '../../web/src/sections/pages.js';

// The walkthrough's sections (the second page's: learns.test.mjs).
const IDS = sectionsOf('walkthrough').map((s) => s.id);
let session;

// Sections whose page shows formulas: a formula module, or TeX in their text.
const hasMath = (id) => existsSync(join(ROOT, 'web', 'src', 'sections', id, 'formulas.tex.js'))
  || /\$/.test(readFileSync(join(ROOT, 'web', 'src', 'i18n', 'en', `${id}.js`), 'utf8'));

async function open(path, width = 1280) {
  const page = await session.newPage(path, { width, height: 900 });
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  return page;
}
const texts = (page, selector) => page.$$eval(selector, (els) => els.map((e) => e.textContent.trim()));
// Lays out every section (off-screen ones are skipped with content-visibility: auto).
const renderAll = (page) => addTestStyles(page, '.section { content-visibility: visible !important; }');

// What every section must show, in one language: present once, in the order of
// the registry, linked from the table of contents, no missing string, no NaN.
async function checkEverySection(page, lang) {
  assert.deepEqual(await page.$$eval('main section.section', (els) => els.map((e) => e.id)), IDS, 'sections in reading order');
  assert.deepEqual(await page.$$eval('nav.toc a', (els) => els.map((a) => a.getAttribute('href'))), IDS.map((id) => `#${id}`),
    'the table of contents links every section in order');
  await page.$$eval('main details.table-alt', (list) => list.forEach((d) => { d.open = true; }));
  for (const id of IDS) {
    const content = await page.$eval(`section#${id}`, (el) => el.textContent);
    assert.ok(!content.includes('\u27e6'), `#${id} (${lang}) has no missing string: ${content.match(/\u27e6[^\u27e7]*\u27e7/)?.[0]}`);
    assert.ok(!content.includes('{\u00a7'), `#${id} (${lang}): every {\u00a7section} reference is numbered`);
    if (lang === 'ko') assert.match(content, /[\uac00-\ud7a3]/, `#${id} is in Korean`);
    const numbers = await texts(page, `section#${id} td.num, section#${id} .heatmap-cell, section#${id} .cv-entry`);
    assert.equal(numbers.filter((n) => /NaN/.test(n)).length, 0, `#${id}: no NaN in any number`);
    if (hasMath(id)) assert.ok(await page.locator(`section#${id} math`).count() > 0, `#${id} shows its formulas as MathML`);
  }
}

before(async () => {
  assert.ok(existsSync(join(DIST, 'index.html')), 'dist/index.html is missing: run `npm run build` first');
  session = await openSite();
});
after(async () => { await session?.close(); });

test('every section of the registry, in English: in order, in the table of contents, complete, computed', async () => {
  const page = await open('index.html?lang=en');
  await checkEverySection(page, 'en');
  assert.match(await page.textContent('#engine-status'), /SIMD/);
  assert.ok(await page.locator('math').count() > 10, 'formulas are MathML');
  assert.ok((await texts(page, 'main td.num, main .heatmap-cell, main .cv-entry')).length > 300);
  await renderAll(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `1280 px: the page scrolls sideways by ${overflow}px`);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('every section in Korean; the switch to English changes the text without reloading and keeps the results', async () => {
  const page = await open('index.html?lang=ko');
  assert.equal(await page.getAttribute('html', 'lang'), 'ko');
  assert.match(await page.textContent('h1'), /어텐션/);
  assert.match(await page.textContent('#worked-example h2'), /소프트맥스/);
  assert.match(await page.textContent('#scaling-title'), /나누는가/);
  await page.waitForSelector('#scaling-sweep[data-run]', { timeout: 30000 });
  await checkEverySection(page, 'ko');
  assert.deepEqual(session.consoleErrors(page), []);

  await page.evaluate(() => { window.__noReload = true; });
  await page.getByRole('textbox', { name: 'q의 2번째 성분' }).fill('1');   // an edit survives the switch
  const sweep = await page.textContent('#scaling-sweep tbody');
  await page.click('.lang-switch button[data-lang="en"]');
  await page.waitForSelector('body[data-ready="en"]');
  assert.equal(await page.evaluate(() => window.__noReload), true, 'no reload');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.match(await page.textContent('h1'), /Attention, computed/);
  assert.match(await page.textContent('#worked-example h2'), /Score, softmax, mix/);
  await page.waitForFunction(() => /Why divide/.test(document.querySelector('#scaling-title').textContent));
  assert.match(page.url(), /lang=en/);
  assert.equal(await page.getByRole('textbox', { name: 'q, component 2' }).inputValue(), '1');
  assert.equal(await page.textContent('#scaling-sweep tbody'), sweep, 'the sweep is not recomputed on a language switch');
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});
