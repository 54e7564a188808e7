// Section "gradients", the decisive experiment: the same model (section
// "learning"'s, on the translation task) trained twice from the same seed on
// the same batches, once with the scores divided by sqrt(d_k) and once
// without, at a d_k the reader chooses. One head, so d_k = d_model. Pure
// functions: the runs themselves go through src/training/ (a worker each).
//
// Measured natively while choosing the widths (seeds 1-4, 400 steps, one
// head): steps to 95% held-out accuracy, scaled against unscaled, 108 / 158
// at d_k = 16, 68 / 178 at 32, 30 / 135 at 64, 25 / 122 at 128.

export const TRAIN_DIMENSIONS = Object.freeze([8, 16, 32, 64, 128]);
export const STEP_CHOICES = Object.freeze([100, 200, 500, 1000]);
export const TARGET_ACCURACY = 0.95;
export const EVALUATIONS = 20;   // held-out evaluations per run: every steps/20 steps
export const TASK = 'translate';

export const RUNS = Object.freeze(['scaled', 'raw']);
// The runs before their first message: { scaled: { points, step, done }, raw: ... }.
export const emptyRuns = () => Object.fromEntries(RUNS.map((run) => [run, { points: [], step: 0, done: false }]));

// createTrainer's options of one run.
export function runOptions({ dk, seed }, run) {
  return { task: TASK, seed, heads: 1, dModel: dk, scale: run === 'scaled' };
}

export const evaluateEvery = (steps) => Math.max(1, Math.round(steps / EVALUATIONS));

// The first step at which the held-out accuracy reached `target`, or null.
export function firstReaching(points, target = TARGET_ACCURACY) {
  return points.find((p) => p.accuracy >= target)?.step ?? null;
}

// The sentences that compare the two finished runs, as keys of the section's
// strings with their numbers: each claim only as far as the runs show it.
// runs: { scaled: points, raw: points } (points as in src/training/training-service.js).
export function compareRuns(runs, { steps, target = TARGET_ACCURACY }) {
  const a = firstReaching(runs.scaled, target);
  const b = firstReaching(runs.raw, target);
  const end = (points) => points[points.length - 1];
  const [ea, eb] = [end(runs.scaled), end(runs.raw)];
  const params = { target, steps, a, b, accScaled: ea.accuracy, accRaw: eb.accuracy };
  let key;
  if (a !== null && b !== null) {
    // A step count within a quarter of the other's is "about as fast".
    if (b > 1.25 * a) key = 'scaledFaster';
    else if (a > 1.25 * b) key = 'rawFaster';
    else key = 'same';
    params.times = key === 'rawFaster' ? a / b : b / a;
  } else if (a !== null) {
    key = 'onlyScaled';
  } else if (b !== null) {
    key = 'onlyRaw';
  } else {
    key = 'neither';
  }
  return [
    { key: `experiment.summary.${key}`, params },
    { key: 'experiment.summary.loss', params: { steps, lossScaled: ea.heldOutLoss, lossRaw: eb.heldOutLoss } },
  ];
}
