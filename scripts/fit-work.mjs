// Measures each work formula of web/src/engine/work-limits.js against the time
// its call takes, in Node, with the SIMD and the baseline builds, and prints
// the ratio per call: measured time / (units x the reference time of a unit).
// The reference is the median nanoseconds per unit over the baseline build's
// calls that take at least 1 ms (a call under that is its fixed cost, a few
// microseconds, which no limit is about). A formula that counts its call's
// work right has ratios near 1 on every shape; one that misses a term shows it
// as ratios that grow on the shapes where that term dominates. Per formula it
// prints the range of its ratios and the factor that would centre them.
//
//   node scripts/fit-work.mjs [--build simd|baseline] [--only <formula name>]
//
// Times are CPU seconds of this process (process.cpuUsage), so that other
// work on the machine does not count; the load average is printed.
import os from 'node:os';
import { createTestingEngine } from '../web/src/engine/testing.js';
import { WORK, WORK_LIMIT } from '../web/src/engine/work-limits.js';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const builds = option('--build') ? [option('--build')] : ['simd', 'baseline'];
const only = option('--only');

// Deterministic inputs: uniform in [-1, 1).
function floats(count, seed = 1) {
  const out = new Float32Array(count);
  let s = seed >>> 0;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 31 - 1;
  }
  return out;
}
// Rows that sum to 1 (a probability vector of `length`).
const probabilities = (length) => {
  const p = floats(length).map((x) => x + 1.5);
  const sum = p.reduce((a, b) => a + b, 0);
  return p.map((x) => x / sum);
};

const attentionArgs = ({ n, m, dk, dv }) => ({ q: floats(n * dk, 1), k: floats(m * dk, 2), v: floats(m * dv, 3), n, m, dk, dv });
const shapes = (list) => list.map(([n, m, dk, dv]) => ({ n, m, dk, dv }));

