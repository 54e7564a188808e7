// Section "decoding" view: the trained translator generating one token at a
// time. The translator trains in a worker (./training-panel.js); then the
// probe sentence, or one the reader types, is generated step by step
// (./steps-panel.js: each step's attention row over the source, the cache),
// timed with the cache and without (./cost-panel.js), and what the run showed
// is said in sentences chosen by ./state.js (./summary-view.js).
import { h, html } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { settingsModel } from '../../lib/settings-model.js';
import { trainingPanel } from './training-panel.js';
import { stepsPanel } from './steps-panel.js';
import { costPanel } from './cost-panel.js';
import { summaryView } from './summary-view.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import '../../components/matrix.css';
import './decoding.css';

export default { mount, params };

// The settings (./params.js): nothing is computed until the reader trains.
function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= settingsModel(initial ?? params.defaults()));
  root.classList.add('dc-root');
  const summary = summaryView({ t });
  const cost = costPanel({ t });
  let steps = null;
  const training = trainingPanel(model, {
    t, engine, store,
    changed: () => onChange?.(model.snapshot),
    onRun: (state) => {
      steps?.update(state.run);
      cost.update(state.run);
      summary.update(state);
    },
    onRefused: (message) => steps?.refused(message),
  });
  steps = stepsPanel({ t, store, decode: (sentence) => training.decode(sentence) });
  steps.update(store.training.run);

  root.append(
    h('div', { class: 'prose' },
      html('p', { class: 'section-lede' }, t('lede')),
      html('p', {}, t('greedy')),
      formula(formulas.greedy).el,
      html('p', {}, t('cache')),
      formula(formulas.cache).el,
      html('p', {}, t('recurrent')),
      formula(formulas.recurrent).el),
    training.el,
    summary.el,
    steps.el,
    cost.el,
    html('div', { class: 'prose' }, t('after')));

  return {
    destroy() { training.destroy(); },
  };
}
