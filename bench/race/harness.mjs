// The interleaved race, for Node and the browser alike (any workload):
//
//   for round r = 1..rounds:
//     for sample s = 1..samples:
//       for each contender, in an order rotated every sample:
//         force a garbage collection (not timed), then time one sample:
//         `callsPerSample` calls in a row (chosen at warm-up from the steady
//         time of a call, so that one sample lasts >= minSampleMs; 1 for any
//         call longer than that)
//     round median of each contender = median of its samples (ms per call)
//   figure = median over rounds of the round medians;
//   ratio A/B = median over rounds of (round median A / round median B) (pairedRatio),
//   so that both sides of a ratio come from the same minutes of a shared machine.
//
// A contender: { name, call, onceMs? } where call() runs one call and returns its
// result (or a promise of it: only asynchronous calls are awaited). onceMs, the
// time of a call already made (the correctness check): when it is >= 50 ms the
// warm-up and calibration calls are skipped (one call per sample anyway).
// The native race (bench/native/race.hpp) follows the same method.

// Node: run with --expose-gc; Chromium: --js-flags=--expose-gc.
export function forceGc() {
  if (typeof globalThis.gc !== 'function') {
    throw new Error('race: globalThis.gc is missing; run Node with --expose-gc (Chromium: --js-flags=--expose-gc)');
  }
  globalThis.gc();
}

export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// How many times slower a is than b: median over rounds of a.roundMs[r] / b.roundMs[r].
export function pairedRatio(a, b) {
  const rounds = Math.min(a.roundMs.length, b.roundMs.length);
  return median(Array.from({ length: rounds }, (_, r) => a.roundMs[r] / b.roundMs[r]));
}

// The faster of several timings in each round, as one timing (e.g. the project's
// best path, or the best peer): { names, roundMs, medianMs }. Timings without
// rounds (not timed) are skipped; null when none is left.
export function bestPerRound(timings) {
  const timed = timings.filter((t) => t?.roundMs?.length);
  if (timed.length === 0) return null;
  const rounds = Math.min(...timed.map((t) => t.roundMs.length));
  const roundMs = Array.from({ length: rounds }, (_, r) => Math.min(...timed.map((t) => t.roundMs[r])));
  return { names: timed.map((t) => t.name), roundMs, medianMs: median(roundMs) };
}

const isThenable = (value) => value !== null && typeof value === 'object' && typeof value.then === 'function';

// Runs `callsPerSample` calls; returns ms per call.
async function timeSample(call, callsPerSample) {
  forceGc();
  const start = performance.now();
  for (let i = 0; i < callsPerSample; i++) {
    const result = call();
    if (isThenable(result)) await result;
  }
  return (performance.now() - start) / callsPerSample;
}

// ms per call in a steady run: calls in a row (no collection forced between
// them) until `atLeastMs` have passed. The first call after a collection is
// slower than the rest (Node 20, n = 64: the project's ~0.12 ms against ~0.04),
// so a single call after forceGc() would overstate a short call several times
// over and give samples far shorter than minSampleMs.
async function steadyMs(call, atLeastMs) {
  forceGc();
  await call();
  let calls = 0;
  const start = performance.now();
  do {
    const result = call();
    if (isThenable(result)) await result;
    calls++;
  } while (performance.now() - start < atLeastMs);
  return (performance.now() - start) / calls;
}

// contenders: [{ name, call, onceMs? }] -> [{ name, callsPerSample, roundMs, medianMs }]
export async function runRace(contenders, { rounds = 5, samples = 5, minSampleMs = 1 } = {}) {
  const timings = [];
  for (const { name, call, onceMs } of contenders) {
    let once = onceMs;
    if (!(once >= 50)) {
      await timeSample(call, 1);  // warm-up
      once = await steadyMs(call, 4 * minSampleMs);
    }
    timings.push({ name, callsPerSample: once >= minSampleMs ? 1 : Math.ceil(minSampleMs / Math.max(once, 1e-3)), roundMs: [] });
  }
  for (let round = 0; round < rounds; round++) {
    const sampleMs = contenders.map(() => []);
    for (let sample = 0; sample < samples; sample++) {
      for (let i = 0; i < contenders.length; i++) {
        const c = (i + sample + round) % contenders.length;
        sampleMs[c].push(await timeSample(contenders[c].call, timings[c].callsPerSample));
      }
    }
    sampleMs.forEach((ms, c) => timings[c].roundMs.push(median(ms)));
  }
  for (const timing of timings) timing.medianMs = median(timing.roundMs);
  return timings;
}