// Each case: the formula, a label, the formula's values, and a function that
// prepares the call (arguments made outside the timing) and returns it.
function cases() {
  const list = [];
  const add = (kind, label, values, prepare) => list.push({ kind, label, values, prepare });
  const fast = shapes([[256, 256, 64, 64], [1024, 1024, 16, 16], [2048, 64, 8, 8], [64, 2048, 128, 128], [1024, 1024, 1, 1], [4096, 4096, 4, 4]]);
  for (const path of ['tiled', 'full', 'scalar']) {
    for (const s of fast) {
      add(path === 'full' ? 'attentionTrace' : 'attentionFast', `attentionOutput ${path} ${s.n}x${s.m} d ${s.dk}`, s, (e) => {
        const a = { ...attentionArgs(s), path, longRunning: true };
        return () => e.attentionOutput(a);
      });
    }
  }
  for (const s of shapes([[256, 256, 64, 64], [512, 512, 8, 8], [1024, 64, 32, 32], [64, 1024, 128, 128]])) {
    add('attentionTrace', `attention ${s.n}x${s.m} d ${s.dk}`, s, (e) => {
      const a = { ...attentionArgs(s), longRunning: true };
      return () => e.attention(a);
    });
    add('attentionReference', `attentionReference ${s.n}x${s.m} d ${s.dk}`, s, (e) => {
      const a = { ...attentionArgs(s), longRunning: true };
      return () => e.attentionReference(a);
    });
    add('attentionReference', `attentionOutput reference ${s.n}x${s.m} d ${s.dk}`, s, (e) => {
      const a = { ...attentionArgs(s), path: 'reference', longRunning: true };
      return () => e.attentionOutput(a);
    });
  }
  for (const [n, m, dModel, heads] of [[128, 128, 64, 4], [512, 512, 32, 8], [64, 64, 256, 8], [256, 16, 128, 1], [1024, 1024, 8, 8]]) {
    add('multiHead', `multiHead ${n}x${m} dModel ${dModel} heads ${heads}`, { n, m, dModel, heads }, (e) => {
      const w = () => floats(dModel * dModel, dModel);
      const a = { x: floats(n * dModel), context: floats(m * dModel, 5), heads, wq: w(), wk: w(), wv: w(), wo: w(), n, m, dModel, longRunning: true };
      return () => e.multiHead(a);
    });
  }
  for (const [trials, dk, queries, keys] of [[200, 512, 1, 10], [2000, 64, 8, 8], [50, 1024, 8, 8], [200, 4, 64, 64]]) {
    add('saturation', `saturation trials ${trials} dk ${dk} ${queries}x${keys}`, { trials, dk, queries, keys },
      (e) => () => e.saturation({ trials, dk, queries, keys, seed: 1, longRunning: true }));
  }
  for (const [kind, formula] of [['dot', 'scoresDot'], ['scaledDot', 'scoresDot'], ['general', 'scoresGeneral']]) {
    for (const [n, m, ds, dh] of [[512, 512, 64, 64], [2048, 2048, 4, 4], [64, 4096, 256, 256]]) {
      add(formula, `scores ${kind} ${n}x${m} d ${ds}`, { n, m, ds, dh }, (e) => {
        const a = { kind, s: floats(n * ds), h: floats(m * dh, 2), wa: kind === 'general' ? floats(ds * dh, 3) : undefined, n, m, ds, dh, longRunning: true };
        return () => e.scores(a);
      });
    }
  }
  for (const [n, m, ds, dh, da] of [[128, 128, 32, 32, 32], [512, 512, 8, 8, 4], [64, 64, 256, 256, 256]]) {
    add('scoresAdditive', `scores additive ${n}x${m} d ${ds} da ${da}`, { n, m, ds, dh, da }, (e) => {
      const a = { kind: 'additive', s: floats(n * ds), h: floats(m * dh, 2), wa: floats(da * ds, 3), ua: floats(da * dh, 4), va: floats(da, 5), n, m, ds, dh, da, longRunning: true };
      return () => e.scores(a);
    });
  }
  for (const [n, m, dh] of [[512, 512, 64], [2048, 2048, 4], [64, 4096, 256]]) {
    add('context', `context ${n}x${m} dh ${dh}`, { n, m, dh }, (e) => {
      const a = { alignment: floats(n * m), h: floats(m * dh, 2), n, m, dh, longRunning: true };
      return () => e.context(a);
    });
  }
  for (const [rows, cols] of [[1024, 1024], [1, 1 << 20], [1 << 18, 4]]) {
    add('softmax', `softmax ${rows}x${cols}`, { rows, cols }, (e) => {
      const logits = floats(rows * cols);
      return () => e.softmax(logits, rows, cols, { longRunning: true });
    });
  }
  for (const length of [1 << 16, 1 << 20]) {
    add('rowStats', `rowStats ${length}`, { length }, (e) => {
      const p = probabilities(length);
      return () => e.rowStats(p, { longRunning: true });
    });
  }
  for (const length of [256, 1024, 2048]) {
    add('softmaxJacobian', `softmaxJacobian ${length}`, { length }, (e) => {
      const p = probabilities(length);
      return () => e.softmaxJacobian(p, { longRunning: true });
    });
  }
  for (const [n, dModel] of [[1024, 512], [65536, 4], [16, 16384]]) {
    add('positionalEncoding', `positionalEncoding ${n}x${dModel}`, { n, dModel },
      (e) => () => e.positionalEncoding(n, dModel, { longRunning: true }));
  }
  for (const [rows, cols] of [[1024, 1024], [1 << 20, 1]]) {
    add('randomNormal', `randomNormal ${rows}x${cols}`, { rows, cols }, (e) => () => e.randomNormal({ seed: 1, rows, cols, longRunning: true }));
  }
  add('randomStream', 'randomStream 1e6', { count: 1e6 }, (e) => () => e.randomStream({ seed: 1, count: 1e6, longRunning: true }));
  for (const [path, formula] of [['tiled', 'attentionBackwardTiled'], ['full', 'attentionBackwardFull'], ['reference', 'attentionBackwardReference']]) {
    for (const s of shapes(path === 'reference' ? [[128, 128, 64, 64], [512, 64, 8, 8]] : [[256, 256, 64, 64], [1024, 1024, 16, 16], [64, 1024, 128, 128], [1024, 1024, 1, 1]])) {
      add(formula, `attentionBackward ${path} ${s.n}x${s.m} d ${s.dk}`, s, (e) => {
        const a = { ...attentionArgs(s), gradOutput: floats(s.n * s.dv, 9), path, longRunning: true };
        return () => e.attentionBackward(a);
      });
    }
  }
  // The trainer: tiny models (where a step's own cost is all there is), the
  // default ones, wide ones, large batches.
  const trainerShapes = [
    ['reverse', 1, 1, 1, 2000], ['translate', 1, 1, 1, 2000], ['reverse', 4, 1, 4, 1000], ['reverse', 32, 2, 32, 100],
    ['translate', 32, 2, 32, 100], ['translate', 256, 4, 32, 4], ['reverse', 64, 8, 256, 4], ['translate', 1024, 8, 4, 1],
    ['reverse', 8, 2, 1024, 8],
  ];
  for (const [task, dModel, heads, batchSize, count] of trainerShapes) {
    const label = `${task} dModel ${dModel} heads ${heads} batch ${batchSize}`;
    const sizesOf = (t) => ({ batchSize, dModel, heads, S: t.sourceLength, T: t.targetLength, V: t.vocabulary.target.length, parameters: t.parameterCount, heldOut: t.heldOut });
    const make = (e) => e.createTrainer({ task, seed: 1, dModel, heads, batchSize, longRunning: true });
    list.push({
      kind: 'trainerStep', label: `step(${count}) ${label}`, prepare: (e) => {
        const t = make(e);
        t.step(1);
        return Object.assign(() => t.step(count), { values: { ...sizesOf(t), count }, done: () => t.dispose() });
      },
    });
    list.push({
      kind: 'trainerEvaluate', label: `evaluate() ${label}`, prepare: (e) => {
        const t = make(e);
        t.evaluate();
        return Object.assign(() => t.evaluate(), { values: sizesOf(t), done: () => t.dispose() });
      },
    });
    list.push({
      kind: 'trainerCreate', label: `createTrainer ${label}`, prepare: (e) => {
        const t = make(e);
        const values = sizesOf(t);
        t.dispose();
        return Object.assign(() => make(e).dispose(), { values });
      },
    });
  }
  return only ? list.filter((c) => c.kind === only) : list;
}

