// Section "family-trained" view: the walkthrough's family of scores (section
// "family", with random weights) trained. The variants as formulas, then the
// runs (./training-panel.js): curves, steps to the target, learned alignments
// of one probe sentence, and what this run measured in words. State: ./state.js.
import { h, html } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { BATCH_SIZE, D_MODEL, EVALUATE_EVERY, EXAMPLES_WHILE_TRAINING, MAX_STEPS, MAX_VARIANTS, REVERSE_LENGTH, TARGET, WINDOW_HALF_WIDTH, createFamilyTrained } from './state.js';
import { formatInteger, formatPercent } from '../../lib/format.js';
import { trainingPanel } from './training-panel.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import '../../components/matrix.css';
import './family-trained.css';

export default { mount, params };

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createFamilyTrained(initial ?? params.defaults()));
  root.classList.add('ft-root');
  const panel = trainingPanel(model, { t, engine, store, onSettings: () => onChange?.(model.snapshot) });

  root.append(
    h('div', { class: 'prose' },
      html('p', { class: 'section-lede' }, t('lede')),
      html('p', {}, t('models.bahdanau')),
      formula(formulas.bahdanau).el,
      html('p', {}, t('models.luong')),
      formula(formulas.luong).el,
      html('p', {}, t('models.local', { half: WINDOW_HALF_WIDTH })),
      formula(formulas.local).el,
      html('p', {}, t('models.feeding')),
      formula(formulas.feeding).el,
      html('p', {}, t('models.tasks', {
        dModel: D_MODEL, batch: BATCH_SIZE, target: formatPercent(TARGET, 0), examples: EXAMPLES_WHILE_TRAINING, every: EVALUATE_EVERY,
        steps: formatInteger(MAX_STEPS), length: REVERSE_LENGTH, max: MAX_VARIANTS,
      }))),
    panel.el,
    html('div', { class: 'prose' }, t('after')));

  return {
    destroy() { panel.destroy(); },
  };
}
