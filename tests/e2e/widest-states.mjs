// The walkthrough in its widest states, for what must see its largest layout
// (accessibility.test.mjs: axe and no sideways scroll at 375 px; the stress
// screenshots, tests/stress/screenshots.test.mjs): eight heads, the scaling
// off, the positional encodings on, and what only a run shows: the
// benchmark's table, n up to 128. `page` is the walkthrough, ready.
export async function showWidestStates(page) {
  await page.waitForSelector('#scaling-sweep[data-run]', { timeout: 30000 });
  await page.locator('#multi-head input[type="radio"][value="8"]').check();
  await page.locator('#worked-example button[role="switch"]').click();
  await page.click('#order-pe-toggle');
  await page.click('#cost-largest label:has-text("128")');
  await page.click('#cost-bench button[data-action="run"]');
  await page.waitForSelector('#cost-bench[data-state="done"]', { timeout: 90000 });
}
