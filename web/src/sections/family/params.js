// Section 8's input as text, for links and widget attributes (src/lib/params.js):
//   seed="1"   the seed of the toy's states and score parameters
import { parseInteger } from '../../lib/params.js';
import { MAX_SEED } from '../../components/seed-control.js';
import { DEFAULT_SEED } from './state.js';

export default {
  names: ['seed'],
  defaults: () => ({ seed: DEFAULT_SEED }),
  fields: { seed: { parse: (s) => parseInteger(s, { min: 0, max: MAX_SEED }), format: String } },
  toState: (v, d) => ({ seed: v.seed ?? d.seed }),
  fromState: (s) => ({ seed: s.seed }),
};
