// End to end: the details a reader meets (issue 9), each checked where the
// reader sees it, at 375 and 1280 px, in Korean and English.
//
// - Big numbers: q = (120, 0) shows e^s as a power of ten that fits its cell;
//   at q = (130, 0) e^s would leave the engine's floats, so the row shows the
//   engine's e^(s - max s) with one line of why, and the weights 0.500, 0.000,
//   0.500; never "e+36", never ∞ there.
// - Errors in the reader's words, boxes counted from 1, in both languages.
// - Korean particles after numbers as read (22.63으로).
// - Horizontal heatmap labels; math keeps its case in uppercased titles; the
//   x 0.707 factor in its own place; one weight in the Korean table of contents.
// - A rounded number's full value is its tooltip: `title` is filled in when the
//   pointer comes over it (src/lib/full-value.js), and holds the number shown.
// - 375 px: no table caption cut by its scroll box, no choice group with an
//   empty slot, no number split from its unit.
// The tests only read the page or put back what they change (the worked
// example's Reset button): they share one page per language and width, each
// loaded once. (Screenshots of the whole walkthrough at these widths,
// languages and colour schemes: npm run test:stress, tests/stress/screenshots.test.mjs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, openSite, addTestStyles, removeTestStyles, resetWorkedExample } from './browser.mjs';

let session;
before(async () => {
  assert.ok(existsSync(join(DIST, 'index.html')), 'dist/index.html is missing: run scripts/build-web.sh first');
  session = await openSite();
});
after(async () => { await session?.close(); });

// The walkthrough in `lang` at `width` px, loaded on first use and shared by the tests.
const pageAt = (lang, width = 1280) => session.sharedPage(`index.html?lang=${lang}`, { width });
const renderAll = (page) => addTestStyles(page, '.section { content-visibility: visible !important; }');
const texts = (page, selector) => page.$$eval(selector, (els) => els.map((e) => e.textContent.trim()));

async function setQ(page, label0, label1, x, y) {
  await page.locator(`#worked-example input[aria-label="${label0}"]`).fill(String(x));
  await page.locator(`#worked-example input[aria-label="${label1}"]`).fill(String(y));
}

// The worked example's plots at the current q: every label and tick inside the
// plot, no two labels on top of each other, no label on a tick (boxes measured
// by the browser, in viewBox units).
async function assertPlotsReadable(page, where) {
  const problems = await page.$$eval('#worked-example .vector-plot', (plots) => plots.flatMap((plot, p) => {
    const side = plot.viewBox.baseVal.width;
    const box = (el) => { const b = el.getBBox(); return { text: el.textContent, x0: b.x, x1: b.x + b.width, y0: b.y, y1: b.y + b.height }; };
    const labels = [...plot.querySelectorAll('.vp-label')].map(box);
    const ticks = [...plot.querySelectorAll('.vp-tick')].map(box);
    // 1.5 units of slack: glyph boxes include the font's line gap.
    const overlap = (a, b) => a.x0 < b.x1 - 1.5 && b.x0 < a.x1 - 1.5 && a.y0 < b.y1 - 1.5 && b.y0 < a.y1 - 1.5;
    const out = [];
    for (const b of [...labels, ...ticks]) if (b.x0 < 0 || b.x1 > side || b.y0 < 0 || b.y1 > side) out.push(`plot ${p}: ${b.text} outside`);
    labels.forEach((a, i) => labels.slice(i + 1).forEach((b) => { if (overlap(a, b)) out.push(`plot ${p}: ${a.text} on ${b.text}`); }));
    for (const a of labels) for (const b of ticks) if (overlap(a, b)) out.push(`plot ${p}: ${a.text} on tick ${b.text}`);
    for (const [i, a] of ticks.entries()) for (const b of ticks.slice(i + 1)) if (overlap(a, b)) out.push(`plot ${p}: tick ${a.text} on tick ${b.text}`);
    return out;
  }));
  assert.deepEqual(problems, [], where);
}

