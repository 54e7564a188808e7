// Section 3's inputs as text, for links and widget attributes (src/lib/params.js):
//   embeddings="1,0.2,0,0;0,1,0.3,0;..."  the matrix M, six rows of four numbers
//   factor="2.6"                          X = factor * M
//   seed="0"                              the seed of the 200 random W_Q, W_K
//   token="t3"                            whose gaze is shown
import { formatMatrix, formatNumberParam, parseChoice, parseInteger, parseMatrix, parseNumber } from '../../lib/params.js';
import { MAX_SEED } from '../../components/seed-control.js';
import { DEFAULT_ASYMMETRY, DEFAULT_BASE, DEFAULT_FACTOR, TOKENS, cloneBase } from './state.js';

export default {
  names: ['embeddings', 'factor', 'seed', 'token'],
  defaults: () => ({ base: cloneBase(DEFAULT_BASE), factor: DEFAULT_FACTOR, seed: DEFAULT_ASYMMETRY.seed, token: 3 }),
  fields: {
    embeddings: { parse: (s) => parseMatrix(s, TOKENS.length, 4, { min: -100, max: 100 }), format: formatMatrix },
    factor: { parse: (s) => parseNumber(s, { min: -100, max: 100 }), format: formatNumberParam },
    seed: { parse: (s) => parseInteger(s, { min: 0, max: MAX_SEED }), format: String },
    token: { parse: (s) => TOKENS.indexOf(parseChoice(s, TOKENS)), format: (i) => TOKENS[i] },
  },
  toState: (v, d) => ({
    base: v.embeddings ?? d.base, factor: v.factor ?? d.factor, seed: v.seed ?? d.seed, token: v.token ?? d.token,
  }),
  fromState: (s) => ({ embeddings: s.base, factor: s.factor, seed: s.seed, token: s.token }),
};
