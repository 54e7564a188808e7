// What the hostile-input tests share (tests/e2e/hostile-inputs.test.mjs, and
// the soaks of tests/e2e/soak.mjs):
//
//   codecs[id]                         each section's parameter codec (web/src/sections/<id>/params.js), read in Node
//   await expectNothingRan(page, where)   no hostile value ran or landed in the page as markup
//   const page = await openWidgets(session)   fixtures/all-sections.html, every widget rendered
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { sections } from '../../web/src/sections/registry.js';

register(new URL('./css-imports.mjs', import.meta.url));   // the codecs' components import CSS
export const codecs = Object.fromEntries(await Promise.all(sections.map(async (s) =>
  [s.id, (await import(`../../web/src/sections/${s.id}/params.js`)).default])));

// Nothing ran and nothing was inserted, in the document and in every shadow root.
export async function expectNothingRan(page, where) {
  const report = await page.evaluate(() => {
    // The page's content, and each widget's shadow root (a widget's own
    // attributes, in the host page's markup, hold the hostile text as given).
    const widgets = [...document.querySelectorAll('attention-demo')].map((el) => el.shadowRoot);
    const roots = widgets.length ? widgets : [document.querySelector('main')];
    const injected = 'img[src="x"], [onerror], [onload], a[href^="javascript"], main script';
    return {
      pwned: window.__pwned,
      injected: [document, ...widgets].reduce((n, r) => n + r.querySelectorAll(injected).length, 0)
        + widgets.reduce((n, r) => n + r.querySelectorAll('script').length, 0),
      // hostile text may be shown as text (a notice quoting a name); never in an attribute
      markup: roots.some((r) => [...r.querySelectorAll('*')].some((el) =>
        [...el.attributes].some((a) => /__pwned|onerror|javascript:/i.test(`${a.name}=${a.value}`)))),
    };
  });
  assert.deepEqual(report, { pwned: undefined, injected: 0, markup: false }, where);
}

// The widgets of fixtures/all-sections.html, one per section (checked to be
// the registry's), once every one has rendered.
export async function openWidgets(session) {
  const page = await session.newPage('all-sections.html', { width: 900, height: 900 });
  await page.waitForFunction(() => [...document.querySelectorAll('attention-demo')].every((el) => el.dataset.ready),
    null, { timeout: 60000 });
  assert.deepEqual(await page.$$eval('attention-demo', (els) => els.map((e) => e.getAttribute('section'))),
    sections.map((s) => s.id), 'the fixture holds every section of the registry');
  return page;
}
