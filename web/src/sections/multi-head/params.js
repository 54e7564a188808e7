// Section 6's inputs as text (src/lib/params.js):
//   heads="1|2|4|8"   seed="0".."4294967295"  (the projections' seed; "draw new" adds 1)
import { parseChoice, parseInteger } from '../../lib/params.js';
import { DEFAULT_SEED, HEAD_CHOICES } from './state.js';

export const MAX_SEED = 2 ** 32 - 1;

export default {
  names: ['heads', 'seed'],
  defaults: () => ({ heads: 2, seed: DEFAULT_SEED }),
  fields: {
    heads: { parse: (s) => parseChoice(s, HEAD_CHOICES.map(String)) | 0, format: String },
    seed: { parse: (s) => parseInteger(s, { min: 0, max: MAX_SEED }), format: String },
  },
  toState: (v, d) => ({ heads: v.heads ?? d.heads, seed: v.seed ?? d.seed }),
  fromState: (s) => ({ heads: s.heads, seed: s.seed }),
};
