// Accessibility helpers of the end-to-end tests.
//
//   await axeViolations(pageOrFrame)          axe-core's violations, serious and critical by default
//   await keyboardWalk(page)                  Tab through every stop; which show no visible focus
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './browser.mjs';

const AXE_SOURCE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

// Runs axe-core in a page or frame. Under the site's CSP a <script> cannot be
// added, so the source is evaluated through the DevTools protocol (which the
// CSP does not govern). Open shadow roots (the widgets) are included by axe.
export async function axeViolations(target, { impacts = ['serious', 'critical'], include } = {}) {
  if (!(await target.evaluate(() => typeof window.axe === 'object'))) await target.evaluate(AXE_SOURCE);
  const violations = await target.evaluate(async (context) => {
    const result = await window.axe.run(context ?? document, {
      resultTypes: ['violations'],
      iframes: false,   // each frame is checked on its own
    });
    return result.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.flat().join(' '), summary: n.failureSummary })),
    }));
  }, include ?? null);
  return violations.filter((v) => impacts.includes(v.impact));
}

export const describeViolations = (list) => list.map((v) =>
  `${v.impact} ${v.id} (${v.help}): ${v.nodes.slice(0, 3).map((n) => n.target).join(' | ')}`).join('\n');

// Presses Tab until focus leaves the page (or comes back to the first stop)
// and, at each stop, checks that the focused element (inside shadow roots too)
// shows a focus indicator: an outline or a box shadow of its own, or - for
// controls that draw their ring on a part (a range thumb, an SVG handle) - a
// visible difference between its pixels focused and unfocused.
// Returns { stops, names, invisible: [description] }.
export async function keyboardWalk(page, { max = 800 } = {}) {
  await page.evaluate(() => {
    document.activeElement?.blur();
    window.scrollTo(0, 0);
  });
  const stops = [];
  const invisible = [];
  const unnamed = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      let el = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      if (!el || el === document.body || el === document.documentElement) return null;
      if (el.tagName === 'IFRAME') return { frame: true, key: 'iframe', ownRing: true, name: el.title };
      const style = getComputedStyle(el);
      const ownRing = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
      const path = [];
      for (let e = el; e && e.nodeType === 1; e = e.parentElement ?? e.getRootNode().host) {
        path.unshift(e.id ? `#${e.id}` : `${e.tagName.toLowerCase()}${e.classList[0] ? `.${e.classList[0]}` : ''}`);
        if (e.id) break;
      }
      // Accessible name, roughly: aria-label, aria-labelledby, a <label>, the text.
      const root = el.getRootNode();
      const byIds = (ids) => ids.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent ?? '').join(' ');
      const name = (el.getAttribute('aria-label') || (el.getAttribute('aria-labelledby') && byIds(el.getAttribute('aria-labelledby')))
        || el.labels?.[0]?.textContent || el.closest('label')?.textContent || el.textContent || el.title || '').trim();
      window.__attnWalkStop = el;   // for the pixel comparison below
      return { key: path.join('>') + '|' + name, ownRing, name, path: path.join(' > ') };
    });
    if (!info) break;
    if (stops.length > 3 && info.key === stops[0]) break;
    if (info.frame) {   // an iframe: its content is walked on its own page
      stops.push(info.key);
      break;
    }
    stops.push(info.key);
    if (!info.name) unnamed.push(info.path);
    if (!info.ownRing) {
      const handle = await page.evaluateHandle(() => window.__attnWalkStop);
      const element = handle.asElement();
      await element?.evaluate((e) => e.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' }));
      const box = await element?.boundingBox();
      const view = page.viewportSize();
      let differs = false;
      if (!box || box.width < 1 || box.height < 1) {
        info.path += ` (no size: ${box?.width} x ${box?.height})`;
      } else {
        const x = Math.max(0, box.x - 6);
        const y = Math.max(0, box.y - 6);
        const clip = { x, y, width: Math.min(view.width - x, box.width + 12), height: Math.min(view.height - y, box.height + 12) };
        if (clip.width < 1 || clip.height < 1) throw new Error(`keyboardWalk: ${info.path} is off screen after scrolling to it: ${JSON.stringify(box)}`);
        const focused = await page.screenshot({ clip });
        await handle.evaluate((e) => e.blur());
        const blurred = await page.screenshot({ clip });
        await handle.evaluate((e) => e.focus({ focusVisible: true }));
        differs = !focused.equals(blurred);
      }
      if (!differs) invisible.push(info.path);
      await handle.dispose();
    }
  }
  await page.evaluate(() => { delete window.__attnWalkStop; });
  return { stops: stops.length, invisible, unnamed };
}
