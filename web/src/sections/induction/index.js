// Section "induction" view: heads that specialise. A two-layer
// attention-only decoder and a one-layer one trained side by side on
// sequences with a repeated segment (./training-panel.js, two workers):
// the loss with its drop, each head's previous-token and prefix-match score
// over training; every layer's and head's map on the probe sequence
// (./head-maps.js); heads switched off (./ablation-panel.js); what the runs
// showed (./summary-view.js, sentences chosen by ./state.js).
import { h, html } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { settingsModel } from '../../lib/settings-model.js';
import { trainingPanel } from './training-panel.js';
import { headMaps } from './head-maps.js';
import { ablationPanel } from './ablation-panel.js';
import { summaryView } from './summary-view.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import '../../components/matrix.css';
import './induction.css';

export default { mount, params };

// The settings (./params.js): nothing is computed until the reader trains.
function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= settingsModel(initial ?? params.defaults()));
  root.classList.add('in-root');
  const maps = headMaps({ t });
  const ablation = ablationPanel({ t, store });
  const summary = summaryView({ t });
  const training = trainingPanel(model, {
    t, engine, store,
    changed: () => onChange?.(model.snapshot),
    onRuns: (state) => {
      maps.update(state.runs);
      ablation.update(state.runs);
      summary.update(state);
    },
  });

  root.append(
    h('div', { class: 'prose' },
      html('p', { class: 'section-lede' }, t('lede')),
      html('p', {}, t('task')),
      formula(formulas.circuit).el,
      html('p', {}, t('model')),
      formula(formulas.model).el,
      html('p', {}, t('scores')),
      formula(formulas.scores).el),
    training.el,
    summary.el,
    maps.el,
    ablation.el,
    html('div', { class: 'prose' }, t('after')));

  return {
    destroy() { training.destroy(); },
  };
}
