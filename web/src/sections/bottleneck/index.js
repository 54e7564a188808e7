// Section "bottleneck" view: article 002's first doubt, measured. The article's
// quotation of Bahdanau et al. (the one fixed-length vector), the two models as
// formulas, and the sweep (./sweep-panel.js): both trained on reversal at
// several lengths in two workers, accuracy against length, and what this run
// measured in words. State: ./state.js.
import { h, html } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { LENGTHS, MODELS, TARGET, createBottleneck } from './state.js';
import { sweepPanel } from './sweep-panel.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import '../../components/matrix.css';
import './bottleneck.css';
import { formatPercent } from '../../lib/format.js';

export default { mount, params };

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createBottleneck(initial ?? params.defaults()));
  root.classList.add('bn-root');
  const panel = sweepPanel(model, { t, engine, store, onSettings: () => onChange?.(model.snapshot) });

  root.append(
    h('div', { class: 'prose' },
      html('p', { class: 'section-lede' }, t('lede')),
      h('blockquote', { class: 'bn-quote', lang: 'en', cite: 'https://arxiv.org/abs/1409.0473' },
        html('p', {}, t('quote.text')),
        html('footer', { lang: t('quote.lang') }, t('quote.source'))),
      html('p', {}, t('quote.gloss'))),
    h('div', { class: 'prose' },
      html('p', {}, t('model.plain')),
      formula(formulas.plain).el,
      html('p', {}, t('model.attentive')),
      formula(formulas.attentive).el,
      html('p', {}, t('model.task', { target: formatPercent(TARGET, 0), lengths: LENGTHS.join(', '), count: LENGTHS.length * MODELS.length }))),
    panel.el,
    html('div', { class: 'prose' }, t('after')));

  return {
    destroy() { panel.destroy(); },
  };
}