test('q = (120, 0) and (130, 0): powers of ten that fit, then the stable form e^(s - max s), in both languages', async () => {
  for (const [lang, q1, q2, stableWords] of [['en', 'q, component 1', 'q, component 2', /single-precision/], ['ko', 'q의 1번째 성분', 'q의 2번째 성분', /단정밀도/]]) {
    for (const width of [375, 1280]) {
      const page = await pageAt(lang, width);
      await assertPlotsReadable(page, `${lang} ${width}: the articles' q`);
      // s = 120 / sqrt 2 = 84.85: e^s = 7.10 x 10^36, the sum of three 1.42 x 10^37, below e^88 (the engine's float range)
      await setQ(page, q1, q2, 120, 0);
      const exps = await texts(page, '#worked-example tr.step-exp td');
      assert.deepEqual(exps.slice(0, 3), ['7.10\u202f\u00d7\u202f10\u00b3\u2076', '1.000', '7.10\u202f\u00d7\u202f10\u00b3\u2076'], `${lang} ${width}: ${exps}`);
      assert.equal(exps[3], '1.42\u202f\u00d7\u202f10\u00b3\u2077');
      assert.equal(await page.locator('#worked-example .we-stable-note').textContent(), '');
      // Every number fits in its cell: nothing overlaps its neighbours.
      const overflow = await page.$$eval('#worked-example .steps-table td', (tds) => tds.filter((td) => td.scrollWidth > td.clientWidth + 1).length);
      assert.equal(overflow, 0, `${lang} ${width}: a number wider than its cell`);
      const tableText = await page.textContent('#worked-example .steps-table');
      assert.doesNotMatch(tableText, /e\+|e-\d/);
      await assertPlotsReadable(page, `${lang} ${width}: q = (120, 0)`);

      await setQ(page, q1, q2, 130, 0);
      const stable = await texts(page, '#worked-example tr.step-exp td');
      assert.deepEqual(stable, ['1.000', '0.000', '1.000', '2.000'], `${lang} ${width}: e^(s - max s)`);
      assert.match(await page.locator('#worked-example tr.step-exp th').innerHTML(), /max/);
      assert.match(await page.locator('#worked-example .we-stable-note').textContent(), stableWords);
      assert.deepEqual(await texts(page, '#worked-example .step-weight .step-value'), ['0.500', '0.000', '0.500']);
      assert.doesNotMatch(await page.textContent('#worked-example .steps-table'), /\u221e/);
      // q = (10^30, -1): the keys shrink to the origin, three labels at one point, ticks in powers of ten.
      await setQ(page, q1, q2, '1e30', -1);
      await assertPlotsReadable(page, `${lang} ${width}: q = (1e30, -1)`);
      await setQ(page, q1, q2, 1010, 0);
      // The scaling changes no weight here (scores 714 and 1010 apart from 0): the sentence says so, not "flattens".
      const compare = await page.textContent('#worked-example .we-compare');
      assert.match(compare, lang === 'en' ? /changes no weight as shown: with or without it they are 0\.500, 0\.000, 0\.500/
        : /바뀌지 않습니다\. 나누든 나누지 않든 0\.500, 0\.000, 0\.500입니다/, `${lang} ${width}: ${compare}`);
      assert.deepEqual(session.consoleErrors(page), []);
      await resetWorkedExample(page);
    }
  }
});

