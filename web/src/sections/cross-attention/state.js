// Section 7 state: cross-attention (decoder queries, encoder keys and values,
// n != m) and the three places attention sits in a Transformer, all computed
// from one small translation example: "I am very hungry" -> "나는 배가 고프다".
// Projections are the identity (as in article 004), so Q = X_dec, K = V = X_enc
// in the first panel; the three places are wired as in a Transformer (place 3
// attends from the output of place 2 to the output of place 1).
// Plain module, engine as a parameter (tested in Node against the real wasm).

import { liveModel } from '../../lib/live-model.js';
import { checkNumbers, withinFloatRange } from '../../lib/input-check.js';

export const ENCODER_TOKENS = Object.freeze(['I', 'am', 'very', 'hungry']);
export const DECODER_TOKENS = Object.freeze(['나는', '배가', '고프다']);
// Three hand-made features per token, roughly "who", "being", "hunger".
export const ENCODER_EMBEDDINGS = Object.freeze([[2, 0, 0], [0, 1.5, 0], [0, 0.5, 1], [0, 0, 2]]);
export const DECODER_EMBEDDINGS = Object.freeze([[1.8, 0.2, 0], [0, 0.3, 1.2], [0, 0.8, 1.8]]);

const self = (engine, rows, mask) => {
  const x = Float32Array.from(rows.flat());
  const n = rows.length;
  const d = rows[0].length;
  return engine.attention({ q: x, k: x, v: x, n, m: n, dk: d, dv: d, mask });
};

export function computeCross(engine, { encoder, decoder }) {
  const n = decoder.length;
  const m = encoder.length;
  const d = encoder[0].length;
  if (decoder[0].length !== d) throw new Error(`decoder: expected rows of ${d} numbers, got ${decoder[0].length}`);
  const enc = Float32Array.from(encoder.flat());
  const dec = Float32Array.from(decoder.flat());
  const cross = engine.attention({ q: dec, k: enc, v: enc, n, m, dk: d, dv: d });
  const encoderSelf = self(engine, encoder);               // m x m: place 1
  const decoderSelf = self(engine, decoder, 'causal');     // n x n, causal: place 2
  // Place 3, wired as in a Transformer: queries from the output of place 2,
  // keys and values from the encoder's output (the output of place 1).
  const encoderDecoder = engine.attention({
    q: decoderSelf.output, k: encoderSelf.output, v: encoderSelf.output, n, m, dk: d, dv: d,
  });
  return {
    n, m, d,
    cross,                                           // n x m: decoder queries, encoder keys (the first panel)
    encoderSelf,
    decoderSelf,
    encoderDecoder,                                  // n x m
    rowSums: Array.from({ length: n }, (_, i) => cross.weights.subarray(i * m, (i + 1) * m).reduce((a, b) => a + b, 0)),
    // For each decoder token, the encoder token it attends to most.
    strongest: Array.from({ length: n }, (_, i) => {
      const row = cross.weights.subarray(i * m, (i + 1) * m);
      return row.indexOf(Math.max(...row));
    }),
  };
}

export function createCross(engine, { encoder = ENCODER_EMBEDDINGS, decoder = DECODER_EMBEDDINGS } = {}) {
  return liveModel({
    initial: { encoder, decoder },
    compute: (inputs) => {
      const cell = (tokens) => (i, c) => ({ key: 'inputs.cell', params: { token: tokens[i], c: c + 1 } });
      checkNumbers(inputs.decoder, cell(DECODER_TOKENS));
      checkNumbers(inputs.encoder, cell(ENCODER_TOKENS));
      const result = withinFloatRange(() => computeCross(engine, inputs), []);
      for (const place of ['cross', 'encoderSelf', 'decoderSelf', 'encoderDecoder']) if (result[place]) withinFloatRange(() => result[place], ['weights', 'output']);
      return result;
    },
    actions: {
      setEncoder: (inputs, i, c, x) => { inputs.encoder[i][c] = x; },
      setDecoder: (inputs, i, c, x) => { inputs.decoder[i][c] = x; },
    },
    views: { encoderTokens: () => ENCODER_TOKENS, decoderTokens: () => DECODER_TOKENS },
  });
}
