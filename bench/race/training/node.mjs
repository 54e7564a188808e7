// The learning races in Node 20 (npm run bench; scripts/bench.sh runs it):
//   node --expose-gc bench/race/training/node.mjs [--out build/bench] [--no-peers] [--no-backward]
// 1. the training race (./race.mjs): steps per second of the project's trainer
//    (SIMD and baseline builds) and of the same model in tfjs (wasm backend,
//    one thread), each in its own worker thread, on both tasks;
// 2. the backward pass at n = m = 4096, d = 64 in wasm (./backward.mjs).
// Writes <out>/training-node.json and <out>/backward-node.json (the report:
// bench/race/training/report.mjs, printed by scripts/bench-report.mjs).
// A benchmark, not a test: it prints progress and never fails on a figure.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createTestingEngine } from '../../../web/src/engine/testing.js';
import { trainingContenders } from './contenders.mjs';
import { runTrainingRace } from './race.mjs';
import { runBackwardRace } from './backward.mjs';

const { values: flags } = parseArgs({
  options: {
    out: { type: 'string', default: 'build/bench' },
    'no-peers': { type: 'boolean', default: false },
    'no-backward': { type: 'boolean', default: false },
  },
});
if (typeof globalThis.gc !== 'function') {
  console.error('training race: run with node --expose-gc (a garbage collection is forced before each timed sample)');
  process.exit(2);
}
const log = (line) => process.stderr.write(`${line}\n`);
const engine = await createTestingEngine({ build: 'simd', learning: true });
mkdirSync(flags.out, { recursive: true });

const write = (name, result, loadBefore) => {
  Object.assign(result, { environment: `Node ${process.version}`, loadAverageBefore: loadBefore, loadAverageAfter: loadavg() });
  writeFileSync(join(flags.out, name), `${JSON.stringify(result, null, 1)}\n`);
};

let load = loadavg();
log(`== training race in Node ${process.version} (worker threads), load average ${load.map((x) => x.toFixed(2)).join(' ')}`);
write('training-node.json', await runTrainingRace({ contenders: trainingContenders({ peers: !flags['no-peers'] }), engine, log }), load);

if (!flags['no-backward']) {
  load = loadavg();
  log(`== backward pass in wasm (SIMD build), load average ${load.map((x) => x.toFixed(2)).join(' ')}`);
  write('backward-node.json', await runBackwardRace({ engine, log }), load);
}
