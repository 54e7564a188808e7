// Section 4 view: self-attention on article 004's five-token sentence, with
// Q = K = V = X. Every matrix computed by the engine; embeddings editable.
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { readerMessage } from '../../lib/input-check.js';
import { formula } from '../../components/formula.js';
import { matrixInput } from '../../components/matrix-input.js';
import { matrixTable } from '../../components/matrix-table.js';
import { heatmap } from '../../components/heatmap.js';
import { button } from '../../components/button.js';
import { formatNumber } from '../../lib/format.js';
import { createSentence } from './state.js';
import { articleRounding, articleRoundingText } from './article-note.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import './sentence.css';

export default { mount, params };

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createSentence(engine, (initial ?? params.defaults()).embeddings));
  const tokens = model.tokens;
  const n = tokens.length;
  const d = model.embeddings[0].length;
  const dims = Array.from({ length: d }, (_, c) => String(c + 1));

  const errorSlot = h('p', { class: 'input-error', role: 'status', 'aria-live': 'polite' });
  const editor = matrixInput({
    values: model.embeddings.flat(), rows: n, cols: d, rowLabels: tokens, colLabels: dims,
    caption: t('embeddings.caption'),
    cellLabel: (i, c) => t('embeddings.cell', { token: tokens[i], c: c + 1 }),
    onInput: (i, c, x) => { model.setEmbedding(i, c, x); refresh({ from: 'input' }); },
  });
  const reset = button({ label: t('actions.reset'), icon: '\u21ba', onClick: () => { model.reset(); refresh(); } });

  const scores = matrixTable({ rows: n, cols: n, rowLabels: tokens, colLabels: tokens, rowRole: 'q', colRole: 'k',
    caption: t('matrices.scores'), digits: 2, className: 'matrix-compact' });
  const scaled = matrixTable({ rows: n, cols: n, rowLabels: tokens, colLabels: tokens, rowRole: 'q', colRole: 'k',
    caption: t('matrices.scaled'), digits: 2, className: 'matrix-compact' });
  const weights = heatmap({
    rows: n, cols: n, rowLabels: tokens, colLabels: tokens,
    caption: t('matrices.weights'), rowAxis: t('matrices.rowAxis'), colAxis: t('matrices.colAxis'),
    tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'), digits: 2,
  });
  const output = matrixTable({ rows: n, cols: d, rowLabels: tokens, colLabels: dims, rowRole: 'q', colRole: 'o',
    caption: t('matrices.output'), digits: 3 });
  const observations = h('ul', { class: 'observations' });

  root.append(
    html('div', { class: 'prose section-lede' }, t('lede')),
    h('div', { class: 'prose' }, formula(formulas.steps).el),
    h('div', { class: 'panel sentence-panel' },
      h('p', { class: 'panel-title', html: t('panelTitle') }),
      h('div', { class: 'figure-row' },
        h('div', { class: 'sentence-inputs' }, editor.el, errorSlot, h('div', { class: 'controls-row' }, reset.el)),
        scores.el, scaled.el),
      h('div', { class: 'figure-row sentence-results' }, weights.el, h('div', { class: 'grow' }, output.el, observations))),
    h('aside', { class: 'note', 'aria-label': t('articleNote.label') },
      html('p', {}, articleRoundingText(t, articleRounding(engine))), html('p', {}, t('articleNote.weights'))),
    html('div', { class: 'prose' }, t('after')));

  function refresh({ from } = {}) {
    onChange?.(model.snapshot);   // the host keeps links and attributes in step
    const { result, error } = model;
    setText(errorSlot, error ? t('embeddings.error', { message: readerMessage(model.failure, t) }) : '');
    root.querySelector('.sentence-results').classList.toggle('is-stale', Boolean(error));
    if (from !== 'input') editor.set(model.embeddings.flat());
    if (!result) return;
    scores.update(result.scores);
    scaled.update(result.scaled);
    weights.update(result.weights);
    output.update(result.output);
    const items = [];
    const quoted = (i) => `“${tokens[i]}”`;
    for (const [a, b] of result.identicalRows) items.push(t('observations.identical', { a: quoted(a), b: quoted(b) }));
    for (const p of result.prefersOther) {
      items.push(t('observations.prefersOther', {
        token: quoted(p.i), to: quoted(p.j), self: formatNumber(p.self, 2), other: formatNumber(p.other, 2),
        dot: formatNumber(p.dot, 2), norm2: formatNumber(p.norm2, 2),
      }));
    }
    if (result.scoresSymmetric && !result.weightsSymmetric) items.push(t('observations.symmetry'));
    items.push(t('observations.rowSums'));
    setHTML(observations, items.map((s) => `<li>${s}</li>`).join(''));
  }

  refresh();
  return {};
}
