// Section 3 view: reading a weight matrix. Article 003's six tokens in three
// topics with Q = K = V = X; each row of the heatmap is one token's gaze (hover
// a row, or pick the token); why a token can look at its pair more than at
// itself; exact symmetry of the logits when Q = K, and its loss with separate
// W_Q, W_K. State: ./state.js. The panels: ./weights-panel.js, ./why-panel.js,
// ./symmetry-panel.js.
import { h, html } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { formatNumber } from '../../lib/format.js';
import { TOKENS, TOPIC_OF, createReading } from './state.js';
import { weightsPanel } from './weights-panel.js';
import { whyPanel } from './why-panel.js';
import { symmetryPanel } from './symmetry-panel.js';
import { setupParams } from './setup-text.js';
import { liveText } from '../../lib/live-text.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import './reading-weights.css';

export default { mount, params };

const TOPIC_GLYPHS = ['\u25cf', '\u25a0', '\u25b2'];  // ● ■ ▲
const tokenLabel = (i) =>
  `<span class="rw-topic rw-topic-${TOPIC_OF[i]}" aria-hidden="true">${TOPIC_GLYPHS[TOPIC_OF[i]]}</span>${TOKENS[i]}`;

function mount(root, { engine, t, store, initial, onChange }) {
  const start = initial ?? params.defaults();
  const model = (store.model ??= createReading(engine, {
    base: start.base, factor: start.factor, asymmetry: { seed: start.seed, pairs: 200 }, token: start.token,
  }));
  root.classList.add('rw-root');
  const labels = TOKENS.map((_, i) => tokenLabel(i));
  const changed = (from) => refresh(from);
  const select = (i) => {
    model.select(i);
    showGaze();
    onChange?.(model.snapshot);
  };
  const weights = weightsPanel(model, { t, labels, changed, select });
  const why = whyPanel(model, { t, labels });
  const symmetry = symmetryPanel(model, { t, labels, changed: () => onChange?.(model.snapshot) });
  const setup = liveText(h('p'));

  root.append(
    h('div', { class: 'prose' }, html('p', { class: 'section-lede' }, t('lede'))),
    h('div', { class: 'prose' }, formula(formulas.weights).el, setup.el),
    weights.el,
    h('div', { class: 'prose' }, html('h3', {}, t('why.title')), html('p', {}, t('why.intro')), formula(formulas.dot).el),
    why.el,
    h('div', { class: 'prose' }, html('h3', {}, t('symmetry.title')), html('p', {}, t('symmetry.intro'))),
    symmetry.el,
    html('div', { class: 'prose' }, t('after')));

  // The numbers both gaze texts quote.
  function showGaze() {
    const { gaze } = model;
    if (!gaze) return;
    const params = {
      token: TOKENS[gaze.i], pair: TOKENS[gaze.pair],
      self: formatNumber(gaze.self, 3), pairWeight: formatNumber(gaze.pairWeight, 3),
      topTwo: formatNumber(gaze.topTwo, 3), rest: formatNumber(gaze.rest, 3),
      restMin: formatNumber(gaze.restMin, 3), restMax: formatNumber(gaze.restMax, 3),
      ratio: formatNumber(gaze.pairWeight / gaze.restMin, 0),
    };
    weights.showGaze(params);
    why.update(params);
  }

  let asymTimer = 0;
  function refresh(from) {
    if (from !== 'mount') onChange?.(model.snapshot);   // the host keeps links and attributes in step
    weights.update(from);
    if (!model.reading) return;
    setup.set(t('setup'), setupParams(model.reading));
    showGaze();
    symmetry.showSymmetry();
    // The 200 random pairs are recomputed once the reader pauses typing.
    clearTimeout(asymTimer);
    if (from === 'input') asymTimer = setTimeout(symmetry.showAsymmetry, 150);
    else symmetry.showAsymmetry();
  }

  refresh('mount');
  return { destroy() { clearTimeout(asymTimer); } };
}
