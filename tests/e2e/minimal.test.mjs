// End to end: web/minimal.html, a test page built into build/minimal/ (never
// into dist/) by vite.minimal.config.js (scripts/test-e2e.sh), loads the engine
// in headless Chromium under the site's Content-Security-Policy and shows the
// worked example's output (1.203, 0.797) and the running build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MINIMAL_SITE, openSite } from './browser.mjs';

test('minimal page: the worked example computed by the wasm engine under the CSP', async () => {
  assert.ok(existsSync(join(MINIMAL_SITE, 'minimal.html')),
    `${MINIMAL_SITE}/minimal.html is missing: run \`node_modules/.bin/vite build -c vite.minimal.config.js\` first`);
  const session = await openSite({ dir: MINIMAL_SITE });
  try {
    const page = await session.newPage('minimal.html');
    await page.waitForSelector('#status[data-state="ready"], #status[data-state="error"]', { timeout: 20000 });
    assert.equal(await page.getAttribute('#status', 'data-state'), 'ready', await page.textContent('#status'));
    assert.equal(await page.textContent('#output-0'), '1.203');
    assert.equal(await page.textContent('#output-1'), '0.797');
    const weights = await page.$$eval('#weights td', (cells) => cells.map((c) => c.textContent));
    assert.deepEqual(weights, ['0.401', '0.198', '0.401']);
    // Chromium 156 supports SIMD128, so 'auto' runs the SIMD build.
    assert.match(await page.textContent('#build'), /^simd/);
    // Exactly one .wasm was fetched: only the chosen build is loaded.
    const wasmRequests = session.requests.filter((path) => path.endsWith('.wasm'));
    assert.equal(wasmRequests.length, 1, `wasm requests: ${wasmRequests.join(', ')}`);
    assert.match(wasmRequests[0], /attention-simd/);
    assert.deepEqual(session.consoleErrors(page), []);
  } finally {
    await session.close();
  }
});