test('errors are told in the reader’s words, counted from 1, in both languages', async () => {
  for (const [lang, label, expected] of [
    ['en', 'key 2, component 1', 'key 2, component 1: not a number. Type a number such as 0.5 or −2.'],
    ['ko', '키 2의 1번째 성분', '키 2의 1번째 성분이 숫자가 아닙니다. 0.5나 −2처럼 숫자를 입력하세요.'],
  ]) {
    const page = await pageAt(lang);
    await page.locator(`#worked-example input[aria-label="${label}"]`).fill('abc');
    const message = await page.locator('#worked-example .input-error').textContent();
    assert.ok(message.startsWith(expected), `${lang}: ${message}`);
    assert.doesNotMatch(message, /\[\d\]|NaN|\bk\[/);
    await page.locator(`#worked-example input[aria-label="${label}"]`).fill('0');
    assert.equal(await page.locator('#worked-example .input-error').textContent(), '');
    await resetWorkedExample(page);
  }
});

test('Korean particles follow the number as read; the scale factor has its own place; the table of contents has one weight', async () => {
  const page = await pageAt('ko');
  // d_k = 512: divided by 22.63 (…육삼): 으로. d_k = 2 in section 1: 1.414 (…사사): 로.
  assert.match(await page.textContent('#scaling-ten-keys'), /22\.63으로/);
  assert.match(await page.textContent('#worked-example .we-compare'), /1\.414로 나누면 가중치가 평평해집니다.*0\.422, 0\.155, 0\.422/);
  assert.equal(await page.locator('#worked-example tr.step-scaled .step-factor').textContent(), '\u00d7 0.707');
  assert.equal(await page.locator('#worked-example tr.step-scaled .step-sum').textContent(), '');
  const weights = await page.$$eval('.toc-text, .toc-text *', (els) => [...new Set(els.map((e) => getComputedStyle(e).fontWeight))]);
  assert.deepEqual(weights, ['400'], `one weight in the Korean table of contents: ${weights}`);
});

test('heatmap labels are horizontal; math keeps its case in uppercased titles', async () => {
  const page = await pageAt('en');
  const layOutAll = await renderAll(page);
  const modes = await page.$$eval('.heatmap-col-label, .heatmap-row-label', (els) => [...new Set(els.map((e) => getComputedStyle(e).writingMode))]);
  assert.deepEqual(modes, ['horizontal-tb']);
  // "I" stays a letter: the cross-attention maps label their columns I, am, very, hungry, as written.
  const crossLabels = await texts(page, '#cross-attention .places .heatmap-grid >> nth=0 >> .heatmap-col-label');
  assert.ok(crossLabels.includes('I'), crossLabels.join(' '));
  const h = await page.$eval('#multi-head .panel-title math mi', (mi) => ({ text: mi.textContent, transform: getComputedStyle(mi).textTransform }));
  assert.equal(h.text, 'h');
  assert.notEqual(h.transform, 'uppercase');
  await removeTestStyles(layOutAll);
});

// The number a cell shows, as a number (formatNumber writes U+2212 for minus).
const shownNumber = (text) => Number(text.replace('\u2212', '-'));

test('a rounded number shows its full value as a tooltip once the pointer is over it', async () => {
  const page = await pageAt('en');
  const cases = [
    ['#worked-example tr.step-weight td .step-value', 0.0005],   // 0.401, three digits
    ['#gradients-row .gr-scaled .heatmap-cell', 0.005],          // a Jacobian entry, two digits
    ['#gradients-row .gr-raw .wc-value', 0.0005],                 // a weight bar's value, three digits
  ];
  for (const [selector, half] of cases) {
    const el = page.locator(selector).first();
    await el.scrollIntoViewIfNeeded();
    const full = await el.getAttribute('data-full');
    assert.ok(full && Number.isFinite(Number(full)), `${selector}: data-full ${full}`);
    const shown = shownNumber((await el.textContent()).trim());
    assert.ok(Math.abs(Number(full) - shown) <= half + 1e-12, `${selector}: ${full} shown as ${shown}`);
    assert.ok(full.replace(/^-/, '').length > String(shown).replace(/^-/, '').length || Number(full) === shown, `${selector}: ${full} is more than ${shown}`);
    await el.hover();
    assert.equal(await el.getAttribute('title'), full, `${selector}: the tooltip after the pointer came over it`);
  }
  // A redraw writes the new value; the tooltip follows at the next hover.
  const query = page.locator('#gradients-row .gr-query-choice input:checked');
  const chosen = await query.getAttribute('value');
  await page.locator('#gradients-row .gr-query-choice label').nth(2).click();
  const cell = page.locator('#gradients-row .gr-scaled .heatmap-cell').first();
  const next = await cell.getAttribute('data-full');
  await page.mouse.move(0, 0);
  await cell.hover();
  assert.equal(await cell.getAttribute('title'), next);
  await page.check(`#gradients-row .gr-query-choice input[value="${chosen}"]`);   // the query it had
});

test('375 px: captions within their boxes, choice groups without an empty slot, numbers with their units', async () => {
  for (const lang of ['en', 'ko']) {
    const page = await pageAt(lang, 375);
    const layOutAll = await renderAll(page);
    await page.waitForTimeout(300);
    const cut = await page.$$eval('.matrix-scroll.is-wide > table > caption', (caps) => caps
      .filter((c) => !c.classList.contains('visually-hidden'))
      .filter((c) => c.getBoundingClientRect().width > c.closest('.matrix-scroll').clientWidth + 1)
      .map((c) => c.textContent.slice(0, 40)));
    assert.deepEqual(cut, [], `${lang}: captions wider than their scroll box`);
    // Each row of a choice group ends at the group's right edge.
    const gaps = await page.$$eval('.choice-options', (groups) => groups.flatMap((g) => {
      const right = g.getBoundingClientRect().right;
      const rows = new Map();
      for (const c of g.children) {
        const r = c.getBoundingClientRect();
        rows.set(Math.round(r.top), Math.max(rows.get(Math.round(r.top)) ?? 0, r.right));
      }
      return [...rows.values()].filter((end) => right - end > 3).map(() => g.querySelector('legend, .choice-text')?.textContent ?? '?');
    }));
    assert.deepEqual(gaps, [], `${lang}: a choice group with an empty slot`);
    assert.match(await page.textContent('#cost-memory .co-summary'), /64\u00a0MiB/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, `${lang}: no sideways scroll at 375 px`);
    await removeTestStyles(layOutAll);
  }
});
