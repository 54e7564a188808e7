// End to end: embedding. A sample blog post (tests/e2e/fixtures/blog.html,
// served next to dist/ with the site's CSP) embeds the worked example and the
// masking demo through the script tag and multi-head attention through the
// iframe route. All three render and compute; each document fetches the .wasm
// once and only the sections it shows; styles neither leak in nor out;
// attributes update a widget; hostile attribute values are shown nowhere; every
// section works as a widget (fixtures/all-sections.html). (axe and the 375 px
// check: accessibility.test.mjs; screenshots: tests/stress/screenshots.test.mjs.)
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, openSite } from './browser.mjs';
import { sections } from '../../web/src/sections/registry.js';

const OTHER_SECTIONS = ['scaling', 'gradients', 'reading-weights', 'sentence', 'cross-attention', 'family', 'learning', 'order', 'cost'];
let session;

before(async () => {
  assert.ok(existsSync(join(DIST, 'embed', 'attention-embed.js')), 'dist/embed is missing: run `npm run build` first');
  session = await openSite();
});
after(async () => { await session?.close(); });

// Opens the blog post and waits until the three widgets have computed.
async function openBlog({ width = 1280, colorScheme = 'light', requests } = {}) {
  const page = await session.newPage(null, { width, height: 900 });
  await page.emulateMedia({ colorScheme });
  if (requests) {
    page.on('request', (r) => requests.push({ main: r.frame() === page.mainFrame(), path: new URL(r.url()).pathname }));
  }
  await page.goto(`${session.url}blog.html`);
  await page.waitForSelector('#demo-worked[data-ready]', { timeout: 30000 });
  await page.waitForSelector('#demo-mask[data-ready]', { timeout: 30000 });
  const frame = page.frameLocator('#demo-frame');
  await frame.locator('attention-demo[data-ready]').waitFor({ timeout: 30000 });
  return { page, frame };
}

const inWidget = (page, id, selector) => page.locator(`#${id}`).locator(selector);
const texts = (locator) => locator.evaluateAll((els) => els.map((e) => e.textContent.trim()));

