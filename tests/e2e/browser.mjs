// Shared set-up of the end-to-end tests: the built site (dist/) and the test
// fixtures (tests/e2e/fixtures/: pages that embed the widgets, served next to
// the site but never copied into it), served with the page's CSP, in Debian's
// Chromium (scripts/lib/browser.mjs).
//
//   const session = await openSite();            // serves dist/ + fixtures, launches Chromium
//   const page = await session.newPage('index.html?lang=en', { width: 1280 });
//   ... session.consoleErrors(page) ...; await session.close();
//   const shared = await session.sharedPage('index.html?lang=ko', { width: 375 });   // loaded once per file
import { mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { openSite as openChromium } from '../../scripts/lib/browser.mjs';

export const ROOT = resolve(import.meta.dirname, '..', '..');
// ATTN_E2E_DIST: another build of the site to test.
export const DIST = process.env.ATTN_E2E_DIST ?? join(ROOT, 'dist');
export const FIXTURES = join(ROOT, 'tests', 'e2e', 'fixtures');
// web/minimal.html, built by vite.minimal.config.js (a test page, never in dist/).
export const MINIMAL_SITE = join(ROOT, 'build', 'minimal');
export const SCREENSHOTS = join(ROOT, 'tests', 'e2e', 'screenshots');

const SCREENSHOT_PART = 40000;   // px of page per JPEG

// Launches Chromium with a fresh profile. `dir` (default dist/) is served over
// http on 127.0.0.1 together with the fixtures; `dir: null`: no server (file:// pages).
// `reducedMotion: 'reduce'`: no CSS transitions (what axe and focus screenshots see is final).
export async function openSite({ dir = DIST, csp, reducedMotion } = {}) {
  const session = await openChromium({ roots: dir ? [dir, FIXTURES] : [], csp, reducedMotion });
  const shared = new Map();   // path and size -> the page's promise
  return {
    ...session,
    // `path` at that size, loaded on the first call and ready (`ready` is in
    // it), then the same page on every call: for the tests of a file that only
    // read the page, or put back what they change, so that they share one
    // load. Never closed by a test; session.close() closes it. Each call
    // brings it to the front: a page behind another gets no animation frames
    // (Playwright's every action then waits about a second) and no clipboard.
    async sharedPage(path, { width = 1280, height = 900, ready = 'body[data-ready]' } = {}) {
      const key = `${path} ${width}x${height}`;
      if (!shared.has(key)) {
        shared.set(key, session.newPage(path, { width, height }).then(async (page) => {
          await page.waitForSelector(ready, { timeout: 30000 });
          return page;
        }));
      }
      const page = await shared.get(key);
      await page.bringToFront();
      return page;
    },
    // The whole page, as JPEG (a page 66,000 px long took 3.6-5 s to encode as
    // PNG, 1.8 s as JPEG), in parts of at most SCREENSHOT_PART px: a JPEG is at
    // most 65,535 px high, and Chromium writes an empty file for a taller page
    // (the English walkthrough at 375 px is 68,152 px). Returns the files written.
    async screenshot(page, name) {
      await mkdir(SCREENSHOTS, { recursive: true });
      const { width, height } = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }));
      const parts = Math.ceil(height / SCREENSHOT_PART);
      const files = [];
      for (let i = 0; i < parts; i++) {
        const file = join(SCREENSHOTS, parts === 1 ? `${name}.jpg` : `${name}-${i + 1}.jpg`);
        const clip = { x: 0, y: i * SCREENSHOT_PART, width, height: Math.min(SCREENSHOT_PART, height - i * SCREENSHOT_PART) };
        await page.screenshot({ path: file, fullPage: true, clip, type: 'jpeg', quality: 85 });
        if ((await stat(file)).size === 0) throw new Error(`screenshot ${file}: an empty file (${clip.width} x ${clip.height} px)`);
        files.push(file);
      }
      return files;
    },
  };
}

// Time from an input action to the next painted frame, in ms: runs `act`,
// then waits for two animation frames in the page (the update has painted).
export async function timeToPaint(page, act) {
  await page.evaluate(() => { window.__attnT0 = performance.now(); });
  await act();
  return page.evaluate(() => new Promise((done) =>
    requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - window.__attnT0)))));
}

// Opens section `id`'s "Embed this" and waits for its code: the panel writes
// the code on the details' toggle event, which the browser fires in a task after
// the click, so reading at once can find it empty (it did once in CI).
export async function openEmbedThis(page, id) {
  await page.locator(`#${id} details.embed-this summary`).click();
  await page.waitForFunction((s) => [...document.querySelectorAll(`#${s} .embed-code-text`)].every((c) => c.textContent !== ''), id);
}

// Puts the walkthrough's worked example back to its defaults (q, the keys, the
// scaling) with its Reset button (\u21ba), in either language.
export function resetWorkedExample(page) {
  return page.locator('#worked-example .controls-row button.btn', { hasText: '\u21ba' }).click();
}

// Adds `css` to the page for a test, as a constructable stylesheet: the site's
// Content-Security-Policy (style-src 'self') refuses an inline <style> such as
// page.addStyleTag({ content }) adds.
export function addTestStyles(page, css) {
  return page.evaluateHandle((text) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return sheet;
  }, css);
}

// Takes back a sheet of addTestStyles (its returned handle).
export function removeTestStyles(sheetHandle) {
  return sheetHandle.evaluate((sheet) => {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
  });
}


// While the page works in the background (workers training): the median of
// `samples` times from a click in the page (no round trip to the test) on
// `selector` to two animation frames later, in ms, `gapMs` apart. The median:
// on a loaded machine one sample can wait for a core.
export async function medianClickToPaint(page, selector, { samples = 5, gapMs = 150 } = {}) {
  const times = await page.evaluate(async ({ selector, samples, gapMs }) => {
    const out = [];
    for (let i = 0; i < samples; i++) {
      out.push(await new Promise((done) => {
        const t0 = performance.now();
        document.querySelector(selector).click();
        requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0)));
      }));
      await new Promise((r) => setTimeout(r, gapMs));
    }
    return out;
  }, { selector, samples, gapMs });
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}
