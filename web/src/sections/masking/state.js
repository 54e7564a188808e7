// Section 5 state: masks on a five-token example (self-attention, Q = K = V = X).
// A preset mask (none, causal, key padding) goes to the engine as such; a click
// on a cell switches to an explicit keep-matrix (1 = may attend). The keep-matrix
// shown is read back from the engine's masked scores (-inf = masked), so the
// page shows what the engine did, not what we think it did.
// Plain module, engine as a parameter (tested in Node against the real wasm).

import { liveModel } from '../../lib/live-model.js';

// Five tokens, the last one padding (its embedding is zero, as padding usually is).
export const DEFAULT_EMBEDDINGS = Object.freeze([[1, 0], [0.5, 1], [0, 1.5], [1.5, 1], [0, 0]]);
export const MODES = Object.freeze(['none', 'causal', 'padding', 'custom']);

export function maskOption(mode, { keep, validKeys }) {
  if (mode === 'none') return undefined;
  if (mode === 'causal') return 'causal';
  if (mode === 'padding') return { validKeys };
  if (mode === 'custom') return keep;
  throw new Error(`mask mode: expected one of ${MODES.join(', ')}, got ${mode}`);
}

export function computeMasking(engine, { embeddings, mode, keep, validKeys }) {
  const n = embeddings.length;
  const d = embeddings[0].length;
  const x = Float32Array.from(embeddings.flat());
  const trace = engine.attention({ q: x, k: x, v: x, n, m: n, dk: d, dv: d, mask: maskOption(mode, { keep, validKeys }) });
  const kept = Uint8Array.from(trace.masked, (s) => (s === -Infinity ? 0 : 1));
  const rowSums = [];
  const fullyMasked = [];
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let open = 0;
    for (let j = 0; j < n; j++) {
      sum += trace.weights[i * n + j];
      open += kept[i * n + j];
    }
    rowSums.push(sum);
    if (open === 0) fullyMasked.push(i);
  }
  return {
    n, d,
    scaled: trace.scaled,
    masked: trace.masked,
    weights: trace.weights,
    output: trace.output,
    keep: kept,
    maskedCells: Uint8Array.from(kept, (k) => 1 - k),
    rowSums,
    fullyMasked,
  };
}

// The softmax of one row, written out: e^{s_j} (0 for -inf), their sum, and
// the engine's weights. As in section 1 the exponentials are shown without the
// max shift (they are small here); w_j = e^{s_j} / sum up to float rounding.
export function rowBreakdown(result, i) {
  const { n } = result;
  const masked = Array.from(result.masked.subarray(i * n, (i + 1) * n));
  const exps = masked.map((s) => Math.exp(s));  // Math.exp(-Infinity) === 0
  const sumExp = exps.reduce((a, b) => a + b, 0);
  const weights = Array.from(result.weights.subarray(i * n, (i + 1) * n));
  return { masked, exps, sumExp, weights, weightSum: weights.reduce((a, b) => a + b, 0), allMasked: sumExp === 0 };
}

// The live model (lib/live-model.js). Inputs: the embeddings, the mask mode,
// the keep-matrix of a custom mask, the padding length and the row written out.
export function createMasking(engine, { embeddings = DEFAULT_EMBEDDINGS, mode = 'causal', keep = null, focusRow = 2 } = {}) {
  const n = embeddings.length;
  const allOpen = () => new Uint8Array(n * n).fill(1);
  const checkMode = (next) => {
    if (!MODES.includes(next)) throw new Error(`mask mode: expected one of ${MODES.join(', ')}, got ${next}`);
  };
  let model = null;
  model = liveModel({
    initial: { embeddings, mode, keep: keep ? Uint8Array.from(keep) : null, validKeys: n - 1, focusRow },   // the last token is padding
    compute: (inputs) => computeMasking(engine, inputs),
    actions: {
      setMode(inputs, next) {
        checkMode(next);
        // "custom" starts from what is masked now.
        if (next === 'custom') inputs.keep = Uint8Array.from(model.result?.keep ?? allOpen());
        inputs.mode = next;
      },
      // Masks an open cell or opens a masked one; the mask becomes an explicit keep-matrix.
      toggle(inputs, i, j) {
        const next = Uint8Array.from(model.result?.keep ?? allOpen());
        next[i * n + j] = next[i * n + j] ? 0 : 1;
        Object.assign(inputs, { keep: next, mode: 'custom', focusRow: i });
      },
      setFocusRow(inputs, i) {
        inputs.focusRow = i;
        return false;   // the breakdown is read off the result
      },
    },
    views: {
      state: (_, inputs) => inputs,
      breakdown: (result, inputs) => (result ? rowBreakdown(result, inputs.focusRow) : null),
    },
    // What a link or a widget attribute needs to rebuild this state (./params.js).
    snapshot: (inputs) => ({ mode: inputs.mode, keep: inputs.mode === 'custom' ? inputs.keep : null, focusRow: inputs.focusRow }),
  });
  return model;
}
