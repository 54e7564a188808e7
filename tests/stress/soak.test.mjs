// Stress: the soaks of tests/e2e/soak.mjs with 1,000 changes each (npm test
// runs them with 100): a widget's attribute, every widget's first attribute
// (renders superseded), and a box of the page, each set 1,000 times in a row,
// leave no node, listener, document or heap behind and do not slow.
import { before, after } from 'node:test';
import { openSite } from '../e2e/browser.mjs';
import { soakTests } from '../e2e/soak.mjs';

let session;
before(async () => { session = await openSite(); });
after(async () => { await session?.close(); });

soakTests(() => session, 1000);
