// The wasm race in Node 20 (npm run bench; scripts/bench.sh runs it):
//   node --expose-gc scripts/bench-wasm.mjs [--json out.json] [--sizes 64,256,1024,4096]
//        [--alone 16384] [--peak build/bench/f32x4-peak.wasm] [--no-peers]
// One process, one interleaved race (bench/race/attention/race.mjs) of the
// project (both builds: tiled, full, trace), tfjs and onnxruntime-web (each in
// its best single-thread form, bench/peers/node.mjs) and the wasm f32x4 peak,
// d = 64, at each n of --sizes. Then, in a fresh child process, the project
// alone (SIMD build, tiled path) at each n of --alone, with the process's peak
// RSS (the tiled path must stay O(n)). A benchmark, not a test: it writes the
// figures (JSON) and prints progress; scripts/bench-report.mjs prints the tables.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createTestingEngine } from '../web/src/engine/testing.js';
import { projectContenders } from '../bench/race/attention/project.mjs';
import { tfjsContender } from '../bench/race/attention/tfjs.mjs';
import { ortContenders } from '../bench/race/attention/onnxruntime.mjs';
import { runAttentionRace } from '../bench/race/attention/race.mjs';
import { wasmPeakContender } from '../bench/race/wasm-peak.mjs';

const { values: flags } = parseArgs({
  options: {
    json: { type: 'string' },
    sizes: { type: 'string', default: '64,256,1024,4096' },
    alone: { type: 'string', default: '16384' },
    peak: { type: 'string', default: fileURLToPath(new URL('../build/bench/f32x4-peak.wasm', import.meta.url)) },
    'no-peers': { type: 'boolean', default: false },
    'alone-child': { type: 'boolean', default: false },  // internal: this process is the child
  },
});
const list = (text) => (text ? text.split(',').filter(Boolean).map(Number) : []);
const log = (line) => process.stderr.write(`${line}\n`);
const MiB = 1024 * 1024;
// The process's resident set now and at its highest. The peak is VmHWM of
// /proc/self/status (this process's own memory map), not getrusage's maxRSS,
// which Linux carries over from the parent through fork and exec.
function memory() {
  let peakKiB = process.resourceUsage().maxRSS;
  try {
    peakKiB = Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
  } catch { /* not Linux: maxRSS */ }
  return { rssMiB: process.memoryUsage().rss / MiB, peakRssMiB: (peakKiB * 1024) / MiB };
}

if (typeof globalThis.gc !== 'function') {
  console.error('bench-wasm: run with node --expose-gc (a garbage collection is forced before each timed sample)');
  process.exit(2);
}

const peak = await wasmPeakContender(readFileSync(flags.peak));

if (flags['alone-child']) {
  // The project alone: only the SIMD build is loaded, so that the process RSS
  // is the tiled path's (plus Node's own, printed as rssAtStartMiB).
  const atStart = memory();
  const simd = await createTestingEngine({ build: 'simd' });
  const result = await runAttentionRace({
    contenders: projectContenders({ simd }), peak, engine: simd, sizes: [], aloneSizes: list(flags.alone),
    afterTiming: () => ({ rssAtStartMiB: atStart.rssMiB, ...memory() }), log,
  });
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
}

const loadBefore = loadavg();
const [simd, baseline] = await Promise.all([createTestingEngine({ build: 'simd' }), createTestingEngine({ build: 'baseline' })]);
const contenders = projectContenders({ simd, baseline });
if (!flags['no-peers']) {
  const { loadPeers } = await import('../bench/peers/node.mjs');
  const { tf, ort, modelBytes } = await loadPeers();
  contenders.push(tfjsContender(tf), ...ortContenders(ort, { modelBytes }));
}
log(`== wasm race in Node ${process.version}, load average ${loadBefore.map((x) => x.toFixed(2)).join(' ')}`);
const result = await runAttentionRace({ contenders, peak, engine: simd, sizes: list(flags.sizes), log });

const aloneSizes = list(flags.alone);
if (aloneSizes.length > 0) {
  log(`== the project alone at n = ${aloneSizes.join(', ')}, in a fresh Node process (its peak RSS)`);
  const child = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--alone-child',
    '--alone', flags.alone, '--peak', flags.peak], { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * MiB });
  if (child.status !== 0) throw new Error(`bench-wasm: the alone run failed (exit ${child.status})`);
  result.sizes.push(...JSON.parse(child.stdout.toString()).sizes);
}

Object.assign(result, {
  environment: `Node ${process.version}`,
  contenders: Object.fromEntries([...contenders, peak].map((c) => [c.name, c.label])),
  loadAverageBefore: loadBefore,
  loadAverageAfter: loadavg(),
});
if (flags.json) writeFileSync(flags.json, `${JSON.stringify(result, null, 1)}\n`);
else console.log(JSON.stringify(result, null, 1));
