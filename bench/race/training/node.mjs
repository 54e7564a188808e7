// The learning races in Node 20 (npm run bench; scripts/bench.sh runs it):
//   node --expose-gc bench/race/training/node.mjs [--out build/bench] [--no-peers]
//     [--only training|transformer|backward ...] [--native build/bench/native/trainer_steps]
//     [--native-march build/bench/native-march/trainer_steps]
// 1. the training race (./race.mjs): steps per second of the project's trainer
//    (SIMD and baseline builds) and of the same model in tfjs (wasm backend,
//    one thread), each in its own worker thread, on both tasks;
// 2. the transformer race (issue 22): the engine's transformer at the issue's
//    shape, the same contenders and, with --native, the project natively
//    (bench/native/trainer_steps, a child process), interleaved in one race;
// 3. the backward pass at n = m = 4096, d = 64 in wasm (./backward.mjs).
// --only runs the ones named (default: all three).
// Writes <out>/training-node.json, <out>/transformer-node.json and
// <out>/backward-node.json (the report: bench/race/training/report.mjs, printed
// by scripts/bench-report.mjs).
// A benchmark, not a test: it prints progress and never fails on a figure.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createTestingEngine } from '../../../web/src/engine/testing.js';
import { trainingContenders, transformerContenders } from './contenders.mjs';
import { runTrainingRace, runTransformerRace } from './race.mjs';
import { runBackwardRace } from './backward.mjs';

const RACES = ['training', 'transformer', 'backward'];
const { values: flags } = parseArgs({
  options: {
    out: { type: 'string', default: 'build/bench' },
    'no-peers': { type: 'boolean', default: false },
    only: { type: 'string', multiple: true, default: RACES },
    native: { type: 'string' },
    'native-march': { type: 'string' },
  },
});
if (typeof globalThis.gc !== 'function') {
  console.error('training race: run with node --expose-gc (a garbage collection is forced before each timed sample)');
  process.exit(2);
}
const unknown = flags.only.filter((name) => !RACES.includes(name));
if (unknown.length) {
  console.error(`training race: --only takes ${RACES.join(', ')}; got ${unknown.join(', ')}`);
  process.exit(2);
}
for (const flag of ['native', 'native-march']) {
  if (flags[flag] && !existsSync(flags[flag])) {
    console.error(`training race: --${flag} ${flags[flag]}: no such program (scripts/bench.sh builds it)`);
    process.exit(2);
  }
}
const log = (line) => process.stderr.write(`${line}\n`);
const engine = await createTestingEngine({ build: 'simd', learning: true });
mkdirSync(flags.out, { recursive: true });

const write = (name, result, loadBefore) => {
  Object.assign(result, { environment: `Node ${process.version}`, loadAverageBefore: loadBefore, loadAverageAfter: loadavg() });
  writeFileSync(join(flags.out, name), `${JSON.stringify(result, null, 1)}\n`);
};
const loadText = (load) => load.map((x) => x.toFixed(2)).join(' ');
const peers = !flags['no-peers'];

let load;
if (flags.only.includes('training')) {
  load = loadavg();
  log(`== training race in Node ${process.version} (worker threads), load average ${loadText(load)}`);
  write('training-node.json', await runTrainingRace({ contenders: trainingContenders({ peers }), engine, log }), load);
}
if (flags.only.includes('transformer')) {
  load = loadavg();
  log(`== transformer race in Node ${process.version} (worker threads${flags.native ? ', native child process' : ''}), ` +
    `load average ${loadText(load)}`);
  const contenders = transformerContenders({ peers, native: flags.native, nativeMarch: flags['native-march'] });
  write('transformer-node.json', await runTransformerRace({ contenders, engine, log }), load);
}
if (flags.only.includes('backward')) {
  load = loadavg();
  log(`== backward pass in wasm (SIMD build), load average ${loadText(load)}`);
  write('backward-node.json', await runBackwardRace({ engine, log }), load);
}
