// End to end: accessibility and layout, the one place where axe-core and the
// 375 px check run. Once per page and colour scheme (light in English, dark in
// Korean), at 375 px wide, with every section laid out and every table
// alternative open:
//   - no sideways scrolling (the page, and each section of the walkthrough);
//   - axe-core (injected under the CSP through the DevTools protocol): no
//     serious or critical violation (minor and moderate findings are printed);
//   - no console error.
// The pages: the walkthrough (after the widest states and a benchmark run), a
// blog post with two script-tag widgets and an iframe (tests/e2e/fixtures/blog.html,
// axe in the iframe too), and every section as a widget (fixtures/all-sections.html).
// The blog post and the widgets are loaded once and checked in light, then in
// dark (the colour scheme changes under them, as when a reader's system
// switches); the walkthrough once per language. Also: the keyboard reaches
// every control, each with a visible focus and a name (page, script-tag
// widgets, the iframe route); every heatmap and chart has a table alternative
// (these two read one walkthrough, loaded once). Screenshots of these pages:
// npm run test:stress (tests/stress/screenshots.test.mjs).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, openSite, addTestStyles } from './browser.mjs';
import { axeViolations, describeViolations, keyboardWalk } from './a11y.mjs';
import { showWidestStates } from './widest-states.mjs';
import { sections } from '../../web/src/sections/registry.js';
import { sectionsOf } from '../../web/src/sections/pages.js';

const PHONE = 375;
const SCHEMES = [{ colorScheme: 'light', lang: 'en' }, { colorScheme: 'dark', lang: 'ko' }];
const iframeReports = [];   // the blog's iframe (embed.html), per scheme
let session;

before(async () => {
  assert.ok(existsSync(join(DIST, 'embed', 'attention-embed.js')), 'dist is missing: run `npm run build` first');
  // Reduced motion: the page then has no CSS transitions, so axe reads the
  // final colours, not a panel fading back in after a run (section 2's results
  // fade for 350 ms; axe once read them half transparent), and the focus
  // screenshots compare settled pixels.
  session = await openSite({ reducedMotion: 'reduce' });
});
after(async () => { await session?.close(); });

// Lays out every section (content-visibility skips off-screen ones) and opens
// every table alternative, so that axe and the width check see all of it.
async function showEverything(page) {
  const layOutAll = await addTestStyles(page, '.section { content-visibility: visible !important; }');
  // Sections build some figures while the reader reads (multi-head: the other
  // choices of h, in idle callbacks queued at mount): let those run first, or
  // their tables would be left closed (idle callbacks run in the order queued).
  await page.evaluate(() => new Promise((done) => requestIdleCallback(() => done())));
  await page.$$eval('details', (list) => list.forEach((d) => {
    d.open = true;
    d.dispatchEvent(new Event('toggle'));
  }));
  // The tables are built on the toggle event: wait for the frame that lays them out.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

// Opens `path` at 375 px in a colour scheme; `ready` waits for its content.
async function openAt(path, colorScheme, ready) {
  const page = await session.newPage(null, { width: PHONE, height: 900 });
  await page.emulateMedia({ colorScheme });
  await page.goto(session.url + path);
  await ready(page);
  return page;
}

// Switches the page to a colour scheme (prefers-color-scheme) and waits for the frame that shows it.
async function inScheme(page, colorScheme) {
  await page.emulateMedia({ colorScheme });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

const sidewaysScroll = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

// One axe run: serious and critical violations fail, minor and moderate ones are printed.
async function expectNoSeriousViolation(target, where) {
  const all = await axeViolations(target, { impacts: ['minor', 'moderate', 'serious', 'critical'] });
  const serious = all.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const minor = all.filter((v) => !serious.includes(v));
  console.log(`   axe ${where}: minor/moderate: ${minor.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`).join(', ') || 'none'}`);
  assert.equal(serious.length, 0, `${where}:\n${describeViolations(serious)}`);
}

for (const { colorScheme, lang } of SCHEMES) {
  test(`the walkthrough (${lang}, ${colorScheme}, ${PHONE} px): no sideways scroll, axe clean, after the widest states and a run`, async () => {
    const page = await openAt(`index.html?lang=${lang}`, colorScheme, (p) => p.waitForSelector('body[data-ready]', { timeout: 30000 }));
    await showWidestStates(page);
    await showEverything(page);

    assert.ok(await sidewaysScroll(page) <= 0, `the page scrolls sideways by ${await sidewaysScroll(page)}px`);
    for (const { id } of sectionsOf('walkthrough')) {
      const over = await page.$eval(`section#${id}`, (s) => s.getBoundingClientRect().right - window.innerWidth);
      assert.ok(over <= 0, `#${id} sticks out by ${over}px`);
    }
    await expectNoSeriousViolation(page, `walkthrough ${lang}/${colorScheme}`);
    assert.deepEqual(session.consoleErrors(page), []);
    await page.close();
  });
}

