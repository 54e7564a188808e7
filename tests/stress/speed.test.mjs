// Stress: the speed runs of tests/e2e/speed.mjs repeated for their medians
// (npm test runs each once or a few times): 5 cold loads to the worked
// example's numbers (target 1 s), every interaction 7 times (main-thread work,
// target 16 ms; input to paint), and section 2's three experiments each rerun
// 7 times with a new seed (target 100 ms). Printed against their targets with
// the load average; asserted only with the wide margins of npm test (a shared
// machine).
import { test, before, after } from 'node:test';
import { openSite } from '../e2e/browser.mjs';
import { coldLoads, interactions, loadAverage, rerunScalingExperiments } from '../e2e/speed.mjs';

let session;
const lines = [];
before(async () => {
  // SPEED_DIST: another build to measure (e.g. an older one, for a before/after).
  session = await openSite(process.env.SPEED_DIST ? { dir: process.env.SPEED_DIST } : {});
});
after(async () => {
  await session?.close();
  console.log(`\nSpeed of the page (${loadAverage()}):`);
  for (const line of lines) console.log(`  ${line}`);
});

test('cold load: the worked example’s numbers on screen, 5 loads', async () => {
  lines.push(...await coldLoads(session, 5));
  lines.push(...await coldLoads(session, 5, 'learns'));
});

test('every interaction, 7 times each', async () => {
  lines.push(...await interactions(session, 7));
});

test('section 2: each experiment rerun 7 times with a new seed', async () => {
  const page = await session.newPage('index.html?lang=en', { width: 1280, height: 900 });
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  await page.waitForSelector('#scaling-trials[data-run]', { timeout: 30000 });
  await page.waitForSelector('#scaling-sweep[data-run]', { timeout: 30000 });
  await page.locator('#scaling').scrollIntoViewIfNeeded();
  lines.push(...await rerunScalingExperiments(page, 7));
  await page.close();
});
