// End to end, on an emulated phone (375 px, mobile viewport, touch): what a
// reader's finger and phone keyboard do (issue 9, "Phones and touch").
//
// - Dragging q in section 1 follows the finger: real touch events through the
//   DevTools protocol (Input.dispatchTouchEvent), vertical and sideways; the
//   handle moves with the finger and the page does not scroll. A finger on the
//   plot's background still scrolls the page.
// - Every range slider follows a finger too.
// - Negative numbers can be typed on every phone keyboard: no number box asks
//   for the decimal pad (iOS's has no minus sign) and the permutation box not
//   for the numeric pad (no comma); typing "-2" into a box on the mobile page
//   reaches the engine.
// The tests share one phone page, loaded once; each that edits the worked
// example puts it back (its Reset button).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, openSite, resetWorkedExample } from './browser.mjs';

let session;
let phone;   // { page, cdp }: the walkthrough on a phone, shared by the tests

before(async () => {
  assert.ok(existsSync(join(DIST, 'index.html')), 'dist/index.html is missing: run scripts/build-web.sh first');
  session = await openSite();
  phone = await openPhone('index.html?lang=en');
});
after(async () => { await session?.close(); });

// A page emulating a phone: 375 px wide, mobile viewport, touch events.
async function openPhone(path) {
  const page = await session.newPage(null, { width: 375, height: 800 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 375, height: 800, deviceScaleFactor: 2, mobile: true });
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
  await page.goto(session.url + path);
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  return { page, cdp };
}

// A one-finger drag from (x, y) by (dx, dy), in `steps` moves, as touch
// events; `whileDown` runs before the finger is lifted.
async function touchDrag(cdp, x, y, dx, dy, { steps = 8, whileDown } = {}) {
  const point = (t) => [{ x: x + dx * t, y: y + dy * t, id: 1, radiusX: 5, radiusY: 5, force: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(0) });
  for (let i = 1; i <= steps; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(i / steps) });
  const result = await whileDown?.();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  return result;
}

// Scrolls `selector` to the middle of the screen and waits until it stays
// there (sections around it are laid out as they come into view).
async function bringToCenter(page, selector) {
  let last = null;
  for (let i = 0; i < 10; i++) {
    const top = await page.$eval(selector, (el) => { el.scrollIntoView({ block: 'center' }); return el.getBoundingClientRect().top; });
    await page.waitForTimeout(150);
    const now = await page.$eval(selector, (el) => el.getBoundingClientRect().top);
    if (last !== null && Math.abs(now - top) < 1) return;
    last = now;
  }
}

const handleCenter = (page) => page.$eval('#worked-example .vp-handle .vp-handle-dot', (el) => {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
});

test('dragging q by touch moves the handle with the finger and does not scroll the page', async () => {
  const { page, cdp } = phone;
  await bringToCenter(page, '#worked-example .vp-handle');
  for (const [dx, dy] of [[0, 40], [40, 0], [-30, -30]]) {
    const start = await handleCenter(page);
    const scrollBefore = await page.evaluate(() => scrollY);
    const qBefore = await page.$$eval('#worked-example .we-matrices input', (els) => els.slice(0, 2).map((e) => e.value));
    // Where the handle is while the finger is still down (on release the plot may re-frame).
    const end = await touchDrag(cdp, start.x, start.y, dx, dy, { whileDown: () => handleCenter(page) });
    await page.waitForTimeout(100);
    const scrollAfter = await page.evaluate(() => scrollY);
    const qAfter = await page.$$eval('#worked-example .we-matrices input', (els) => els.slice(0, 2).map((e) => e.value));
    console.log(`  touch drag (${dx}, ${dy}) px: handle moved (${(end.x - start.x).toFixed(1)}, ${(end.y - start.y).toFixed(1)}) px, page scrolled ${scrollAfter - scrollBefore} px, q ${qBefore} -> ${qAfter}`);
    assert.equal(scrollAfter, scrollBefore, 'the page must not scroll while q is dragged');
    // The plot's window stays still while dragging: the handle ends under the finger (within 3 px).
    assert.ok(Math.abs(end.x - start.x - dx) <= 3 && Math.abs(end.y - start.y - dy) <= 3,
      `the handle follows the finger: moved (${end.x - start.x}, ${end.y - start.y}) for (${dx}, ${dy})`);
    assert.notDeepEqual(qAfter, qBefore, 'q, and with it every number, changed');
  }
  assert.deepEqual(session.consoleErrors(page), []);
  await resetWorkedExample(page);
});

