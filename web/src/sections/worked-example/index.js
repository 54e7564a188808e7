// Section 1 view: the worked example of article 001, every intermediate number
// shown and editable; q can be dragged in the plane; written in rows or in
// article 000's columns. State: ./state.js. The panels: ./inputs-panel.js,
// ./plots.js, ./steps-table.js, ./convention-panel.js.
import { h, html } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { createWorkedExample } from './state.js';
import { inputsPanel } from './inputs-panel.js';
import { plotsPanel } from './plots.js';
import { stepsPanel } from './steps-table.js';
import { conventionPanel } from './convention-panel.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import './worked-example.css';

export default { mount, params };

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createWorkedExample(engine, initial ?? params.defaults()));
  const changed = (from) => refresh(from);
  const inputs = inputsPanel(model, { t, changed });
  const plots = plotsPanel(model, { t, changed });
  const steps = stepsPanel(model, { t });
  const convention = conventionPanel(model, { t, changed });
  const attention = formula(formulas.attention);

  root.append(
    html('div', { class: 'prose section-lede' }, t('lede')),
    h('div', { class: 'prose' }, attention.el, html('p', {}, t('perKeyIntro')),
      formula(formulas.perKey).el),
    h('div', { class: 'panel we-panel' },
      h('p', { class: 'panel-title', html: t('panelTitle') }),
      html('p', { class: 'we-hint' }, t('hint')),
      plots.el,
      h('div', { class: 'we-work' }, inputs.el, h('div', { class: 'we-results' }, convention.choice, steps.el, convention.note))),
    html('div', { class: 'prose' }, t('after')));

  function refresh(from) {
    onChange?.(model.snapshot);   // the host keeps links and attributes in step
    attention.set(model.inputs.convention === 'columns' ? formulas.attentionColumns : formulas.attention);
    inputs.update(from);
    steps.update();
    convention.update();
    plots.update();
  }

  refresh();
  return {};
}
