// Headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core) on
// a site served with the page's CSP: shared by the end-to-end tests
// (tests/e2e/browser.mjs adds their helpers) and the size report. close()
// throws if any page met a Content-Security-Policy violation.
//
//   const session = await openSite({ roots: ['dist'] });   // serves dist/, launches Chromium
//   const page = await session.newPage('index.html?lang=en', { width: 1280 });
//   ... session.consoleErrors(page) ...; await session.close();
import { chromium } from 'playwright-core';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from './serve.mjs';

const CHROMIUM_ARGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

// Launches Chromium with a fresh profile. `roots` (folders, looked up in order)
// are served over http on 127.0.0.1; none: no server (e.g. for file:// pages).
// `reducedMotion: 'reduce'`: every page prefers reduced motion (no CSS transitions).
// `csp`: the policy the server sends as a header (default: the site's; null: none).
export async function openSite({ roots = [], csp, reducedMotion } = {}) {
  const site = roots.length ? await serve(roots, 0, csp === undefined ? {} : { csp }) : null;
  const profile = await mkdtemp(join(tmpdir(), 'attn-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    ...(reducedMotion ? { reducedMotion } : {}),
  });
  const errors = new Map();  // page -> messages
  // Every Content-Security-Policy violation in any page or frame of the
  // session (the site's policy: each page's <meta>, and the server's header).
  // close() fails if there was one: every end-to-end test runs under the
  // shipped policy and fails on any violation.
  const violations = [];
  await context.exposeBinding('__attnPolicyViolation', ({ frame }, text) => {
    violations.push(`${frame.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__attnPolicyViolation?.(`${e.effectiveDirective} refused ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber} ${(e.sample || '').slice(0, 80)}`);
    }, true);
  });

  return {
    url: site?.url,
    requests: site?.requests ?? [],
    context,
    // Opens `path` (relative to the served root, or an absolute URL; null: no
    // navigation) at the given viewport and records console errors, page errors
    // and failed requests.
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
    policyViolations() { return [...violations]; },
    async close() {
      await context.close();
      site?.server.close();
      await rm(profile, { recursive: true, force: true });
      if (violations.length > 0) {
        throw new Error(`${violations.length} Content-Security-Policy violation(s):\n  ${violations.slice(0, 10).join('\n  ')}`);
      }
    },
  };
}
