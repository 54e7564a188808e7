// Section "bottleneck"'s inputs as text, for links and widget attributes (src/lib/params.js):
//   seed="1"     the seed of every run (initial weights, batches, held-out set)
//   steps="1000" each run's step budget (500, 1000 or 2000)
// The sweep itself starts only when the reader presses play.
import { parseChoice, parseInteger } from '../../lib/params.js';
import { MAX_SEED } from '../../components/seed-control.js';
import { DEFAULTS, STEP_BUDGETS } from './state.js';

export default {
  names: ['seed', 'steps'],
  defaults: () => ({ ...DEFAULTS }),
  fields: {
    seed: { parse: (s) => parseInteger(s, { min: 0, max: MAX_SEED }), format: String },
    steps: { parse: (s) => Number(parseChoice(s, STEP_BUDGETS.map(String))), format: String },
  },
  toState: (v, d) => ({ seed: v.seed ?? d.seed, steps: v.steps ?? d.steps }),
  fromState: (s) => ({ seed: s.seed, steps: s.steps }),
};
