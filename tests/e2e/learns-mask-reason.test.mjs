// End to end: section "mask-reason" in headless Chromium under the site's CSP:
// press "Train both" and both decoders (without the causal mask and with it)
// train in two workers to their target and are measured; the time from the
// click (budget below); the two numbers of each model in the table and the
// sentences chosen from them (the outcome each run's numbers call for, the
// percentages the table shows); the masked model's map has nothing above the
// diagonal. English on learns.html at 1280 px, Korean in the embed at 375 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkLayout, load, suite, summaryOf, trainSection } from './side-by-side.mjs';
import { outcomeOf } from '../../web/src/sections/mask-reason/state.js';
import { formatPercent } from '../../web/src/lib/format.js';

// The target is 10 s from the click; measured 2.1 s (en, 1280 px) and
// 1.5 s (ko, embed, 375 px) in headless Chromium at load 9 on this 2-core
// machine (each run 300-350 steps, to a teacher-forced loss of 0.02): room
// enough under load, so the target itself is the budget.
const BUDGET_MS = 10000;
const ID = 'mask-reason';
const run = suite(ID);

const CASES = [
  { lang: 'en', width: 1280, path: `learns.html?lang=en#${ID}` },
  { lang: 'ko', width: 375, path: `embed/embed.html?section=${ID}&lang=ko` },
];

for (const { lang, width, path } of CASES) {
  test(`${path} (${width} px): trains both within the budget; the numbers side by side and the sentences agree`, async () => {
    const { page, ms, wall } = await trainSection(run.session, path, ID, { width });
    run.lines.push(`${lang} ${width} px: ${(ms / 1000).toFixed(2)} s measured by the section (${(wall / 1000).toFixed(2)} s wall), load ${load()}`);
    assert.ok(ms > 0 && ms < BUDGET_MS, `trained and measured in ${ms} ms (budget ${BUDGET_MS})`);

    const rows = await page.$$eval('#mask-reason-results thead th[data-run]', (ths) => ths.map((th) => ({
      run: th.dataset.run, forced: Number(th.dataset.forced), free: Number(th.dataset.free),
    })));
    const shown = await page.locator('#mask-reason-results tbody').textContent();
    assert.deepEqual(rows.map((r) => r.run), ['unmasked', 'masked']);
    const [unmasked, masked] = rows;
    // The article's claim, measured: with the mask both numbers are high.
    assert.ok(masked.forced >= 0.95 && masked.free >= 0.95, `with the mask: ${masked.forced} / ${masked.free}`);
    run.lines.push(`  without the mask: teacher-forced ${unmasked.forced.toFixed(3)}, written freely ${unmasked.free.toFixed(3)}; with it ${masked.forced.toFixed(3)} / ${masked.free.toFixed(3)}`);

    const { keys, text } = await summaryOf(page, ID, lang);
    const outcome = (row) => outcomeOf({ accuracy: row.forced, generatedAccuracy: row.free });
    assert.equal(keys[0], `summary.unmasked.${outcome(unmasked)}`);
    assert.equal(keys[2], `summary.masked.${outcome(masked)}`);
    for (const share of [unmasked.forced, unmasked.free, masked.forced, masked.free]) {
      assert.ok(shown.includes(formatPercent(share)), `the table shows ${formatPercent(share)}`);
      assert.ok(text.includes(formatPercent(share)), `the text says ${formatPercent(share)}`);
    }

    // The maps: the masked model puts nothing above the diagonal; the sentence says the unmasked share.
    const future = await page.$$eval('#mask-reason-maps .sbs-map', (els) => Object.fromEntries(els.map((e) => [e.dataset.run, Number(e.dataset.future)])));
    assert.equal(future.masked, 0);
    assert.ok(text.includes(formatPercent(future.unmasked)), `the text says the weight above the diagonal, ${formatPercent(future.unmasked)}`);
    assert.ok(await page.locator('#mask-reason-maps details').count() >= 2, 'each map has its table');

    await checkLayout(run.session, page, ID);
    await page.close();
  });
}
