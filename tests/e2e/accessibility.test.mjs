// End to end: accessibility of the walkthrough page and of the widgets.
//   - axe-core (injected under the CSP through the DevTools protocol): no serious
//     or critical violation, light and dark, Korean and English, with every
//     section laid out and every table alternative open;
//   - the keyboard: Tab reaches every control, each shows a visible focus and
//     has an accessible name (page, script-tag widgets, the iframe route);
//   - every heatmap and chart has a table alternative.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, ROOT, openSite } from './browser.mjs';
import { axeViolations, describeViolations, keyboardWalk } from './a11y.mjs';

let session;
before(async () => {
  assert.ok(existsSync(join(DIST, 'embed', 'attention-embed.js')), 'dist is missing: run `npm run build` first');
  copyFileSync(join(ROOT, 'tests', 'e2e', 'fixtures', 'blog.html'), join(DIST, 'blog.html'));
  session = await openSite();
});
after(async () => { await session?.close(); });

async function openPage(path, { colorScheme = 'light', width = 1280 } = {}) {
  const page = await session.newPage(null, { width, height: 900 });
  await page.emulateMedia({ colorScheme });
  await page.goto(session.url + path);
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  return page;
}

// Lays out every section (content-visibility skips off-screen ones) and opens
// every table alternative, so that axe sees all of it.
async function showEverything(page) {
  await page.addStyleTag({ content: '.section { content-visibility: visible !important; }' });
  // Sections build some figures while the reader reads (multi-head: the other
  // choices of h, in idle callbacks queued at mount): let those run first, or
  // their tables would be left closed (idle callbacks run in the order queued).
  await page.evaluate(() => new Promise((done) => requestIdleCallback(() => done())));
  await page.$$eval('details', (list) => list.forEach((d) => { d.open = true; }));
  await page.waitForTimeout(200);
}

for (const [lang, colorScheme] of [['en', 'light'], ['ko', 'dark'], ['en', 'dark'], ['ko', 'light']]) {
  test(`axe-core on the page (${lang}, ${colorScheme}): no serious or critical violation`, async () => {
    const page = await openPage(`index.html?lang=${lang}`, { colorScheme });
    await showEverything(page);
    const violations = await axeViolations(page);
    assert.equal(violations.length, 0, describeViolations(violations));
    const all = await axeViolations(page, { impacts: ['minor', 'moderate', 'serious', 'critical'] });
    console.log(`   axe ${lang}/${colorScheme}: ${all.length} rule(s) with minor/moderate findings: ${all.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`).join(', ') || 'none'}`);
    assert.deepEqual(session.consoleErrors(page), []);
    await page.close();
  });
}

test('the keyboard reaches every control of the page, each with a visible focus and a name', async () => {
  const page = await openPage('index.html?lang=en');
  await showEverything(page);
  const walk = await keyboardWalk(page);
  console.log(`   page: ${walk.stops} tab stops`);
  assert.ok(walk.stops > 100, `only ${walk.stops} tab stops`);
  assert.deepEqual(walk.invisible, [], 'stops without a visible focus indicator');
  assert.deepEqual(walk.unnamed, [], 'stops without an accessible name');
  await page.close();
});

test('the keyboard in the widgets: script-tag widgets on the blog, and the iframe route', async () => {
  const blog = await session.newPage('blog.html', { width: 1280, height: 900 });
  await blog.waitForSelector('#demo-mask[data-ready]', { timeout: 30000 });
  await blog.waitForSelector('#demo-worked[data-ready]', { timeout: 30000 });
  const walk = await keyboardWalk(blog);
  console.log(`   blog widgets: ${walk.stops} tab stops`);
  assert.ok(walk.stops > 20, `only ${walk.stops} tab stops`);
  assert.deepEqual(walk.invisible, []);
  assert.deepEqual(walk.unnamed, []);
  await blog.close();

  const frame = await session.newPage('embed/embed.html?section=cross-attention&lang=ko', { width: 700, height: 900 });
  await frame.waitForSelector('attention-demo[data-ready]', { timeout: 30000 });
  const inFrame = await keyboardWalk(frame);
  assert.ok(inFrame.stops > 10);
  assert.deepEqual(inFrame.invisible, []);
  assert.deepEqual(inFrame.unnamed, []);
  const violations = await axeViolations(frame);
  assert.equal(violations.length, 0, describeViolations(violations));
  await frame.close();
});

test('every heatmap and chart has a table alternative; every figure has a name', async () => {
  const page = await openPage('index.html?lang=en');
  await showEverything(page);
  const report = await page.evaluate(() => {
    const missing = [];
    // Heatmaps: a <details> with the numbers as a table.
    for (const map of document.querySelectorAll('figure.heatmap')) {
      if (!map.querySelector('details.table-alt table')) missing.push(`heatmap ${map.querySelector('figcaption')?.textContent ?? ''}`);
    }
    // Charts drawn in SVG (not icons, not the draggable vector plots whose numbers are the inputs beside them).
    for (const svg of document.querySelectorAll('main svg')) {
      if (svg.closest('.vector-plot-wrap') || svg.getBoundingClientRect().width < 120) continue;
      const figure = svg.closest('figure');
      const described = (svg.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
        .map((id) => document.getElementById(id)).filter(Boolean);
      const hasTable = figure?.querySelector('table') || described.some((el) => el.matches('table') || el.querySelector('table'));
      if (!hasTable) missing.push(`chart in ${svg.closest('section')?.id}: ${svg.getAttribute('aria-labelledby') ?? ''}`);
    }
    const unnamed = [...document.querySelectorAll('[role="img"], [role="grid"], svg[role], figure')]
      .filter((el) => !(el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.querySelector(':scope > figcaption')
        || el.getAttribute('aria-hidden') === 'true' || el.closest('[aria-hidden="true"]')))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className?.baseVal ?? el.className} in #${el.closest('section')?.id}`);
    return { missing, unnamed, heatmaps: document.querySelectorAll('figure.heatmap').length };
  });
  assert.ok(report.heatmaps > 20);
  assert.deepEqual(report.missing, []);
  assert.deepEqual(report.unnamed, []);
  await page.close();
});