// Median CPU milliseconds of one call: calls in a row until 40 ms (at least 3, at most 50).
function timeCall(call) {
  call();
  const times = [];
  let total = 0;
  while (times.length < 3 || (total < 40 && times.length < 50)) {
    const before = process.cpuUsage();
    call();
    const used = process.cpuUsage(before);
    const ms = (used.user + used.system) / 1000;
    times.push(ms);
    total += ms;
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const results = [];
for (const build of builds) {
  const engine = await createTestingEngine({ build, learning: true });
  for (const c of cases()) {
    const call = c.prepare(engine);
    const values = c.values ?? call.values;
    const units = WORK[c.kind].of(values);
    const ms = timeCall(call);
    call.done?.();
    results.push({ build, kind: c.kind, label: c.label, units, ms, nsPerUnit: (ms * 1e6) / units });
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] + s[Math.ceil((s.length - 1) / 2)]) / 2 : NaN;
};
const counted = (r) => r.ms >= 1;
const referenceBuild = builds.includes('baseline') ? 'baseline' : builds[0];
const reference = median(results.filter((r) => r.build === referenceBuild && counted(r)).map((r) => r.nsPerUnit));

console.log(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ${os.cpus().length} CPUs (${os.cpus()[0]?.model})`);
console.log(`reference: ${reference.toFixed(3)} ns per unit (the ${referenceBuild} build's median over calls >= 1 ms); ` +
  `WORK_LIMIT = 2^32 units = ${(WORK_LIMIT * reference / 1e9).toFixed(2)} s at it`);
console.log('ratio = measured CPU time / (units x reference); calls under 1 ms are marked ~ (their fixed cost dominates)\n');
for (const build of builds) {
  console.log(`== ${build}`);
  console.log(`${'call'.padEnd(58)} ${'units'.padStart(13)} ${'ms'.padStart(9)} ${'ratio'.padStart(7)}`);
  for (const r of results.filter((x) => x.build === build)) {
    const ratio = r.nsPerUnit / reference;
    console.log(`${r.label.padEnd(58)} ${r.units.toExponential(2).padStart(13)} ${r.ms.toFixed(2).padStart(9)} ` +
      `${ratio.toFixed(2).padStart(7)}${counted(r) ? '' : ' ~'}`);
  }
  console.log();
}
console.log('== per formula: the range of its ratios over calls >= 1 ms, and the factor that centres them (their median)');
for (const kind of Object.keys(WORK)) {
  for (const build of builds) {
    const ratios = results.filter((r) => r.kind === kind && r.build === build && counted(r)).map((r) => r.nsPerUnit / reference);
    if (!ratios.length) continue;
    console.log(`${kind.padEnd(28)} ${build.padEnd(9)} ${Math.min(...ratios).toFixed(2).padStart(6)} - ` +
      `${Math.max(...ratios).toFixed(2).padStart(6)}   x${median(ratios).toFixed(2)}   ${WORK[kind].formula}`);
  }
}
const all = results.filter(counted).map((r) => r.nsPerUnit / reference);
console.log(`\nevery formula, both builds: ratios ${Math.min(...all).toFixed(2)} - ${Math.max(...all).toFixed(2)}; ` +
  `the slowest call at WORK_LIMIT would take ${(WORK_LIMIT * reference * Math.max(...all) / 1e9).toFixed(2)} s`);
