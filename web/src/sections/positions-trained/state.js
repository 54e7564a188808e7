// Section "positions-trained": attention is blind to order until positions are
// added. One transformer (model 'transformer', encoder-decoder) trained twice
// from one seed on digit reversal, without positions (positions: 'none') and
// with them ('sinusoidal' or 'learned'), side by side in two workers
// (src/sections/side-by-side-panel.js). Plain module, no DOM: it plans the
// runs, computes what a model that knows only which digits occur could score,
// reads the cross-attention maps and picks every sentence from the numbers.
//
// Without positions the encoder's outputs are a function of each digit and the
// set of digits around it, the same wherever the digit stands: the decoder can
// tell which digits the source holds, not in which order.
//
// Sizes (measured in Node, SIMD build, load 1-8 on 2 cores): dModel 16, 2 heads,
// 1 layer, batches of 32: with sinusoidal positions 99% written freely on 64
// held-out sequences within 175-200 steps (seeds 1-3; learned positions
// 100-150), 4-9 ms a step; without, written freely 0.22-0.26 from step 100 to
// step 1,000 (teacher-forced climbing to 0.5). Natively at the default sizes:
// none 0.22, sinusoidal 1.0.
import { averageHeads, lastLayerOf } from '../../training/side-by-side.js';
import { formatNumber, formatPercent } from '../../lib/format.js';

export const SOURCE_LENGTH = 8;
export const DIGITS = 10;
export const MODEL = Object.freeze({ task: 'reverse', model: 'transformer', sourceLength: SOURCE_LENGTH, dModel: 16, heads: 2, layers: 1, batchSize: 32 });
export const RUNS = Object.freeze(['none', 'positioned']);
export const POSITIONS = Object.freeze(['sinusoidal', 'learned']);
// Each run trains until its accuracy written freely on the first EXAMPLES
// held-out sequences (every EVALUATE_EVERY steps) reaches TARGET, or MAX_STEPS
// (the run without positions is flat from step 100: 500 is five times that,
// and more than twice what the run with positions needs); then it is evaluated
// on all of them.
export const TARGET = 0.99;
export const EVALUATE_EVERY = 25;
export const EXAMPLES = 64;
export const MAX_STEPS = 500;
// The words: a run "learns" reversal at LEARNED written freely or more; one
// without order "guesses" when it is no more than NEAR above the commonest-digit guess.
export const LEARNED = 0.95;
export const NEAR = 0.05;
// A map "follows the reversal" when at least ALIGNED of its weight is on the
// source digit each target copies; it is "about even" when it puts there no
// more than twice the even share, 1/L.
export const ALIGNED = 0.5;
export const ABOUT_EVEN = 2 / SOURCE_LENGTH;

export const DEFAULTS = Object.freeze({ seed: 1, positions: 'sinusoidal' });

export const runOptions = ({ seed, positions }, run) => ({ ...MODEL, seed, positions: run === 'none' ? 'none' : positions });

// The runs as the training pool takes them (src/training/training-pool.js).
export function runsOf(settings) {
  return RUNS.map((id) => ({
    id,
    options: runOptions(settings, id),
    play: {
      until: MAX_STEPS, target: { metric: 'generatedAccuracy', atLeast: TARGET }, evaluateEvery: EVALUATE_EVERY,
      measure: { examples: EXAMPLES }, probe: true,
    },
    cost: id === 'none' ? MAX_STEPS : MAX_STEPS / 2,
  }));
}

