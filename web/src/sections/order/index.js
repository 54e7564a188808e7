// Section 9 view: attention is blind to order. Shuffle article 003's six tokens
// (a chosen permutation or a random one) and the outputs shuffle exactly the
// same way, row by row; switch on sinusoidal positional encodings and they no
// longer do. State: ./state.js. The panels: ./shuffle-panel.js,
// ./positions-panel.js.
import { h, html } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { createOrder } from './state.js';
import { shufflePanel } from './shuffle-panel.js';
import { positionsPanel } from './positions-panel.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import '../../components/number-input.css';
import '../../components/matrix.css';
import './order.css';

export default { mount, params };

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createOrder(engine, initial ?? params.defaults()));
  root.classList.add('or-root');
  const changed = (from) => refresh(from);
  const shuffle = shufflePanel(model, { t, changed });
  const positions = positionsPanel(model, { t });

  root.append(
    h('div', { class: 'prose' }, html('p', { class: 'section-lede' }, t('lede'))),
    h('div', { class: 'prose' }, html('p', {}, t('why')), formula(formulas.equivariance).el, html('p', {}, t('whyAfter'))),
    shuffle.el,
    h('div', { class: 'prose' }, html('h3', {}, t('pe.title')), html('p', {}, t('pe.intro')), formula(formulas.encoding).el),
    positions.el,
    html('div', { class: 'prose' }, t('after')));

  function refresh(from) {
    shuffle.update(from);
    positions.update();
    // The host keeps links and attributes in step.
    if (from !== 'mount') onChange?.({ perm: [...model.perm], positional: model.positional });
  }

  refresh('mount');
  return {};
}
