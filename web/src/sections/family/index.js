// Section 8 view: the family of score functions, Bahdanau to scaled dot
// product, computed side by side on one toy translation (./scores-panel.js),
// between the prose: the steps and Luong's scores as formulas, the order in
// which each model computes its attention, and article 002's summary table.
// State: ./state.js.
import { h, html } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { textTable } from '../../components/text-table.js';
import { createFamily } from './state.js';
import { scoresPanel } from './scores-panel.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import './family.css';

export default { mount, params };

// Bahdanau's order and Luong's, each a named chain of formulas.
function orderFlows(t) {
  const flow = (name, ...steps) => h('div', { class: 'fa-flow' }, html('p', { class: 'fa-flow-name' }, t(name)), steps.map((f) => formula(f).el));
  return h('div', { class: 'fa-flows' },
    flow('order.bahdanau', formulas.bahdanauOrder),
    flow('order.luong', formulas.luongOrder, formulas.luongOutput));
}

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createFamily(engine, (initial ?? params.defaults()).seed));
  root.classList.add('fa-root');
  const panel = scoresPanel(model, { t, onSeed: (seed) => onChange?.({ seed }) });

  root.append(
    h('div', { class: 'prose' }, html('p', { class: 'section-lede' }, t('lede'))),
    h('div', { class: 'prose' },
      html('p', {}, t('steps')),
      formula(formulas.steps).el,
      html('p', {}, t('luong')),
      formula(formulas.luong).el,
      html('p', {}, t('concatNote'))),
    panel.el,
    h('div', { class: 'prose' },
      html('h3', {}, t('order.title')),
      html('p', {}, t('order.intro')),
      orderFlows(t),
      html('p', {}, t('order.after')),
      html('h3', {}, t('summaryTitle')),
      html('p', {}, t('summaryIntro'))),
    h('div', { class: 'panel fa-summary-wrap' }, textTable(t('summary'), { className: 'fa-summary' })),
    html('div', { class: 'prose' }, t('after')));

  return {};
}
