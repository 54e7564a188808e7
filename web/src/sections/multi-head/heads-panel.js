// Section 6, the heads: h chosen from {1, 2, 4, 8}, new projections from the
// next seed, and one weight heatmap per head. The heatmaps of each h are built
// once and stay in the page, stowed until shown (lib/stowed.js: the browser
// keeps their rendering state), so changing h swaps instead of rebuilding;
// `variant(h)` is shared with the concatenation panel.
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { heatmap } from '../../components/heatmap.js';
import { choiceGroup } from '../../components/choice-group.js';
import { button } from '../../components/button.js';
import { D_MODEL, HEAD_CHOICES, N_TOKENS } from './state.js';

export function headsPanel(model, { t, tokens, changed }) {
  const headsChoice = choiceGroup({
    legend: t('controls.heads'),
    options: HEAD_CHOICES.map((value) => ({ value, label: `h = ${value}` })),
    value: model.heads,
    onChange: (value) => { model.setHeads(value); changed(); },
  });
  const seedText = h('span', { class: 'mh-seed', 'aria-live': 'polite' });
  const redraw = button({ label: t('controls.redraw'), icon: '\u2684', onClick: () => { model.redraw(); changed(); } });
  const summary = h('p', { class: 'mh-summary', 'aria-live': 'polite' });
  const grid = h('div', { class: 'mh-heads' });   // one .mh-variant per h

  function build(count) {
    const maps = Array.from({ length: count }, (_, i) => heatmap({
      rows: N_TOKENS, cols: N_TOKENS, rowLabels: tokens, colLabels: tokens,
      caption: t('headCaption', { i: i + 1, dk: D_MODEL / count }), tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'),
      digits: 2, compact: count > 1,
    }));
    const el = h('div', { class: 'mh-variant mh-heads-grid is-stowed', dataset: { heads: String(count) } },   // lib/stowed.js
      maps.map((m) => h('div', { class: 'mh-head' }, m.el)));
    grid.append(el);
    return { el, maps, update: (r) => r.headWeights.forEach((w, i) => maps[i].update(w)) };
  }

  return {
    controls: h('div', { class: 'controls-row mh-controls' }, headsChoice.el, h('div', { class: 'mh-seed-box' }, redraw.el, seedText)),
    summary,
    grid,
    build,
    update() {
      const r = model.result;
      headsChoice.set(model.heads);
      setText(seedText, t('controls.seed', { seed: model.seed }));
      setHTML(summary, t(r.heads === 1 ? 'summaryOne' : 'summary', { h: r.heads, dk: r.dk, d: D_MODEL }));
    },
  };
}

// The concatenation of the heads' outputs, times W_O, equals the output: three
// colour maps (numbers in their tables). The concatenation (its gaps between
// heads) and the output depend on h, so each has one variant per h too, filled
// while idle like the heads' maps: a change of h writes none of their cells.
export function combinePanel(model, { t, tokens, dims }) {
  const concatSlot = h('div', { class: 'mh-term' });
  const outputSlot = h('div', { class: 'mh-term' });
  const woMap = heatmap({
    rows: D_MODEL, cols: D_MODEL, rowLabels: dims, colLabels: dims, rowRole: 'o', colRole: 'o',
    caption: t('combine.wo'), tableSummary: t('table.show'), diverging: true, tiny: true, digits: 2,
  });
  let shownSeed = null;

  // The concatenation's and the output's maps for h = count, in their slots, stowed (lib/stowed.js).
  function build(count) {
    const dk = D_MODEL / count;
    const concat = heatmap({
      rows: N_TOKENS, cols: D_MODEL, rowLabels: tokens,
      colLabels: dims.map((_, c) => (c % dk === 0 ? `h${c / dk + 1}` : '')),
      tableColLabels: dims.map((_, c) => `h${Math.floor(c / dk) + 1}·${(c % dk) + 1}`),
      rowRole: 'q', colRole: 'o', caption: t('combine.concat'), tableSummary: t('table.show'),
      diverging: true, tiny: true, digits: 2, groupSize: dk,
    });
    const output = heatmap({
      rows: N_TOKENS, cols: D_MODEL, rowLabels: tokens, colLabels: dims, rowRole: 'q', colRole: 'o',
      caption: t('combine.output'), tableSummary: t('table.show'), diverging: true, tiny: true, digits: 2,
    });
    const part = (slot, map, values) => {
      const el = h('div', { class: 'mh-variant is-stowed' }, map.el);
      slot.append(el);
      return { el, update: (r) => map.update(values(r)) };
    };
    return [part(concatSlot, concat, (r) => r.concat), part(outputSlot, output, (r) => r.output)];
  }

  return {
    el: h('div', {},
      html('h3', { class: 'mh-subtitle' }, t('combine.title')),
      html('p', { class: 'mh-combine-text' }, t('combine.text')),
      h('div', { class: 'mh-combine' },
        concatSlot, h('span', { class: 'mh-op', 'aria-hidden': 'true', text: '\u00d7' }),
        h('div', { class: 'mh-term' }, woMap.el), h('span', { class: 'mh-op', 'aria-hidden': 'true', text: '=' }),
        outputSlot)),
    build,
    update() {
      if (shownSeed !== model.seed) woMap.update(model.drawn.wo);   // W_O does not depend on h
      shownSeed = model.seed;
    },
  };
}
