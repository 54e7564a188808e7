// End to end: the Content-Security-Policy the site ships (issue 12, item 6).
// Every HTML page in dist/ carries its policy as the first element of its
// <head>, so that any static host enforces it: the site's policy
// (web/vite-plugins/content-security-policy.js, no 'unsafe-inline') in
// index.html and embed/embed.html, and in the single file a policy that
// allows exactly its inline script and style by their SHA-256 hashes. Each
// page opens, computes and meets no violation of its policy, also served with
// no header at all (the <meta> alone, as on a host that sends none). Every
// other end-to-end test also fails on a violation (scripts/lib/browser.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, openSite } from './browser.mjs';
import { SITE_POLICY } from '../../web/vite-plugins/content-security-policy.js';

const pages = readdirSync(DIST, { recursive: true }).filter((f) => f.endsWith('.html')).map((f) => join(DIST, f));
const policyOf = (html) => html.match(/<head>\s*<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)?.[1];
const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

let session;
before(async () => { session = await openSite({ csp: null }); });   // no header: the pages' <meta> alone
after(async () => { await session?.close(); });

test('every page in dist/ carries its policy first in <head>; none allows inline code', () => {
  assert.deepEqual(pages.map((p) => relative(DIST, p)).sort(), ['attention.html', 'embed/embed.html', 'index.html', 'learns.html']);
  for (const file of pages) {
    const html = readFileSync(file, 'utf8');
    const policy = policyOf(html);
    assert.ok(policy, `${relative(DIST, file)}: no Content-Security-Policy <meta> first in <head>`);
    assert.doesNotMatch(policy, /'unsafe-inline'|'unsafe-eval'/);
    assert.match(policy, /worker-src 'self'/);
    if (!file.endsWith('attention.html')) {
      assert.equal(policy, SITE_POLICY, relative(DIST, file));
      continue;
    }
    // the single file: its inline script and style, by hash
    const script = html.match(/<script type="module">([\s\S]*)<\/script>\s*<style>/)[1];
    const style = html.match(/<\/script>\s*<style>([\s\S]*?)<\/style>/)[1];
    assert.match(policy, new RegExp(`script-src ${sha256(script).replace(/[+/=]/g, '\\$&')} 'wasm-unsafe-eval'`));
    assert.match(policy, new RegExp(`style-src ${sha256(style).replace(/[+/=]/g, '\\$&')};`));
  }
});

test('each page computes under its <meta> policy alone, without a violation', async () => {
  const served = [['index.html?lang=en', 'body[data-ready]'], ['embed/embed.html?section=masking', 'attention-demo[data-ready]']];
  for (const [path, ready] of served) {
    const page = await session.newPage(path, { width: 1280, height: 900 });
    await page.waitForSelector(ready, { timeout: 30000 });
    assert.ok(await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]') !== null));
    assert.deepEqual(session.consoleErrors(page), [], path);
    await page.close();
  }
  const page = await session.newPage(`${pathToFileURL(join(DIST, 'attention.html')).href}?lang=ko`);
  await page.waitForSelector('body[data-ready="ko"]', { timeout: 30000 });
  assert.deepEqual(await page.$$eval('#worked-example .step-weight .step-value', (e) => e.map((x) => x.textContent)),
    ['0.401', '0.198', '0.401']);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
  assert.deepEqual(session.policyViolations(), []);
});