// The first two tests only read the post: they share one load, its requests recorded from the start.
describe('the blog post, loaded once', () => {
  const requests = [];
  let page;
  let frame;
  before(async () => { ({ page, frame } = await openBlog({ requests })); });
  after(async () => { await page?.close(); });

  test('three widgets render and compute; one .wasm per document; only the sections shown are fetched', async () => {
    // Script tag 1: the worked example, article 001's numbers.
    assert.deepEqual(await texts(inWidget(page, 'demo-worked', '.step-weight .step-value')), ['0.401', '0.198', '0.401']);
    assert.deepEqual(await texts(inWidget(page, 'demo-worked', '.step-mix .step-sum .cv-entry')), ['1.203', '0.797']);
    // A rounded number's tooltip (src/lib/full-value.js) inside the widget's shadow root.
    const weight = inWidget(page, 'demo-worked', '.step-weight .step-value').first();
    await weight.hover();
    assert.equal(await weight.getAttribute('title'), await weight.getAttribute('data-full'));
    assert.match(await weight.getAttribute('title'), /^0\.401\d+/);
    // Script tag 2: the causal mask, in Korean: the 10 cells above the diagonal are masked, weight 0.
    assert.equal(await inWidget(page, 'demo-mask', '.heatmap-cell.is-masked').count(), 10);
    assert.equal(await inWidget(page, 'demo-mask', 'input[type="radio"][value="causal"]').isChecked(), true);
    assert.match(await inWidget(page, 'demo-mask', '.ad-title').textContent(), /마스킹/);
    assert.equal(await page.locator('#demo-mask').evaluate((el) => el.shadowRoot.querySelector('.ad').lang), 'ko');
    // The iframe: multi-head attention with four heads (seed 3).
    assert.equal(await frame.locator('attention-demo input[type="radio"][value="4"]').isChecked(), true);
    assert.equal(await frame.locator('attention-demo .mh-variant:not(.is-stowed) .mh-head').count(), 4);
    assert.match(await frame.locator('attention-demo .mh-seed').textContent(), /3/);

    const wasm = requests.filter((r) => r.path.endsWith('.wasm'));
    assert.equal(wasm.filter((r) => r.main).length, 1, `the blog page fetched the .wasm once: ${JSON.stringify(wasm)}`);
    assert.equal(wasm.filter((r) => !r.main).length, 1, 'the iframe (its own document) fetched it once');
    assert.ok(wasm.every((r) => /attention-simd-[\w-]+\.wasm$/.test(r.path)), 'the SIMD build');
    const mainPaths = requests.filter((r) => r.main).map((r) => r.path);
    for (const id of OTHER_SECTIONS) {
      assert.ok(!mainPaths.some((p) => p.includes(`/assets/${id}-`)), `the blog page did not fetch ${id}`);
    }
    assert.ok(!mainPaths.some((p) => p.includes('/assets/multi-head-')), 'multi-head is only in the iframe');
    assert.deepEqual(session.consoleErrors(page), []);
  });

  test('styles do not leak in or out; the documented custom properties do reach in', async () => {
    const host = await page.locator('#host-panel').evaluate((el) => {
      const s = getComputedStyle(el);
      return { radius: s.borderTopLeftRadius, outline: s.outlineColor, shadow: s.boxShadow };
    });
    assert.equal(host.radius, '0px', 'the widget\'s .panel style does not reach the blog\'s .panel');
    assert.equal(host.shadow, 'none');
    assert.equal(host.outline, 'rgb(255, 0, 0)', 'the blog\'s own style still applies to its element');

    const inside = await page.locator('#demo-worked').evaluate((el) => {
      const root = el.shadowRoot;
      const s = (sel) => getComputedStyle(root.querySelector(sel));
      return {
        panelOutline: s('.panel').outlineStyle,
        panelRadius: s('.panel').borderTopLeftRadius,
        pTransform: s('p').textTransform,
        inputBackground: s('input').backgroundColor,
        tableBorder: s('table').borderTopStyle,
        documentSheets: document.adoptedStyleSheets.length,
      };
    });
    assert.equal(inside.panelOutline, 'none', 'the blog\'s .panel outline does not reach in');
    assert.equal(inside.panelRadius, '16px', 'the widget\'s own panel style applies');
    assert.equal(inside.pTransform, 'none', 'the blog\'s p style does not reach in');
    assert.notEqual(inside.inputBackground, 'rgb(255, 105, 180)', 'the blog\'s !important input style does not reach in');
    assert.notEqual(inside.tableBorder, 'dashed');
    assert.equal(inside.documentSheets, 0, 'the widget adopts no stylesheet into the blog\'s document');
    // --attention-accent: var(--blog-link) (#8a3b00) on the host element reaches the widget's links.
    const link = await page.locator('#demo-worked').evaluate((el) =>
      getComputedStyle(el.shadowRoot.querySelector('.ad')).getPropertyValue('--link').trim());
    assert.match(link, /8a3b00|rgb\(138, 59, 0\)/i, `--link inside the widget is the blog's accent, got ${link}`);
  });
});

