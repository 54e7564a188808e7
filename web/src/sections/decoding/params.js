// Section "decoding"'s inputs as text, for links and widget attributes (src/lib/params.js):
//   seed="1"              the translator's initial weights and batches
//   model="transformer"   'transformer' (the key/value cache) or 'bahdanau' (the recurrent state)
// Training starts only when the reader asks.
import { parseChoice, parseInteger } from '../../lib/params.js';
import { MAX_SEED } from '../../components/seed-control.js';
import { DEFAULTS, MODELS } from './state.js';

export default {
  names: ['seed', 'model'],
  defaults: () => ({ ...DEFAULTS }),
  fields: {
    seed: { parse: (s) => parseInteger(s, { min: 0, max: MAX_SEED }), format: String },
    model: { parse: (s) => parseChoice(s, MODELS), format: String },
  },
  toState: (v, d) => ({ seed: v.seed ?? d.seed, model: v.model ?? d.model }),
  fromState: (s) => ({ seed: s.seed, model: s.model }),
};
