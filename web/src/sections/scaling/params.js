// Section 2's inputs as text, for links and widget attributes (src/lib/params.js):
//   dk="512" seed="1"                                  experiment 1 (one query, ten keys)
//   trials-dk="64" trials="5000" trials-seed="0"       experiment 2 (many trials)
//   sweep-trials="200" sweep-seed="0"                  experiment 3 (the sweep over d)
// Sizes are limited to the slider's values, so a link cannot ask for an
// experiment that would freeze the page.
import { parseChoice, parseInteger } from '../../lib/params.js';
import { MAX_SEED } from '../../components/seed-control.js';
import { DEFAULTS, DIMENSIONS, SWEEP_TRIAL_COUNTS, TRIAL_COUNTS } from './state.js';

const choice = (values) => ({ parse: (s) => Number(parseChoice(s, values.map(String))), format: String });
const seed = { parse: (s) => parseInteger(s, { min: 0, max: MAX_SEED }), format: String };


export default {
  names: ['dk', 'seed', 'trials-dk', 'trials', 'trials-seed', 'sweep-trials', 'sweep-seed'],
  defaults: () => structuredClone(DEFAULTS),
  fields: {
    dk: choice(DIMENSIONS),
    seed,
    'trials-dk': choice(DIMENSIONS),
    trials: choice(TRIAL_COUNTS),
    'trials-seed': seed,
    'sweep-trials': choice(SWEEP_TRIAL_COUNTS),
    'sweep-seed': seed,
  },
  toState: (v, d) => ({
    tenKeys: { ...d.tenKeys, dk: v.dk ?? d.tenKeys.dk, seed: v.seed ?? d.tenKeys.seed },
    trials: { ...d.trials, dk: v['trials-dk'] ?? d.trials.dk, trials: v.trials ?? d.trials.trials, seed: v['trials-seed'] ?? d.trials.seed },
    sweep: { ...d.sweep, trials: v['sweep-trials'] ?? d.sweep.trials, seed: v['sweep-seed'] ?? d.sweep.seed },
  }),
  fromState: (s) => ({
    dk: s.tenKeys.dk, seed: s.tenKeys.seed,
    'trials-dk': s.trials.dk, trials: s.trials.trials, 'trials-seed': s.trials.seed,
    'sweep-trials': s.sweep.trials, 'sweep-seed': s.sweep.seed,
  }),
};
