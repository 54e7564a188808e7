// Section 8 view: the family of score functions, Bahdanau to scaled dot
// product, computed side by side on one toy translation. State: ./state.js.
import { h, html, setHTML } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { heatmap } from '../../components/heatmap.js';
import { matrixTable } from '../../components/matrix-table.js';
import { seedControl } from '../../components/seed-control.js';
import { formatScientific } from '../../lib/format.js';
import { METHODS, SOURCE, TARGET, createFamily, recoversAlignment } from './state.js';
import params from './params.js';
import formulas, { inline } from './formulas.tex.js';
import './family.css';

export default { mount, params };

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createFamily(engine, (initial ?? params.defaults()).seed));
  const { n, m, d } = model.result.toy;
  root.classList.add('fa-root');

  const sourceLabels = SOURCE.map((w) => `<span lang="en">${w}</span>`);
  const stateLabel = (t0) => `<i>s</i><sub>${t0}</sub>`;
  const rowLabels = (state) => TARGET.map((w, i) =>
    `<span lang="ko">${w}</span> <span class="fa-state">${stateLabel(state === 'previous' ? i : i + 1)}</span>`);

  // ---- the states ------------------------------------------------------------------
  const encoderTable = matrixTable({
    rows: m, cols: d, rowRole: 'k', digits: 2,
    rowLabels: SOURCE.map((w, j) => `<i>h</i><sub>${j + 1}</sub> <span lang="en">${w}</span>`),
    colLabels: Array.from({ length: d }, (_, c) => String(c + 1)),
    caption: t('states.encoder'),
  });
  const decoderTable = matrixTable({
    rows: n + 1, cols: d, rowRole: 'q', digits: 2,
    rowLabels: [`${stateLabel(0)} <span class="fa-muted">${t('states.start')}</span>`,
      ...TARGET.map((w, i) => `${stateLabel(i + 1)} <span lang="ko">${w}</span>`)],
    colLabels: Array.from({ length: d }, (_, c) => String(c + 1)),
    caption: t('states.decoder'),
  });
  const seed = seedControl({
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: model.seed,
    onChange: (s) => { model.setSeed(s); refresh(); onChange?.({ seed: s }); },
  });
  seed.button.dataset.action = 'rerun';

  // ---- the five alignment matrices ------------------------------------------------
  const cards = METHODS.map((method) => {
    const map = heatmap({
      rows: n, cols: m, rowLabels: rowLabels(method.state), colLabels: sourceLabels, digits: 2,
      caption: t(`methods.${method.id}.caption`), tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'),
    });
    const best = h('p', { class: 'fa-best' });
    const card = h('figure', { class: ['fa-card', `fa-${method.state}`], id: `family-${method.id}` },
      h('figcaption', { class: 'fa-card-head' },
        html('p', { class: 'fa-card-title' }, t(`methods.${method.id}.name`)),
        html('p', { class: 'fa-card-formula' }, inline[method.id]),
        html('p', { class: 'fa-card-state' }, t(`states.uses.${method.state}`))),
      map.el,
      best);
    return { method, map, best, card };
  });
  const shiftNote = h('p', { class: 'fa-note', 'aria-live': 'polite' });

  const panel = h('div', { class: 'panel fa-panel', id: 'family-panel' },
    h('p', { class: 'panel-title', html: t('panelTitle') }),
    h('p', { class: 'fa-sentence' },
      h('span', { lang: 'en', class: 'fa-src', text: SOURCE.join(' ') }),
      h('span', { class: 'fa-arrow', 'aria-hidden': 'true', text: '\u2192' }),
      h('span', { class: 'visually-hidden', text: t('translatesTo') }),
      h('span', { lang: 'ko', class: 'fa-tgt', text: TARGET.join(' ') })),
    html('p', { class: 'fa-hint' }, t('hint')),
    h('div', { class: 'controls-row' }, seed.el),
    h('div', { class: 'fa-states' }, encoderTable.el, decoderTable.el),
    h('div', { class: 'fa-cards' }, cards.map((c) => c.card)),
    shiftNote);

  // ---- the summary table of article 002 --------------------------------------------
  const summary = t('summary');
  const summaryTable = h('div', { class: 'matrix-scroll is-wide' },
    h('table', { class: 'matrix fa-summary' },
      html('caption', {}, summary.caption),
      h('thead', {}, h('tr', {}, summary.columns.map((c) => html('th', { scope: 'col' }, c)))),
      h('tbody', {}, summary.rows.map((row) => h('tr', {},
        html('th', { scope: 'row' }, row[0]),
        row.slice(1).map((cell, c) => html('td', { dataset: { label: summary.columns[c + 1] } }, cell)))))));

  root.append(
    h('div', { class: 'prose' }, html('p', { class: 'section-lede' }, t('lede'))),
    h('div', { class: 'prose' },
      html('p', {}, t('steps')),
      formula(formulas.steps).el,
      html('p', {}, t('luong')),
      formula(formulas.luong).el,
      html('p', {}, t('concatNote'))),
    panel,
    h('div', { class: 'prose' },
      html('h3', {}, t('order.title')),
      html('p', {}, t('order.intro')),
      h('div', { class: 'fa-flows' },
        h('div', { class: 'fa-flow' }, html('p', { class: 'fa-flow-name' }, t('order.bahdanau')), formula(formulas.bahdanauOrder).el),
        h('div', { class: 'fa-flow' }, html('p', { class: 'fa-flow-name' }, t('order.luong')), formula(formulas.luongOrder).el,
          formula(formulas.luongOutput).el)),
      html('p', {}, t('order.after')),
      html('h3', {}, t('summaryTitle')),
      html('p', {}, t('summaryIntro'))),
    h('div', { class: 'panel fa-summary-wrap' }, summaryTable),
    html('div', { class: 'prose' }, t('after')));

  function refresh() {
    const { toy, methods } = model.result;
    seed.set(toy.seed);
    encoderTable.update(toy.encoder);
    decoderTable.update(toy.decoder);
    for (const { method, map, best } of cards) {
      const r = methods[method.id];
      map.update(r.weights);
      setHTML(best, t('best', {
        pairs: r.best.map((j, i) => `<span lang="ko">${TARGET[i]}</span> → <span lang="en">${SOURCE[j]}</span>`).join(', '),
      }));
    }
    // concat at step t uses s_t, the state Bahdanau uses at step t + 1, with the
    // same parameters: its rows are Bahdanau's moved up by one.
    const b = methods.bahdanau.weights;
    const c = methods.concat.weights;
    let worst = 0;
    for (let i = 0; i + 1 < n; i++) for (let j = 0; j < m; j++) worst = Math.max(worst, Math.abs(c[i * m + j] - b[(i + 1) * m + j]));
    const reads = recoversAlignment(methods.dot.best) && recoversAlignment(methods.scaledDot.best);
    setHTML(shiftNote, `${t(reads ? 'reads' : 'readsNot')} ${t('shift', { diff: formatScientific(worst) })}`);
    panel.dataset.run = String(Number(panel.dataset.run ?? 0) + 1);
    panel.dataset.seed = String(toy.seed);
  }

  refresh();
  return {};
}
