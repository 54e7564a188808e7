// Section "family-trained"'s inputs as text, for links and widget attributes (src/lib/params.js):
//   task="translate" (or reverse)  seed="1"
//   models="bahdanau,dot,general,concat"  the models to train (Bahdanau's, Luong's by score), at least one
//   window="global" (local, both)  feeding="on" (off, both)   Luong's window and input feeding
// At most MAX_VARIANTS variants: a link asking for more is rejected by name.
// Training itself starts only when the reader presses play.
import { ParamError, parseChoice, parseInteger } from '../../lib/params.js';
import { MAX_SEED } from '../../components/seed-control.js';
import { DEFAULTS, FEEDINGS, SCORES, TASKS, WINDOWS, settingsProblem } from './state.js';

// "bahdanau,general" -> ['bahdanau', 'general'] (in SCORES' order); each once, at least one.
function parseModels(text) {
  const names = String(text).trim().toLowerCase().split(',').map((s) => s.trim());
  for (const name of names) parseChoice(name, SCORES);
  if (new Set(names).size !== names.length) throw new ParamError('a model named twice');
  return SCORES.filter((s) => names.includes(s));
}

export default {
  names: ['task', 'seed', 'models', 'window', 'feeding'],
  defaults: () => structuredClone({ ...DEFAULTS, scores: [...DEFAULTS.scores] }),
  fields: {
    task: { parse: (s) => parseChoice(s, TASKS), format: String },
    seed: { parse: (s) => parseInteger(s, { min: 0, max: MAX_SEED }), format: String },
    models: { parse: parseModels, format: (list) => list.join(',') },
    window: { parse: (s) => parseChoice(s, WINDOWS), format: String },
    feeding: { parse: (s) => parseChoice(s, FEEDINGS), format: String },
  },
  check(state) {
    if (settingsProblem(state)) throw Object.assign(new ParamError('too many variants'), { names: ['models', 'window', 'feeding'] });
  },
  toState: (v, d) => ({
    task: v.task ?? d.task, seed: v.seed ?? d.seed, scores: v.models ?? d.scores, window: v.window ?? d.window, feeding: v.feeding ?? d.feeding,
  }),
  fromState: (s) => ({ task: s.task, seed: s.seed, models: s.scores, window: s.window, feeding: s.feeding }),
};
