// Article 003's six tokens in three topics: the example of section 3 (reading
// a weight matrix) and of section 9 (order), which shuffles the same tokens.
// Data and one pure function; no engine, no DOM.
//
// X = c * M (n = 6 tokens, d = 4 features, row-major): t0 and t3 share a topic,
// so do t1 and t4, and t2 and t5.

export const TOKENS = Object.freeze(['t0', 't1', 't2', 't3', 't4', 't5']);
export const TOPIC_OF = Object.freeze([0, 1, 2, 0, 1, 2]);
export const DEFAULT_BASE = Object.freeze([
  [1.0, 0.2, 0.0, 0.0],
  [0.0, 1.0, 0.3, 0.0],
  [0.0, 0.0, 1.0, 0.2],
  [0.9, 0.3, 0.0, 0.0],
  [0.1, 0.9, 0.2, 0.0],
  [0.0, 0.1, 0.9, 0.3],
].map((row) => Object.freeze(row)));
export const DEFAULT_FACTOR = 2.6;

// X = c * M, row-major (n x d).
export function embeddings(base, factor) {
  return Float32Array.from(base.flat(), (m) => factor * m);
}
