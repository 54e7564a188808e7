// Section 8, the panel: the toy translation's encoder and decoder states (a
// seed draws them), the five score functions' alignment matrices side by side,
// each card with its formula, the state it uses and its strongest pairs, and a
// note on what the alignments show (./state.js recoversAlignment, concatShift),
// and the note on scaled dot-product with projections (./projection-note.js).
import { h, html, setHTML } from '../../lib/dom.js';
import { heatmap } from '../../components/heatmap.js';
import { matrixTable } from '../../components/matrix-table.js';
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { formatScientific } from '../../lib/format.js';
import { METHODS, SOURCE, TARGET, concatShift, recoversAlignment } from './state.js';
import { inline } from './formulas.tex.js';
import { projectionNote } from './projection-note.js';

const stateLabel = (t0) => `<i>s</i><sub>${t0}</sub>`;
const columns = (d) => Array.from({ length: d }, (_, c) => String(c + 1));

// The encoder states h_j and the decoder states s_0 .. s_n, one table each.
function statesTables(t, { n, m, d }) {
  const encoder = matrixTable({
    rows: m, cols: d, rowRole: 'k', digits: 2, colLabels: columns(d), caption: t('states.encoder'),
    rowLabels: SOURCE.map((w, j) => `<i>h</i><sub>${j + 1}</sub> <span lang="en">${w}</span>`),
  });
  const decoder = matrixTable({
    rows: n + 1, cols: d, rowRole: 'q', digits: 2, colLabels: columns(d), caption: t('states.decoder'),
    rowLabels: [`${stateLabel(0)} <span class="fa-muted">${t('states.start')}</span>`,
      ...TARGET.map((w, i) => `${stateLabel(i + 1)} <span lang="ko">${w}</span>`)],
  });
  return { encoder, decoder };
}

// One method's card: its alignment matrix, rows labelled with the state it uses.
function methodCard(t, method, { n, m }) {
  const rowLabels = TARGET.map((w, i) =>
    `<span lang="ko">${w}</span> <span class="fa-state">${stateLabel(method.state === 'previous' ? i : i + 1)}</span>`);
  const map = heatmap({
    rows: n, cols: m, rowLabels, colLabels: SOURCE.map((w) => `<span lang="en">${w}</span>`), digits: 2,
    caption: t(`methods.${method.id}.caption`), tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'),
  });
  const best = h('p', { class: 'fa-best' });
  const el = h('figure', { class: ['fa-card', `fa-${method.state}`], id: `family-${method.id}` },
    h('figcaption', { class: 'fa-card-head' },
      html('p', { class: 'fa-card-title' }, t(`methods.${method.id}.name`)),
      html('p', { class: 'fa-card-formula' }, inline[method.id]),
      html('p', { class: 'fa-card-state' }, t(`states.uses.${method.state}`))),
    map.el,
    best);
  return {
    el,
    update(result) {
      map.update(result.weights);
      setHTML(best, t('best', {
        pairs: result.best.map((j, i) => `<span lang="ko">${TARGET[i]}</span> → <span lang="en">${SOURCE[j]}</span>`).join(', '),
      }));
    },
  };
}

export function scoresPanel(model, { t, onSeed }) {
  const shape = model.result.toy;
  const states = statesTables(t, shape);
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }),
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: model.seed,
    onChange: (s) => { model.setSeed(s); refresh(); onSeed(s); },
  });
  seed.button.dataset.action = 'rerun';
  const cards = METHODS.map((method) => ({ id: method.id, card: methodCard(t, method, shape) }));
  const note = h('p', { class: 'fa-note', 'aria-live': 'polite' });
  const projection = projectionNote(t, shape);

  const el = h('div', { class: 'panel fa-panel', id: 'family-panel' },
    h('p', { class: 'panel-title', html: t('panelTitle') }),
    h('p', { class: 'fa-sentence' },
      h('span', { lang: 'en', class: 'fa-src', text: SOURCE.join(' ') }),
      h('span', { class: 'fa-arrow', 'aria-hidden': 'true', text: '\u2192' }),
      h('span', { class: 'visually-hidden', text: t('translatesTo') }),
      h('span', { lang: 'ko', class: 'fa-tgt', text: TARGET.join(' ') })),
    html('p', { class: 'fa-hint' }, t('hint')),
    h('div', { class: 'controls-row' }, seed.el),
    h('div', { class: 'fa-states' }, states.encoder.el, states.decoder.el),
    h('div', { class: 'fa-cards' }, cards.map((c) => c.card.el)),
    note,
    projection.el);

  function refresh() {
    const { toy, methods } = model.result;
    seed.set(toy.seed);
    states.encoder.update(toy.encoder);
    states.decoder.update(toy.decoder);
    for (const { id, card } of cards) card.update(methods[id]);
    const reads = recoversAlignment(methods.dot.best) && recoversAlignment(methods.scaledDot.best);
    setHTML(note, `${t(reads ? 'reads' : 'readsNot')} ${t('shift', { diff: formatScientific(concatShift(model.result)) })}`);
    projection.update(model.result.projection);
    el.dataset.run = String(Number(el.dataset.run ?? 0) + 1);
    el.dataset.seed = String(toy.seed);
  }

  refresh();
  return { el };
}
