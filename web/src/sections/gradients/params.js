// Section "gradients"' inputs as text, for links and widget attributes (src/lib/params.js):
//   seed="1"                    the sweep's random Q, K, V, dO
//   dk="256" row="1"            the row whose softmax Jacobian is shown: its d_k, its query (1 to 8)
//   train-dk="64" train-seed="1" steps="200"   the experiment (it runs only when the reader asks)
// Sizes are limited to the controls' values.
import { parseChoice, parseInteger } from '../../lib/params.js';
import { MAX_SEED } from '../../components/seed-control.js';
import { DEFAULTS, DIMENSIONS, SHAPE } from './state.js';
import { STEP_CHOICES, TRAIN_DIMENSIONS } from './experiment.js';

const choice = (values) => ({ parse: (s) => Number(parseChoice(s, values.map(String))), format: String });
const seed = { parse: (s) => parseInteger(s, { min: 0, max: MAX_SEED }), format: String };

export default {
  names: ['seed', 'dk', 'row', 'train-dk', 'train-seed', 'steps'],
  defaults: () => structuredClone(DEFAULTS),
  fields: {
    seed,
    dk: choice(DIMENSIONS),
    // Counted from 1, as the page shows it.
    row: { parse: (s) => parseInteger(s, { min: 1, max: SHAPE.n }) - 1, format: (q) => String(q + 1) },
    'train-dk': choice(TRAIN_DIMENSIONS),
    'train-seed': seed,
    steps: choice(STEP_CHOICES),
  },
  toState: (v, d) => ({
    sweep: { seed: v.seed ?? d.sweep.seed },
    row: { dk: v.dk ?? d.row.dk, query: v.row ?? d.row.query },
    train: { dk: v['train-dk'] ?? d.train.dk, seed: v['train-seed'] ?? d.train.seed, steps: v.steps ?? d.train.steps },
  }),
  fromState: (s) => ({
    seed: s.sweep.seed, dk: s.row.dk, row: s.row.query,
    'train-dk': s.train.dk, 'train-seed': s.train.seed, steps: s.train.steps,
  }),
};
