// Section "gradients" view: why the scores are divided by sqrt(d_k), seen
// through the gradient itself. The backward pass as formulas; the gradient
// that reaches the queries and keys against d_k (./sweep-panel.js); one row's
// softmax Jacobian (./row-panel.js); the same model trained with and without
// the division (./experiment-panel.js). State: ./state.js, ./experiment.js.
import { h, html } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { createGradients } from './state.js';
import { sweepPanel } from './sweep-panel.js';
import { rowPanel } from './row-panel.js';
import { experimentPanel } from './experiment-panel.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import '../../components/matrix.css';
import './gradients.css';

export default { mount, params };

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createGradients(engine, initial ?? params.defaults()));
  root.classList.add('gr-root');
  const context = { t, engine, store, changed: () => onChange?.(model.snapshot) };
  const sweep = sweepPanel(model, context);
  const row = rowPanel(model, context);
  const experiment = experimentPanel(model, context);

  root.append(
    h('div', { class: 'prose' }, html('p', { class: 'section-lede' }, t('lede'))),
    h('div', { class: 'prose' },
      html('p', {}, t('backward.intro')),
      formula(formulas.forward).el,
      html('p', {}, t('backward.text')),
      formula(formulas.backward).el,
      html('p', {}, t('backward.sweep'))),
    sweep.el,
    h('div', { class: 'prose' },
      html('h3', {}, t('why.title')),
      html('p', {}, t('why.text')),
      formula(formulas.jacobian).el),
    row.el,
    h('div', { class: 'prose' },
      html('h3', {}, t('decisive.title')),
      html('p', {}, t('decisive.text'))),
    experiment.el,
    html('div', { class: 'prose' }, t('after')));

  row.update();
  sweep.start();

  return {
    destroy() {
      sweep.destroy();
      experiment.destroy();
    },
  };
}
