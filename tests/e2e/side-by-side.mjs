// Shared steps of the end-to-end tests of the sections that train one model
// twice side by side (learns-mask-reason.test.mjs, learns-positions-trained.test.mjs):
// open the section (on learns.html or in the embed), press "Train both", wait
// until both runs are measured, and read what the page shows.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { DIST, addTestStyles, openSite } from './browser.mjs';
import { axeViolations, describeViolations } from './a11y.mjs';

export const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

// A test file's Chromium (opened before its tests, closed after them) and the
// lines it reports at the end, with the load average: { session, lines }.
export function suite(name) {
  const state = { session: null, lines: [] };
  before(async () => {
    assert.ok(existsSync(join(DIST, 'learns.html')), 'dist/ is missing: run `npm run build` first');
    state.session = await openSite();
  });
  after(async () => {
    await state.session?.close();
    console.log(`\n${name} in the browser (load average ${load()}):`);
    for (const line of state.lines) console.log(`  ${line}`);
  });
  return state;
}

// `path`: learns.html?lang=..#id or embed/embed.html?section=id&lang=..; the
// section's panel is #<id>-training. Returns the page, the ms the section
// measured from the click to the last run measured, and the wall ms.
export async function trainSection(session, path, id, { width, timeout = 60000 }) {
  const page = await session.newPage(path, { width, height: 900 });
  const panel = page.locator(`#${id}-training`);
  await panel.waitFor({ timeout: 30000 });
  await panel.scrollIntoViewIfNeeded();
  assert.equal(await panel.getAttribute('data-state'), 'idle');
  const started = Date.now();
  await panel.locator('button[data-action="train"]').click();
  await page.locator(`#${id}-training[data-state="done"]`).waitFor({ timeout });
  const wall = Date.now() - started;
  const ms = Number(await panel.getAttribute('data-ms'));
  return { page, ms, wall };
}

// The section fits the width and axe finds nothing serious in it; no console error.
export async function checkLayout(session, page, id) {
  const sheet = await addTestStyles(page, '.section { content-visibility: visible !important; }');
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(sideways <= 0, `#${id}: the page scrolls sideways by ${sideways}px`);
  const serious = await axeViolations(page);
  assert.equal(serious.length, 0, `#${id}:\n${describeViolations(serious)}`);
  await sheet.evaluate((s) => { document.adoptedStyleSheets = document.adoptedStyleSheets.filter((x) => x !== s); });
  assert.deepEqual(session.consoleErrors(page), []);
}

// The sentences the section shows, their keys, and that none is left unfilled.
export async function summaryOf(page, id, lang) {
  const summary = page.locator(`#${id}-summary`);
  const keys = (await summary.getAttribute('data-keys')).split(' ');
  const text = await summary.textContent();
  assert.ok(!/[{}\u27e6]/.test(text), `#${id}: every sentence filled in: ${text}`);
  if (lang === 'ko') assert.match(text, /[\uac00-\ud7a3]/, `#${id} speaks Korean`);
  return { keys, text };
}
