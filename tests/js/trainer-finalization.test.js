// What a trainer never disposed costs (web/src/engine/trainer.js). WebAssembly
// memory never shrinks, so the live trainers of one engine may hold at most
// TRAINER_MEMORY_LIMIT bytes (as the core counts them: Trainer::footprint);
// beyond, createTrainer is a RangeError saying to dispose(). A trainer that is
// garbage collected without dispose() is freed by a FinalizationRegistry, and
// then counts no more. In child processes with --expose-gc (a collection on
// demand).
import { it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TRAINER_MEMORY_LIMIT } from '../../web/src/engine/index.js';

const SCRIPT = fileURLToPath(new URL('./workers/leaked-trainers.mjs', import.meta.url));
const run = (...args) => JSON.parse(execFileSync(process.execPath, ['--expose-gc', SCRIPT, ...args], { encoding: 'utf8' }));
const MiB = 1024 * 1024;

it('dropped trainers are freed and count no more', () => {
  const dropped = run('dropped', '40');
  expect(dropped.after - dropped.before).toBeLessThan(16 * MiB);
  expect(dropped.live).toBe(0);
});

it('kept trainers are refused beyond the limit, naming createTrainer and dispose(); once collected, they count no more', () => {
  const kept = run('kept');
  expect(kept.kept).toBeGreaterThan(2);
  expect(kept.live).toBe(kept.kept);
  expect(kept.error).toMatch(/^RangeError: createTrainer: this trainer needs [\d.]+ MiB of WebAssembly memory, and the \d+ live trainers of this engine hold [\d.]+ MiB, of the 256\.0 MiB the trainers of one engine may hold: dispose\(\) the trainers you no longer use/);
  // The measure can tell kept from dropped: they grew the memory, within the limit.
  expect(kept.after - kept.before).toBeGreaterThan(32 * MiB);
  expect(kept.after - kept.before).toBeLessThan(TRAINER_MEMORY_LIMIT + 16 * MiB);
  expect(kept.liveAfterCollection).toBe(0);
  expect(kept.madeAgain).toBe(true);
});

// Issue 25: this loop grew the memory from 16 MB to 1,091 MB, for good.
it("2,000 trainers made and never disposed in a loop: refused at the limit, the memory bounded by it", () => {
  const loop = run('loop', '2000');
  expect(loop.created).toBeLessThan(2000);
  expect(loop.error).toMatch(/^RangeError: createTrainer: .* dispose\(\) the trainers you no longer use/);
  expect(loop.after - loop.before).toBeLessThan(TRAINER_MEMORY_LIMIT + 16 * MiB);
});
