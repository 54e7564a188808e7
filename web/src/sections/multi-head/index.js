// Section 6 view: multi-head self-attention, d_model = 8, six tokens, h heads
// side by side, the concatenation, W_O, the output, and the FLOP count that
// stays the same for every h. State: ./state.js. The panels: ./heads-panel.js
// (the heads, and their concatenation times W_O), ./cost-panel.js.
import { h, html } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { D_MODEL, HEAD_CHOICES, createMultiHead } from './state.js';
import { combinePanel, headsPanel } from './heads-panel.js';
import { costPanel } from './cost-panel.js';
import { prerender, stow } from '../../lib/stowed.js';
import { whenIdle } from '../../lib/idle.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import './multi-head.css';

export default { mount, params };

function mount(root, { engine, t, store, lang, initial, onChange }) {
  const model = (store.model ??= createMultiHead(engine, initial ?? params.defaults()));
  const tokens = t('tokens');
  const dims = Array.from({ length: D_MODEL }, (_, c) => String(c + 1));
  const changed = () => refresh();
  const heads = headsPanel(model, { t, tokens, changed });
  const combine = combinePanel(model, { t, tokens, dims });
  const cost = costPanel(model, { t, lang });

  root.append(
    html('div', { class: 'prose section-lede' }, t('lede')),
    h('div', { class: 'prose' }, formula(formulas.heads).el, html('p', {}, t('random'))),
    h('div', { class: 'panel mh-panel' },
      h('p', { class: 'panel-title', html: t('panelTitle') }),
      heads.controls, heads.summary, heads.grid,
      combine.el,
      cost.el),
    html('div', { class: 'prose' }, t('after')));

  // One variant per h (its head heatmaps, its concatenation and its output),
  // built on first use; changing h shows one and hides the others.
  const variants = new Map();
  function variant(count) {
    if (!variants.has(count)) {
      const parts = [heads.build(count), ...combine.build(count)];
      variants.set(count, { parts, update: (r) => parts.forEach((p) => p.update(r)) });
    }
    return variants.get(count);
  }
  function refresh() {
    onChange?.(model.snapshot);   // the host keeps links and attributes in step
    const r = model.result;
    const shown = variant(r.heads);
    for (const [count, v] of variants) v.parts.forEach((p) => stow(p.el, count !== r.heads));
    shown.update(r);
    heads.update();
    combine.update();
    cost.update();
  }

  refresh();
  // Build the other choices of h while the reader reads, and fill them, so a
  // change of h is a swap.
  // A re-mount (a language switch, a widget's new attributes) cancels what is
  // still pending.
  const pending = HEAD_CHOICES.map((count) => whenIdle(() => {
    if (variants.has(count)) return;
    const built = variant(count);
    built.update(model.peek(count));
    prerender(built.parts.map((p) => p.el));
  }));
  return { destroy() { pending.forEach((cancel) => cancel()); } };
}
