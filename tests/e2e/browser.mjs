// Shared set-up of the end-to-end tests: serve dist/ with the page's CSP and
// drive Debian's Chromium (headless) through playwright-core.
//
//   const session = await openSite();            // serves dist/, launches Chromium
//   const page = await session.newPage('index.html?lang=en', { width: 1280 });
//   ... session.consoleErrors(page) ...; await session.close();
import { chromium } from 'playwright-core';
import { mkdtemp, rm, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from '../../scripts/serve.mjs';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const DIST = join(ROOT, 'dist');
export const SCREENSHOTS = join(ROOT, 'tests', 'e2e', 'screenshots');

const CHROMIUM_ARGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

// Launches Chromium with a fresh profile. `dir` is served over http on
// 127.0.0.1 (null: no server, e.g. for file:// tests).
export async function openSite({ dir = DIST, csp } = {}) {
  const site = dir ? await serve(dir, 0, csp ? { csp } : {}) : null;
  const profile = await mkdtemp(join(tmpdir(), 'attn-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const errors = new Map();  // page -> messages

  return {
    url: site?.url,
    requests: site?.requests ?? [],
    context,
    // Opens `path` (relative to the served root, or an absolute URL) at the
    // given viewport and records console errors, page errors and CSP reports.
    async newPage(path = '', { width = 1280, height = 900 } = {}) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height });
      const list = [];
      errors.set(page, list);
      page.on('console', (msg) => { if (msg.type() === 'error') list.push(msg.text()); });
      page.on('pageerror', (err) => list.push(String(err)));
      page.on('requestfailed', (req) => list.push(`request failed: ${req.url()}`));
      if (path !== null) await page.goto(/^[a-z]+:/.test(path) ? path : site.url + path);
      return page;
    },
    consoleErrors(page) { return errors.get(page) ?? []; },
    async screenshot(page, name) {
      await mkdir(SCREENSHOTS, { recursive: true });
      const file = join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await context.close();
      site?.server.close();
      await rm(profile, { recursive: true, force: true });
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
