// Section "learning" view: watch attention learn. A small model (./state.js)
// trained live in a worker on a task the reader picks (./training-panel.js),
// the probe sentence's attention weights redrawn as the alignment forms, then
// the reader's own sentence (./translate-panel.js), and one whose words move,
// read by a model that aligns by content (./content-reader.js).
import { h, html } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { createLearning } from './state.js';
import { trainingPanel } from './training-panel.js';
import { translatePanel } from './translate-panel.js';
import { contentReader } from './content-reader.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import '../../components/matrix.css';
import './learning.css';

export default { mount, params };

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createLearning(engine, initial ?? params.defaults()));
  root.classList.add('le-root');
  let sentence = null;
  const training = trainingPanel(model, {
    t, engine, store,
    changed: () => onChange?.(model.snapshot),
    onTranslation: (message) => sentence?.receive(message),
    onReset: () => sentence?.reset(),
  });
  sentence = translatePanel(model, { t, engine, training });
  const content = contentReader({ t, engine, store, settings: () => model.settings });

  root.append(
    h('div', { class: 'prose' }, html('p', { class: 'section-lede' }, t('lede'))),
    h('div', { class: 'prose' },
      html('p', {}, t('model.text')),
      formula(formulas.model).el,
      html('p', {}, t('model.loss')),
      formula(formulas.loss).el,
      html('p', {}, t('model.tasks'))),
    training.el,
    h('div', { class: 'prose' }, html('p', {}, t('reading'))),
    sentence.el,
    content.el,
    html('div', { class: 'prose' }, t('after')));

  return {
    destroy() {
      training.destroy();
      content.destroy();
    },
  };
}