describe(`the blog post with three widgets at ${PHONE} px, loaded once`, () => {
  let page;
  before(async () => {
    page = await openAt('blog.html', 'light', async (p) => {
      await p.waitForSelector('#demo-worked[data-ready]', { timeout: 30000 });
      await p.waitForSelector('#demo-mask[data-ready]', { timeout: 30000 });
      await p.frameLocator('#demo-frame').locator('attention-demo[data-ready]').waitFor({ timeout: 30000 });
    });
    await page.locator('#demo-mask').evaluate((el) => el.shadowRoot.querySelectorAll('details.table-alt').forEach((d) => {
      d.open = true;
      d.dispatchEvent(new Event('toggle'));   // builds the table now
    }));
  });
  after(async () => { await page?.close(); });

  for (const { colorScheme } of SCHEMES) {
    test(`${colorScheme}: no sideways scroll, axe clean`, async () => {
      await inScheme(page, colorScheme);
      assert.ok(await sidewaysScroll(page) <= 0, `the page scrolls sideways by ${await sidewaysScroll(page)}px`);
      await expectNoSeriousViolation(page, `blog ${colorScheme}`);
      // The iframe's own document (embed.html at the iframe's width): checked by the test below.
      const frame = page.frames().find((f) => f !== page.mainFrame());
      const all = await axeViolations(frame, { impacts: ['minor', 'moderate', 'serious', 'critical'] });
      iframeReports.push({
        colorScheme, width: await frame.evaluate(() => window.innerWidth), sideways: await sidewaysScroll(frame),
        serious: all.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
      });
      console.log(`   axe blog's iframe ${colorScheme}: ${all.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`).join(', ') || 'none'}`);
      assert.deepEqual(session.consoleErrors(page), []);
    });
  }
});

describe(`every section as a widget at ${PHONE} px, loaded once`, () => {
  let page;
  before(async () => {
    page = await openAt('all-sections.html', 'light', async (p) => {
      await p.waitForFunction(() => [...document.querySelectorAll('attention-demo')].every((el) => el.dataset.ready),
        null, { timeout: 60000 });
      // The background experiments (section 2) have finished: nothing is dimmed as busy.
      await p.waitForFunction(() => [...document.querySelectorAll('attention-demo')]
        .every((el) => !el.shadowRoot.querySelector('[aria-busy="true"]')), null, { timeout: 60000 });
    });
  });
  after(async () => { await page?.close(); });

  for (const { colorScheme } of SCHEMES) {
    test(`${colorScheme}: no sideways scroll, axe clean`, async () => {
      await inScheme(page, colorScheme);
      assert.ok(await sidewaysScroll(page) <= 0, `the page scrolls sideways by ${await sidewaysScroll(page)}px`);
      await expectNoSeriousViolation(page, `widgets ${colorScheme}`);
      assert.deepEqual(session.consoleErrors(page), []);
    });
  }
});

// The blog's iframe (embed.html at 335 px, multi-head, compact), read by the blog tests above.
test('the blog\'s iframe (embed.html at 335 px): no sideways scroll, axe clean', () => {
  assert.equal(iframeReports.length, SCHEMES.length, 'the blog tests ran');
  for (const r of iframeReports) {
    assert.ok(r.sideways <= 0, `${r.colorScheme}: the iframe (${r.width}px) scrolls sideways by ${r.sideways}px`);
    assert.equal(r.serious.length, 0, `${r.colorScheme}, iframe:\n${describeViolations(r.serious)}`);
  }
});

// Each section alone in the iframe route: its own styles only (on the page and
// in all-sections.html another section's sheet can hide a missing import, as
// multi-head's cost table once lacked components/matrix.css), full and compact.
// One load per section: `compact` is presentation only (attention-demo.css; the
// widget does not render again for it), so the widget is set compact in place,
// as embed.html?...&compact would have made it, and measured again.
test(`every section alone in embed.html at 335 px: no sideways scroll, full and compact`, async () => {
  const wide = [];
  for (const { id } of sections) {
    const page = await session.newPage(`embed/embed.html?section=${id}&lang=en`, { width: 335, height: 900 });
    await page.waitForSelector('attention-demo[data-ready]', { timeout: 30000 });
    // The section's prose shown (full), then hidden (compact shows the panels only).
    const prose = () => page.$eval('attention-demo', (el) => [...el.shadowRoot.querySelector('.ad-section').children]
      .filter((c) => !c.matches('.panel, .share-notice') && getComputedStyle(c).display !== 'none').length);
    const noteSideways = async (label) => {
      const over = await sidewaysScroll(page);
      if (over > 0) wide.push(`${label}: ${over}px`);
    };
    assert.ok(await prose() > 0, `${id}: the prose is shown`);
    await noteSideways(id);
    await page.$eval('attention-demo', (el) => el.setAttribute('compact', ''));
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    assert.equal(await prose(), 0, `${id}: compact hides the prose`);
    await noteSideways(`${id}&compact`);
    assert.deepEqual(session.consoleErrors(page), [], id);
    await page.close();
  }
  assert.deepEqual(wide, [], 'sections that scroll sideways in a 335 px iframe');
  // The worked example in article 000's columns (its table transposed): no sideways scroll, axe clean.
  const columns = await session.newPage('embed/embed.html?section=worked-example&lang=ko&convention=columns', { width: 335, height: 900 });
  await columns.waitForSelector('attention-demo[data-ready]', { timeout: 30000 });
  assert.ok(await sidewaysScroll(columns) <= 0, `columns: ${await sidewaysScroll(columns)}px sideways`);
  await expectNoSeriousViolation(columns, 'worked example in columns');
  await columns.close();
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
  await frame.close();
});

describe('the walkthrough at 1280 px, every section laid out and every table open, loaded once', () => {
  let page;
  before(async () => {
    page = await session.newPage('index.html?lang=en', { width: 1280, height: 900 });
    await page.waitForSelector('body[data-ready]', { timeout: 30000 });
    await showEverything(page);
  });
  after(async () => { await page?.close(); });

  test('the keyboard reaches every control of the page, each with a visible focus and a name', async () => {
    const walk = await keyboardWalk(page);
    console.log(`   page: ${walk.stops} tab stops`);
    assert.ok(walk.stops > 100, `only ${walk.stops} tab stops`);
    assert.deepEqual(walk.invisible, [], 'stops without a visible focus indicator');
    assert.deepEqual(walk.unnamed, [], 'stops without an accessible name');
  });

  test('every heatmap and chart has a table alternative; every figure has a name', async () => {
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
  });
});