// The share of positions a guess of the commonest digit gets right, for n
// digits drawn uniformly from k: E[largest count] / n, where
//   P(largest count <= m) = n! / k^n [x^n] (sum_{j<=m} x^j / j!)^k
// (the number of sequences in which no digit occurs more than m times), and
// E[largest] = sum_{m>=0} P(largest > m). A model that knows which digits the
// source holds but not where can do no better than this at a position it
// knows nothing else about.
export function commonestGuess(n, k = DIGITS) {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n: expected a positive whole number of digits, got ${n}`);
  const factorial = [1];
  for (let i = 1; i <= n; i++) factorial.push(factorial[i - 1] * i);
  let largest = 0;
  for (let m = 0; m < n; m++) {
    const term = Array.from({ length: m + 1 }, (_, j) => 1 / factorial[j]);
    let power = [1];
    for (let s = 0; s < k; s++) {
      const next = new Array(Math.min(n, power.length - 1 + m) + 1).fill(0);
      power.forEach((a, i) => term.forEach((b, j) => { if (i + j <= n) next[i + j] += a * b; }));
      power = next;
    }
    largest += 1 - ((power[n] ?? 0) * factorial[n]) / k ** n;
  }
  return largest / n;
}

// Teacher-forced, the decoder has the right digits written so far in view: the
// digits not yet written are the source's first L - t, so the commonest of
// them is right commonestGuess(L - t) of the time at target t; the end of the
// sequence (also scored) counted as always right.
export function rememberingGuess(length = SOURCE_LENGTH) {
  let sum = 1;
  for (let t = 0; t < length; t++) sum += commonestGuess(length - t);
  return sum / (length + 1);
}

// The cross-attention map of a reading, heads averaged: { rows, cols, weights }
// (rows: the target digits and the end; cols: the source digits).
export function crossMapOf(reading) {
  const layer = lastLayerOf(reading, 'cross');
  return layer ? { rows: layer.rows, cols: layer.cols, weights: averageHeads(layer), layer: layer.layer } : null;
}

// The mean weight target digit t puts on source digit L - 1 - t, the one it copies.
export function onReversal({ cols, weights }, length = SOURCE_LENGTH) {
  let sum = 0;
  for (let t = 0; t < length; t++) sum += weights[t * cols + length - 1 - t];
  return sum / length;
}

export const outcomeOf = (evaluation) => (evaluation.generatedAccuracy >= LEARNED ? 'learns' : 'short');

// The sentences that say what the two finished runs showed, as keys of the
// section's strings with their numbers, each chosen from the numbers.
// record: src/training/side-by-side.js's, both runs done.
export function summarize(record) {
  const none = record.runs.none;
  const positioned = record.runs.positioned;
  const ne = none.final.evaluation;
  const pe = positioned.final.evaluation;
  const guess = commonestGuess(SOURCE_LENGTH);
  const parts = [];

  let blind = 'between';
  if (ne.generatedAccuracy >= LEARNED) blind = 'learns';
  else if (ne.generatedAccuracy <= guess + NEAR) blind = 'guesses';
  parts.push({ key: `summary.none.${blind}`, params: { steps: none.step, generated: ne.generatedAccuracy, chance: 1 / DIGITS, guess } });
  if (blind !== 'learns') parts.push({ key: 'summary.none.forced', params: { accuracy: ne.accuracy, remembering: rememberingGuess(SOURCE_LENGTH) } });

  parts.push({ key: `summary.positioned.${outcomeOf(pe)}`, params: { steps: positioned.step, generated: pe.generatedAccuracy, sequences: pe.sequenceAccuracy } });

  const noneOn = onReversal(crossMapOf(none.final.probe));
  const positionedOn = onReversal(crossMapOf(positioned.final.probe));
  const aligned = positionedOn >= ALIGNED && noneOn <= ABOUT_EVEN;
  parts.push({ key: `summary.maps.${aligned ? 'aligned' : 'other'}`, params: { none: noneOn, positioned: positionedOn, even: 1 / SOURCE_LENGTH } });

  const verdict = blind !== 'learns' && outcomeOf(pe) === 'learns' ? 'order' : 'not';
  parts.push({ key: `summary.verdict.${verdict}`, params: {} });
  return parts;
}

// Parameters shown as percentages.
const SHARES = new Set(['generated', 'chance', 'guess', 'accuracy', 'remembering', 'sequences', 'none', 'positioned', 'even']);
export const showParams = (params) => Object.fromEntries(Object.entries(params).map(([name, v]) => [name, SHARES.has(name) ? formatPercent(v) : v]));

// The finished runs' sentences in the reader's language (t: the section's
// translator; {positions}: its name of the positions the second run had).
export const describe = (t, record) => summarize(record).map(({ key, params }) =>
  t(key, { ...showParams(params), positions: t(`positions.${record.runs.positioned.options?.positions ?? DEFAULTS.positions}`) }));
