// The attention race (Node and the browser alike): at each n, every contender
// makes one call (its output kept), then all of them race in one interleaved
// race (../harness.mjs) together with the wasm peak kernel, then every kept
// output is checked against the project's double-precision reference. A
// contender whose output is out of tolerance, or whose call failed, gets no
// figure (its timing is dropped; the report prints WRONG or FAILED).
// (The reference is computed after the timing so that its memory is not in
// the figure of afterTiming, the process RSS of the Node run.)
//   contenders: [{ name, role, label, alone?, prepare(problem) -> call (or a promise of it) }]
//   peak:       the wasm peak contender (../wasm-peak.mjs)
//   engine:     a project engine, for the inputs and the reference
//   sizes:      n = m for the whole field; aloneSizes: n for the contenders marked alone
//   afterTiming(n) -> data recorded with the size (Node: the process RSS)
// Returns plain data (JSON): per n, per contender its check and its timing.
import { runRace } from '../harness.mjs';
import { D, TOLERANCE, addReference, checkOutput, makeProblem } from './workload.mjs';

// Rounds and samples per round: several samples where calls are short and noisy,
// one per round where a call takes seconds.
export const ROUNDS = 7;
export const samplesFor = (n) => (n <= 256 ? 9 : n <= 1024 ? 5 : 1);

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// V8 runs wasm first from its baseline compiler and tiers hot functions up in
// the background: run every contender a few times on a small problem and give
// the background compiler a moment before anything is timed.
async function warmUp(contenders, peak, engine) {
  const problem = makeProblem(engine, 128);
  for (let round = 0; round < 3; round++) {
    for (const contender of contenders) {
      try {
        const call = await contender.prepare(problem);
        for (let i = 0; i < 5; i++) await call();
        await call.dispose?.();
      } catch {
        // reported at the first n where it fails again
      }
    }
    peak.call();
    await sleep(200);
  }
}

const errorText = (error) => String(error?.message ?? error).slice(0, 300);

export async function runAttentionRace({ contenders, peak, engine, sizes, aloneSizes = [], rounds = ROUNDS,
  afterTiming, log = () => {} }) {
  const field = (n) => contenders.filter((c) => sizes.includes(n) || c.alone);
  await warmUp(contenders.filter((c) => sizes.length > 0 || c.alone), peak, engine);
  const result = { workload: 'attention', d: D, tolerance: TOLERANCE, rounds, sizes: [] };
  for (const n of [...sizes, ...aloneSizes]) {
    const problem = makeProblem(engine, n);
    const entries = [];
    const racing = [];
    for (const contender of field(n)) {
      const entry = { name: contender.name, role: contender.role, label: contender.label, flopsPerCall: problem.flops,
        build: contender.build, path: contender.path, into: contender.into, library: contender.library };
      entries.push(entry);
      try {
        const call = await contender.prepare(problem);
        entry.dispose = call.dispose;
        const start = performance.now();
        entry.output = await call();
        racing.push({ name: contender.name, call, onceMs: performance.now() - start });
      } catch (error) {
        Object.assign(entry, { ok: false, error: errorText(error) });
        log(`  n=${n} ${contender.name}: FAILED (${entry.error}); not timed`);
      }
    }
    racing.push({ name: peak.name, call: peak.call });
    entries.push({ name: peak.name, role: 'peak', label: peak.label, flopsPerCall: peak.flopsPerCall, ok: true });

    const timings = await runRace(racing, { rounds, samples: samplesFor(n) });
    const measured = afterTiming?.(n);
    addReference(engine, problem);
    for (const entry of entries) {
      await entry.dispose?.();
      delete entry.dispose;
      if ('output' in entry) {
        Object.assign(entry, checkOutput(problem, entry.output));
        delete entry.output;
      }
      const timing = timings.find((t) => t.name === entry.name);
      if (!entry.ok) {
        if (!entry.error) log(`  n=${n} ${entry.name}: WRONG (${entry.failures} elements out of tolerance, max error ${entry.maxError}); no figure`);
        continue;
      }
      Object.assign(entry, { callsPerSample: timing.callsPerSample, medianMs: timing.medianMs, roundMs: timing.roundMs });
      log(`  n=${String(n).padEnd(5)} ${entry.name.padEnd(24)} ${timing.medianMs.toFixed(4).padStart(11)} ms ` +
        `${(entry.flopsPerCall / timing.medianMs / 1e6).toFixed(1).padStart(6)} GFLOP/s` +
        (entry.maxError !== undefined ? `   max error ${entry.maxError.toExponential(1)}` : ''));
    }
    result.sizes.push({ n, m: n, alone: !sizes.includes(n), samplesPerRound: samplesFor(n), ...measured, contenders: entries });
  }
  return result;
}
