// The URL codec (src/lib/params.js) of a section whose only input is the seed
// of its runs (training starts only when the reader asks):
//   seed="1"   the runs' initial weights and batches
import { parseInteger } from '../lib/params.js';
import { MAX_SEED } from '../components/seed-control.js';

export const seedParams = (defaults) => ({
  names: ['seed'],
  defaults: () => ({ ...defaults }),
  fields: {
    seed: { parse: (s) => parseInteger(s, { min: 0, max: MAX_SEED }), format: String },
  },
  toState: (v, d) => ({ seed: v.seed ?? d.seed }),
  fromState: (s) => ({ seed: s.seed }),
});
