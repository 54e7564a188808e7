// Stress: the screenshot matrix, written to tests/e2e/screenshots/ to be looked
// at by a person (not compared; npm test takes none):
// - the whole walkthrough, reader-<lang>-<width>-<scheme>[-part].jpg, in four
//   of the eight combinations of width (375, 1280 px), language (ko, en) and
//   colour scheme (light, dark), chosen so that any two settings appear
//   together in all four of their pairs (375 px in dark, 375 px in Korean,
//   Korean in light, ...), at half the cost of all eight: a page of
//   42,000-66,000 px takes 7-8 s to lay out and encode;
// - each section in the walkthrough's widest states after a benchmark run
//   (tests/e2e/widest-states.mjs), section-<id>-<lang>-<scheme>-<width>.png:
//   English in light and Korean in dark at 375 px, English in light at 1280 px;
// - the blog post with its three widgets, blog-<scheme>-<width>.jpg, and every
//   section as a widget, widgets-all-sections-<scheme>-375.jpg.
// Reduced motion: no CSS transition is caught half way.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DIST, SCREENSHOTS, openSite, addTestStyles } from '../e2e/browser.mjs';
import { showWidestStates } from '../e2e/widest-states.mjs';
import { sectionsOf } from '../../web/src/sections/pages.js';

let session;
before(async () => {
  assert.ok(existsSync(join(DIST, 'embed', 'attention-embed.js')), 'dist is missing: run `npm run build` first');
  session = await openSite({ reducedMotion: 'reduce' });
  await mkdir(SCREENSHOTS, { recursive: true });
});
after(async () => { await session?.close(); });

// Opens `path` at `width` px in a colour scheme and waits for `ready`.
async function openAt(path, { width, colorScheme }, ready = 'body[data-ready]') {
  const page = await session.newPage(null, { width, height: 900 });
  await page.emulateMedia({ colorScheme });
  await page.goto(session.url + path);
  await page.waitForSelector(ready, { timeout: 30000 });
  return page;
}

const READER_PAIRS = [['ko', 375, 'dark'], ['ko', 1280, 'light'], ['en', 375, 'light'], ['en', 1280, 'dark']];

test('the whole walkthrough at 375 and 1280 px, ko and en, light and dark (each pair of these)', async () => {
  for (const [lang, width, colorScheme] of READER_PAIRS) {
    const page = await openAt(`index.html?lang=${lang}`, { width, colorScheme });
    // Lays out every section (off-screen ones are skipped with content-visibility: auto).
    await addTestStyles(page, '.section { content-visibility: visible !important; }');
    await session.screenshot(page, `reader-${lang}-${width}-${colorScheme}`);
    assert.deepEqual(session.consoleErrors(page), []);
    await page.close();
  }
});

for (const [lang, width, colorScheme] of [['en', 375, 'light'], ['ko', 375, 'dark'], ['en', 1280, 'light']]) {
  test(`each section in its widest state after a run (${lang}, ${colorScheme}, ${width} px)`, async () => {
    const page = await openAt(`index.html?lang=${lang}`, { width, colorScheme });
    await showWidestStates(page);
    for (const { id } of sectionsOf('walkthrough')) {
      const el = page.locator(`section#${id}`);
      await el.scrollIntoViewIfNeeded();
      await el.screenshot({ path: join(SCREENSHOTS, `section-${id}-${lang}-${colorScheme}-${width}.png`) });
    }
    assert.deepEqual(session.consoleErrors(page), []);
    await page.close();
  });
}

test('the blog post (light and dark at 375 px, light at 1280 px) and every section as a widget (375 px)', async () => {
  for (const [width, colorScheme] of [[375, 'light'], [375, 'dark'], [1280, 'light']]) {
    const page = await openAt('blog.html', { width, colorScheme }, '#demo-mask[data-ready]');
    await page.waitForSelector('#demo-worked[data-ready]', { timeout: 30000 });
    await page.frameLocator('#demo-frame').locator('attention-demo[data-ready]').waitFor({ timeout: 30000 });
    await session.screenshot(page, `blog-${colorScheme}-${width}`);
    assert.deepEqual(session.consoleErrors(page), []);
    await page.close();
  }
  for (const colorScheme of ['light', 'dark']) {
    const page = await openAt('all-sections.html', { width: 375, colorScheme }, 'attention-demo[data-ready]');
    await page.waitForFunction(() => [...document.querySelectorAll('attention-demo')].every((el) => el.dataset.ready
      && !el.shadowRoot.querySelector('[aria-busy="true"]')), null, { timeout: 60000 });
    await session.screenshot(page, `widgets-all-sections-${colorScheme}-375`);
    assert.deepEqual(session.consoleErrors(page), []);
    await page.close();
  }
});
