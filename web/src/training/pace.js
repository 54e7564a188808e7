// How fast a training run goes, as the reader watches it (section "learning").
// Pure functions: tested in Node (tests/js/training.test.js).
//
// Paced: the first steps, where the alignment forms, one per message, so that
// the heatmap shows each of them; then more steps per message the longer the
// run, so that the step count grows by about 1/RAMP per message (doubling
// every ~9 messages, about 0.3 s at one message per FRAME_MS):
//
//   steps in message k+1 = max(1, ceil(step / RAMP))
//
// From step 0 this reaches step 12 after 0.4 s, 100 after about 1.3 s and
// 1000 after about 2.3 s, when a step takes well under a millisecond; the
// work of one message is also capped at batchMs (a wide model is slower).
// Unpaced (the experiment of section "gradients"): as many steps as fit in
// batchMs, one message per batch.

export const RAMP = 12;
export const FRAME_MS = 33;   // at most one paced message per 33 ms (30 per second)

export function pacedSteps(step) {
  return Math.max(1, Math.ceil(step / RAMP));
}

// The most steps of the batch that starts at `step` (at most `until - step`);
// Infinity: only the time limit ends the batch.
export function batchLimit(step, { until, paced }) {
  let limit = paced ? pacedSteps(step) : Infinity;
  if (until !== undefined) limit = Math.min(limit, until - step);
  return Math.max(0, limit);
}

// Whether a point (a held-out evaluation) is taken after `step` within a
// batch: at every multiple of `evaluateEvery` and at `until`. Without
// `evaluateEvery`, a point ends every batch instead.
export function evaluatesAt(step, { evaluateEvery, until }) {
  return step === until || (evaluateEvery > 0 && step % evaluateEvery === 0);
}
