// A trainer that is garbage collected without dispose() frees its C++ trainer
// (a FinalizationRegistry in web/src/engine/trainer.js): 40 trainers of
// dModel 256 (about 4 MB of wasm memory each once stepped) dropped one after
// another leave the wasm memory as it was, where 40 kept ones grow it by more
// than 100 MB. In a child process with --expose-gc (a collection on demand).
import { it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./workers/leaked-trainers.mjs', import.meta.url));
const run = (...args) => JSON.parse(execFileSync(process.execPath, ['--expose-gc', SCRIPT, ...args], { encoding: 'utf8' }));
const MiB = 1024 * 1024;

it('dropped trainers are freed; kept ones are not (the measure can tell them apart)', () => {
  const dropped = run('40');
  const kept = run('40', 'keep');
  expect(kept.after - kept.before).toBeGreaterThan(100 * MiB);
  expect(dropped.after - dropped.before).toBeLessThan(16 * MiB);
});
