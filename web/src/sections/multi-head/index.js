// Section 6 view: multi-head self-attention, d_model = 8, six tokens, h heads
// side by side, the concatenation, W_O, the output, and the FLOP count that
// stays the same for every h. State: ./state.js.
import { h, html, setHTML, setText } from '../../components/dom.js';
import { formula } from '../../components/formula.js';
import { heatmap } from '../../components/heatmap.js';
import { choiceGroup } from '../../components/choice-group.js';
import { button } from '../../components/button.js';
import { formatInteger } from '../../lib/format.js';
import { D_MODEL, HEAD_CHOICES, N_TOKENS, createMultiHead } from './state.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import './multi-head.css';

export default { mount, params };

function mount(root, { engine, t, store, lang, initial, onChange }) {
  const model = (store.model ??= createMultiHead(engine, initial ?? params.defaults()));
  const tokens = t('tokens');
  const dims = Array.from({ length: D_MODEL }, (_, c) => String(c + 1));

  const headsChoice = choiceGroup({
    legend: t('controls.heads'),
    options: HEAD_CHOICES.map((value) => ({ value, label: `h = ${value}` })),
    value: model.heads,
    onChange: (value) => { model.setHeads(value); refresh(); },
  });
  const seedText = h('span', { class: 'mh-seed', 'aria-live': 'polite' });
  const redraw = button({ label: t('controls.redraw'), icon: '\u2684', onClick: () => { model.redraw(); refresh(); } });
  const summary = h('p', { class: 'mh-summary', 'aria-live': 'polite' });
  const headsGrid = h('div', { class: 'mh-heads' });   // one .mh-variant per h

  // Concat x W_O = output, as colour maps (numbers in their tables).
  let concatMap = null;
  const concatSlot = h('div', { class: 'mh-term' });
  const woMap = heatmap({
    rows: D_MODEL, cols: D_MODEL, rowLabels: dims, colLabels: dims, rowRole: 'o', colRole: 'o',
    caption: t('combine.wo'), tableSummary: t('table.show'), diverging: true, tiny: true, digits: 2,
  });
  const outputMap = heatmap({
    rows: N_TOKENS, cols: D_MODEL, rowLabels: tokens, colLabels: dims, rowRole: 'q', colRole: 'o',
    caption: t('combine.output'), tableSummary: t('table.show'), diverging: true, tiny: true, digits: 2,
  });

  const costBody = h('tbody');
  const costNote = h('p', { class: 'mh-cost-note' });

  root.append(
    html('div', { class: 'prose section-lede' }, t('lede')),
    h('div', { class: 'prose' }, formula(formulas.heads).el, html('p', {}, t('random'))),
    h('div', { class: 'panel mh-panel' },
      h('p', { class: 'panel-title', text: t('panelTitle') }),
      h('div', { class: 'controls-row mh-controls' }, headsChoice.el,
        h('div', { class: 'mh-seed-box' }, redraw.el, seedText)),
      summary,
      headsGrid,
      html('h3', { class: 'mh-subtitle' }, t('combine.title')),
      html('p', { class: 'mh-combine-text' }, t('combine.text')),
      h('div', { class: 'mh-combine' },
        concatSlot, h('span', { class: 'mh-op', 'aria-hidden': 'true', text: '\u00d7' }),
        h('div', { class: 'mh-term' }, woMap.el), h('span', { class: 'mh-op', 'aria-hidden': 'true', text: '=' }),
        h('div', { class: 'mh-term' }, outputMap.el)),
      html('h3', { class: 'mh-subtitle' }, t('cost.title')),
      html('p', {}, t('cost.text')),
      formula(formulas.cost).el,
      h('div', { class: 'matrix-scroll' }, h('table', { class: 'matrix mh-cost-table' },
        html('caption', {}, t('cost.caption')),
        h('thead', {}, h('tr', {}, ['h', 'dk', 'scores', 'mix', 'attention', 'projections', 'exps'].map((col) =>
          html('th', { scope: 'col' }, t(`cost.columns.${col}`))))),
        costBody)),
      costNote),
    html('div', { class: 'prose' }, t('after')));

  // The heatmaps of each h are built once and stay in the page; the inactive
  // ones are skipped by the browser (content-visibility: hidden keeps their
  // rendering state), so changing h swaps instead of rebuilding.
  let shownHeads = 0;
  let shownSeed = null;
  let headMaps = [];
  const built = new Map();
  function variant(count) {
    if (!built.has(count)) {
      const v = buildHeads(count);
      headsGrid.append(v.headsEl);
      concatSlot.append(v.concatEl);
      built.set(count, v);
    }
    return built.get(count);
  }
  function showHeads(count) {
    for (const [c, v] of built) {
      v.headsEl.classList.toggle('is-active', c === count);
      v.concatEl.classList.toggle('is-active', c === count);
    }
    const v = variant(count);
    v.headsEl.classList.add('is-active');
    v.concatEl.classList.add('is-active');
    ({ headMaps, concatMap } = v);
    shownHeads = count;
  }
  function buildHeads(count) {
    const dk = D_MODEL / count;
    const maps = Array.from({ length: count }, (_, i) => heatmap({
      rows: N_TOKENS, cols: N_TOKENS, rowLabels: tokens, colLabels: tokens,
      caption: t('headCaption', { i: i + 1, dk }), tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'),
      digits: 2, compact: count > 1,
    }));
    const concat = heatmap({
      rows: N_TOKENS, cols: D_MODEL, rowLabels: tokens,
      colLabels: dims.map((_, c) => (c % dk === 0 ? `h${c / dk + 1}` : '')),
      tableColLabels: dims.map((_, c) => `h${Math.floor(c / dk) + 1}·${(c % dk) + 1}`),
      rowRole: 'q', colRole: 'o', caption: t('combine.concat'), tableSummary: t('table.show'),
      diverging: true, tiny: true, digits: 2, groupSize: dk,
    });
    return {
      headMaps: maps,
      concatMap: concat,
      headsEl: h('div', { class: 'mh-variant mh-heads-grid', dataset: { heads: String(count) } },
        maps.map((m) => h('div', { class: 'mh-head' }, m.el))),
      concatEl: h('div', { class: 'mh-variant' }, concat.el),
    };
  }

  function refresh() {
    onChange?.(model.snapshot);   // the host keeps links and attributes in step
    const r = model.result;
    headsChoice.set(model.heads);
    if (shownHeads !== r.heads) showHeads(r.heads);
    r.headWeights.forEach((w, i) => headMaps[i].update(w));
    concatMap.update(r.concat);
    if (shownSeed !== model.seed) woMap.update(model.inputs.wo);   // W_O does not depend on h
    shownSeed = model.seed;
    outputMap.update(r.output);
    setText(seedText, t('controls.seed', { seed: model.seed }));
    setHTML(summary, t(r.heads === 1 ? 'summaryOne' : 'summary', { h: r.heads, dk: r.dk, d: D_MODEL }));

    // The cost table does not depend on the projections: built once, then the current row marked.
    if (!costBody.rows.length) {
      costBody.append(...r.flopTable.map((f) => h('tr', { dataset: { heads: String(f.heads) } },
        h('th', { scope: 'row', text: String(f.heads) }),
        ...[f.dk, f.scores, f.mix, f.attention, f.projections, f.softmaxExps].map((x) => h('td', { class: 'num', text: formatInteger(x, lang) })))));
    }
    for (const row of costBody.rows) {
      const current = row.dataset.heads === String(r.heads);
      row.classList.toggle('is-current', current);
      if (current) row.setAttribute('aria-current', 'true');
      else row.removeAttribute('aria-current');
    }
    setHTML(costNote, t('cost.note', {
      h: r.heads, attention: formatInteger(r.flops.attention, lang), n: N_TOKENS, d: D_MODEL,
      exps: formatInteger(r.flops.softmaxExps, lang),
    }));
  }

  refresh();
  // Build the other choices of h while the reader reads, and fill them, so a
  // change of h is a swap.
  const idle = window.requestIdleCallback ?? ((fn) => setTimeout(fn, 300));
  for (const count of HEAD_CHOICES) {
    idle(() => {
      if (built.has(count)) return;
      const r = model.peek(count);
      const v = variant(count);
      r.headWeights.forEach((w, i) => v.headMaps[i].update(w));
      v.concatMap.update(r.concat);
    });
  }
  return {};
}
