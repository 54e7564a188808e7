// Section "induction"'s inputs as text, for links and widget attributes (src/lib/params.js):
//   seed="1"   both models' initial weights and batches (training starts only when the reader asks)
import { parseInteger } from '../../lib/params.js';
import { MAX_SEED } from '../../components/seed-control.js';
import { DEFAULTS } from './state.js';

export default {
  names: ['seed'],
  defaults: () => ({ ...DEFAULTS }),
  fields: {
    seed: { parse: (s) => parseInteger(s, { min: 0, max: MAX_SEED }), format: String },
  },
  toState: (v, d) => ({ seed: v.seed ?? d.seed }),
  fromState: (s) => ({ seed: s.seed }),
};
