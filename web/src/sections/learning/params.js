// Section "learning"'s inputs as text, for links and widget attributes (src/lib/params.js):
//   task="translate" (or reverse)  seed="1"  heads="2" (1, 2, 4 or 8)
//   scaling="on" (off: scores not divided by sqrt(d_k))  lr="0.01" (0.001, 0.003, 0.01, 0.03, 0.1)
// Training itself starts only when the reader presses play.
import { parseChoice, parseInteger, parseSwitch } from '../../lib/params.js';
import { MAX_SEED } from '../../components/seed-control.js';
import { DEFAULTS, HEAD_CHOICES, LEARNING_RATES, TASKS } from './state.js';

const numberChoice = (values) => ({ parse: (s) => Number(parseChoice(s, values.map(String))), format: String });

export default {
  names: ['task', 'seed', 'heads', 'scaling', 'lr'],
  defaults: () => ({ ...DEFAULTS }),
  fields: {
    task: { parse: (s) => parseChoice(s, TASKS), format: String },
    seed: { parse: (s) => parseInteger(s, { min: 0, max: MAX_SEED }), format: String },
    heads: numberChoice(HEAD_CHOICES),
    scaling: { parse: parseSwitch, format: (on) => (on ? 'on' : 'off') },
    lr: numberChoice(LEARNING_RATES),
  },
  toState: (v, d) => ({
    task: v.task ?? d.task, seed: v.seed ?? d.seed, heads: v.heads ?? d.heads,
    scale: v.scaling ?? d.scale, learningRate: v.lr ?? d.learningRate,
  }),
  fromState: (s) => ({ task: s.task, seed: s.seed, heads: s.heads, scaling: s.scale, lr: s.learningRate }),
};
