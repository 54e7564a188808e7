// The work formulas are written where callers read them (README.md's table,
// the engine's declarations in index.d.ts) as copies of the ones the engine
// computes (web/src/engine/work-limits.js): every formula the engine uses
// appears in both, verbatim, so that a formula changed in one place and not
// the others fails here.
import { test, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { WORK } from '../../web/src/engine/work-limits.js';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

test.each(['README.md', 'web/src/engine/index.d.ts'])('%s writes every work formula as the engine computes it', (path) => {
  const text = read(path);
  // (Not randomStream and attentionBackward's 'reference' path: the test entry's only.)
  const missing = Object.entries(WORK).filter(([kind]) => !['randomStream', 'attentionBackwardReference'].includes(kind))
    .filter(([, { formula }]) => !text.includes(formula)).map(([kind]) => kind);
  expect(missing).toEqual([]);
});
