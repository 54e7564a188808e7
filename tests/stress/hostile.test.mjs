// Stress: the hostile values of tests/e2e/hostile.mjs in every round (npm test
// runs two): over the rounds each parameter of each section meets each value,
// in the page's URL and as widget attributes, and each section's first
// parameter a long one; and typed into every text box of every section (npm
// test: a box of each kind). The same checks as npm test's.
import { before, after } from 'node:test';
import { ALL_ROUNDS, hostileRoundTests, openHostileSite } from '../e2e/hostile.mjs';

let session;
before(async () => { session = await openHostileSite(); });
after(async () => { await session?.close(); });

hostileRoundTests(() => session, { rounds: Array.from({ length: ALL_ROUNDS }, (_, r) => r), everyBox: true });