test('attributes update a widget: numbers, language, theme; hostile values are only named, never run', async () => {
  const { page } = await openBlog();
  const worked = page.locator('#demo-worked');
  const weights = () => texts(inWidget(page, 'demo-worked', '.step-weight .step-value'));

  await worked.evaluate((el) => el.setAttribute('q', '0,1'));
  await page.waitForFunction(() => document.querySelector('#demo-worked').shadowRoot
    .querySelector('.step-weight .step-value')?.textContent === '0.198');
  assert.deepEqual(await weights(), ['0.198', '0.401', '0.401']);

  // A reader's edit fires attention-change with the attributes that reproduce it.
  const changed = page.evaluate(() => new Promise((done) =>
    document.querySelector('#demo-worked').addEventListener('attention-change', (e) => done(e.detail), { once: true })));
  await inWidget(page, 'demo-worked', 'button[role="switch"]').click();
  assert.deepEqual(await changed, { section: 'worked-example', params: { q: '0,1', scaling: 'off' } });

  // Language: the same inputs, Korean text.
  await worked.evaluate((el) => el.setAttribute('lang', 'ko'));
  // data-ready carries the language of the last finished render (the lang
  // attribute of the body is set before the section has re-rendered).
  await page.waitForSelector('#demo-worked[data-ready="ko"]', { timeout: 10000 });
  assert.match(await inWidget(page, 'demo-worked', '.ad-title').textContent(), /[가-힣]/);
  assert.deepEqual(await weights(), ['0.155', '0.422', '0.422'], 'the edit (scaling off) survives a language change');

  // Theme: forced dark on a light page, forced light on a dark page.
  const background = () => worked.evaluate((el) => getComputedStyle(el.shadowRoot.querySelector('.ad')).backgroundColor);
  assert.equal(await background(), 'rgb(255, 255, 255)');
  await worked.evaluate((el) => el.setAttribute('theme', 'dark'));
  assert.equal(await background(), 'rgb(23, 26, 33)');
  await page.emulateMedia({ colorScheme: 'dark' });
  await worked.evaluate((el) => el.setAttribute('theme', 'auto'));
  assert.equal(await background(), 'rgb(23, 26, 33)', 'auto follows prefers-color-scheme');
  await worked.evaluate((el) => el.setAttribute('theme', 'light'));
  assert.equal(await background(), 'rgb(255, 255, 255)');
  await page.emulateMedia({ colorScheme: 'light' });

  // Hostile values: defaults, a notice naming the attribute, nothing executed or
  // inserted. The widget re-renders once per change of attributes: wait for the
  // attention-ready of the render that read them, then look.
  const rendered = worked.evaluate((el) => new Promise((done) => {
    el.addEventListener('attention-ready', (e) => { if (el.getAttribute('keys')?.includes('onerror')) done(e.detail); });
  }));
  await worked.evaluate((el) => {
    el.setAttribute('lang', 'en');
    el.setAttribute('keys', '<img src=x onerror="window.__pwned=1">');
  });
  assert.deepEqual(await rendered, { section: 'worked-example', lang: 'en', simd: true });
  assert.match(await inWidget(page, 'demo-worked', '.share-notice').textContent(), /\(keys\)/);
  assert.deepEqual(await weights(), ['0.401', '0.198', '0.401'], 'the section\'s defaults');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await worked.evaluate((el) => el.shadowRoot.querySelectorAll('img').length), 0);
  assert.doesNotMatch(await worked.evaluate((el) => el.shadowRoot.innerHTML), /onerror/);

  await worked.evaluate((el) => { el.removeAttribute('keys'); el.setAttribute('section', 'no-such-section'); });
  await page.waitForFunction(() => /no-such-section/.test(document.querySelector('#demo-worked').shadowRoot.textContent));
  await worked.evaluate((el) => el.setAttribute('section', 'sentence'));
  await page.waitForFunction(() => document.querySelector('#demo-worked').shadowRoot.querySelectorAll('.heatmap-cell').length === 25);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('the iframe route under the CSP: parameters as attributes, hostile ones refused', async () => {
  const page = await session.newPage('embed/embed.html?section=worked-example&lang=ko&q=<script>window.__pwned=1</script>&scaling=off', { width: 700 });
  await page.waitForSelector('attention-demo[data-ready]', { timeout: 30000 });
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ko');
  assert.match(await page.locator('attention-demo .share-notice').textContent(), /\(q\)/);
  assert.deepEqual(await texts(page.locator('attention-demo .step-weight .step-value')), ['0.401', '0.198', '0.401'],
    'one bad value: the whole section starts from its defaults');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});

test('every section works as a widget (compact): computed, complete text, no error shown, no console error', async () => {
  const page = await session.newPage('all-sections.html', { width: 900, height: 900 });
  await page.waitForFunction(() => [...document.querySelectorAll('attention-demo')].every((el) => el.dataset.ready),
    null, { timeout: 60000 });
  // The background experiments (section 2) have finished: nothing is dimmed as busy.
  await page.waitForFunction(() => [...document.querySelectorAll('attention-demo')]
    .every((el) => !el.shadowRoot.querySelector('[aria-busy="true"]')), null, { timeout: 60000 });
  const report = await page.$$eval('attention-demo', (els) => els.map((el) => ({
    section: el.getAttribute('section'),
    numbers: el.shadowRoot.querySelectorAll('td.num, .heatmap-cell, .cv-entry, .step-value').length,
    missing: /\u27e6/.test(el.shadowRoot.textContent),
    errors: el.shadowRoot.querySelectorAll('[role="alert"]').length,
  })));
  assert.deepEqual(report.map((r) => r.section), sections.map((s) => s.id), 'the fixture holds every section of the registry');
  for (const r of report) {
    assert.equal(r.missing, false, `${r.section}: a missing string`);
    assert.equal(r.errors, 0, `${r.section}: an error is shown`);
  }
  assert.ok(report.filter((r) => r.numbers > 0).length >= 8, JSON.stringify(report));
  assert.deepEqual(session.consoleErrors(page), []);
  await page.close();
});