test('a finger on the plot’s background, away from q, still scrolls the page', async () => {
  const { page, cdp } = phone;
  await bringToCenter(page, '#worked-example .vp-handle');
  const box = await page.$eval('#worked-example .vector-plot', (el) => { const r = el.getBoundingClientRect(); return { x: r.left + 20, y: r.bottom - 30 }; });
  const qBefore = await page.$$eval('#worked-example .we-matrices input', (els) => els.slice(0, 2).map((e) => e.value));
  const scrollBefore = await page.evaluate(() => scrollY);
  await touchDrag(cdp, box.x, box.y, 0, -150, { steps: 10 });
  await page.waitForTimeout(400);
  const scrolled = (await page.evaluate(() => scrollY)) - scrollBefore;
  console.log(`  finger on the background, 150 px up: page scrolled ${scrolled} px`);
  assert.ok(scrolled > 50, `the page scrolls (${scrolled} px)`);
  assert.deepEqual(await page.$$eval('#worked-example .we-matrices input', (els) => els.slice(0, 2).map((e) => e.value)), qBefore);
});

test('range sliders follow a finger', async () => {
  const { page, cdp } = phone;
  const slider = page.locator('#scaling-ten-keys input[type="range"]');
  await bringToCenter(page, '#scaling-ten-keys input[type="range"]');
  const before = await slider.inputValue();
  const box = await slider.boundingBox();
  const max = Number(await slider.getAttribute('max'));
  const thumbX = box.x + (box.width * Number(before)) / max;
  await touchDrag(cdp, thumbX, box.y + box.height / 2, -box.width / 3, 0);
  await page.waitForTimeout(150);
  const after = await slider.inputValue();
  console.log(`  d_k slider dragged left by a third: index ${before} -> ${after}`);
  assert.ok(Number(after) < Number(before), `the slider moved left (${before} -> ${after})`);
});

test('negative numbers can be typed on a phone: no box asks for the decimal pad, and "-2" reaches the engine', async () => {
  const { page, cdp } = phone;
  // Every box but the seeds (whole numbers from 0: the numeric pad has every key
  // they need). Section 9's permutation needs commas or spaces, which iOS's
  // numeric pad lacks too.
  const modes = await page.$$eval('input.number-input:not(.seed-input)', (els) => [...new Set(els.map((e) => e.getAttribute('inputmode')))]);
  console.log(`  inputmode of the number boxes: ${modes.join(', ')}`);
  assert.ok(modes.length > 0 && modes.every((m) => m === 'text'), `a keyboard with a minus sign on every phone: ${modes}`);
  const box = page.locator('#worked-example .we-matrices input').nth(2);   // k1, component 1
  await bringToCenter(page, '#worked-example .we-matrices tr:nth-child(1) + tr, #worked-example .we-matrices input:nth-of-type(1)');
  await box.scrollIntoViewIfNeeded();
  const before = await page.$$eval('#worked-example .step-weight .step-value', (els) => els.map((e) => e.textContent));
  const rect = await box.boundingBox();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  // The tap focuses the box (waited for; the assertion below names it if not).
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'key 1, component 1', null, { timeout: 5000 }).catch(() => {});
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'key 1, component 1');
  await page.keyboard.press('Control+A');
  await cdp.send('Input.insertText', { text: '-2' });
  await page.waitForFunction((old) => [...document.querySelectorAll('#worked-example .step-weight .step-value')]
    .map((e) => e.textContent).join() !== old, before.join(), { timeout: 5000 }).catch(() => {});
  const after = await page.$$eval('#worked-example .step-weight .step-value', (els) => els.map((e) => e.textContent));
  // k1 = (-2, 0): q . k1 = -2, so k1's weight falls below k3's (q . k3 = 1).
  assert.notDeepEqual(after, before);
  assert.ok(parseFloat(after[0]) < parseFloat(after[2]), `k1's weight drops: ${after}`);
  assert.equal(await page.locator('#worked-example .input-error').textContent(), '');
  assert.deepEqual(session.consoleErrors(page), []);
  await resetWorkedExample(page);
});
