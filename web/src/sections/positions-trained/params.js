// Section "positions-trained"'s inputs as text, for links and widget attributes (src/lib/params.js):
//   seed="1"                both models' initial weights and batches
//   positions="sinusoidal"  the second model's positions: sinusoidal or learned
// Training starts only when the reader asks.
import { parseChoice, parseInteger } from '../../lib/params.js';
import { MAX_SEED } from '../../components/seed-control.js';
import { DEFAULTS, POSITIONS } from './state.js';

export default {
  names: ['seed', 'positions'],
  defaults: () => ({ ...DEFAULTS }),
  fields: {
    seed: { parse: (s) => parseInteger(s, { min: 0, max: MAX_SEED }), format: String },
    positions: { parse: (s) => parseChoice(s, POSITIONS), format: String },
  },
  toState: (v, d) => ({ seed: v.seed ?? d.seed, positions: v.positions ?? d.positions }),
  fromState: (s) => ({ seed: s.seed, positions: s.positions }),
};
