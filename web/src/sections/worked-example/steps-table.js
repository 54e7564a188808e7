// Section 1, every intermediate number: a step (dot product, scale,
// exponentiate, normalise, mix) for each key, with the totals; then
// o = w_1 v_1 + w_2 v_2 + w_3 v_3 with the live numbers, and what the weights
// would be with the scaling flipped.
//
// Two ways to write the same numbers (the model's `convention`): 'rows', a
// row per step and a column per key, as Q K^T holds a row per query; and
// 'columns', article 000's V Softmax(K^T Q / sqrt(d_k)), where K^T Q holds a
// column per query: the table transposed (a row per key, a column per step)
// and o = V w. The cells are the same elements, moved.
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { columnVector } from '../../components/column-vector.js';
import { weightBar } from '../../components/weight-bar.js';
import { math, mrow, mi, mo, mn, mcolumn, mmatrix } from '../../components/live-math.js';
import { formatFull, formatNumber } from '../../lib/format.js';
import { setFullValue } from '../../lib/full-value.js';
import { inline } from './formulas.tex.js';

const STEPS = ['dot', 'scaled', 'exp', 'weight', 'mix'];

function setCell(el, x) {
  const text = formatNumber(x);
  setText(el, text);
  setFullValue(el, formatFull(x));
  el.classList.toggle('is-power', text.includes('\u00d7'));   // 1.24 × 10³⁰⁷: a smaller type on a phone
}

export function stepsPanel(model, { t }) {
  const m = model.inputs.keys.length;
  const tds = {};      // the cell of each step and key
  const values = {};   // where its number goes (the mix cells hold vectors instead)
  const stepHeads = {};
  const rowHeads = {};
  const sums = {};
  const bars = [];
  const mixVectors = [];
  const outputVector = columnVector({ size: 2, role: 'o' });
  const factor = h('span', { class: 'step-factor' });   // × 1/√d_k, the scale step's own place
  for (const step of STEPS) {
    const label = h('span', { class: 'step-math' });
    rowHeads[step] = label;
    stepHeads[step] = h('th', {}, h('span', { class: 'step-name', text: t(`steps.${step}`) }), label,
      step === 'scaled' ? factor : null);
    tds[step] = [];
    values[step] = [];
    for (let j = 0; j < m; j++) {
      const td = h('td', { class: `num step-${step}` });
      if (step === 'weight') {
        const value = h('span', { class: 'step-value' });
        const bar = weightBar();
        bars.push(bar);
        td.append(value, bar.el);
        values[step].push(value);
      } else if (step === 'mix') {
        const vec = columnVector({ size: 2, role: 'v' });
        mixVectors.push(vec);
        td.append(vec.el);
      } else {
        values[step].push(td);
      }
      tds[step].push(td);
    }
    sums[step] = h('td', { class: `num step-sum step-${step}` }, step === 'mix' ? outputVector.el : null);
  }
  setHTML(rowHeads.dot, inline.dot);
  setHTML(rowHeads.weight, inline.weight);
  setHTML(rowHeads.mix, inline.mix);
  const keyHeads = Array.from({ length: m }, (_, j) => html('th', { class: 'role-text-k' }, `<i>k</i><sub>${j + 1}</sub>`));
  const totalHead = h('th', { class: 'step-total', text: t('steps.total') });

  const caption = h('caption');
  const thead = h('thead');
  const tbody = h('tbody');
  const table = h('table', { class: 'steps-table' }, caption, thead, tbody);

  // The same cells in rows (a row per step) or in columns (a row per key).
  function layOut(convention) {
    const columns = convention === 'columns';
    table.classList.toggle('is-columns', columns);
    setText(caption, t(columns ? 'steps.captionColumns' : 'steps.caption'));
    const scope = (th, value) => { th.setAttribute('scope', value); return th; };
    if (columns) {
      thead.replaceChildren(h('tr', {}, h('td'), STEPS.map((step) => scope(stepHeads[step], 'col'))));
      tbody.replaceChildren(
        ...keyHeads.map((head, j) => h('tr', { class: 'step-key' }, scope(head, 'row'), STEPS.map((step) => tds[step][j]))),
        h('tr', { class: 'step-totals' }, scope(totalHead, 'row'), STEPS.map((step) => sums[step])));
    } else {
      thead.replaceChildren(h('tr', {}, h('td'), keyHeads.map((head) => scope(head, 'col')), scope(totalHead, 'col')));
      tbody.replaceChildren(...STEPS.map((step) =>
        h('tr', { class: `step-${step}` }, scope(stepHeads[step], 'row'), tds[step], sums[step])));
    }
  }

  // o = w1 v1 + w2 v2 + w3 v3 = o (rows), or o = V w (columns), as separate pieces, so it wraps on a phone.
  const outputEq = h('div', { class: 'we-output-eq' });
  const compare = h('p', { class: 'we-compare' });
  // When the engine shifts the exponentials, the row shows e^{s_j - max s}: one line says why.
  const stableNote = h('p', { class: 'we-stable-note', 'aria-live': 'polite' });
  const el = h('div', { class: 'we-steps' }, h('div', { class: 'matrix-scroll is-wide' }, table), stableNote, outputEq, compare);
  let laidOut = null;

  return {
    el,
    update() {
      const { result: r, error, other, inputs } = model;
      el.classList.toggle('is-stale', Boolean(error));
      if (inputs.convention !== laidOut) layOut(laidOut = inputs.convention);
      if (!r) return;
      setHTML(rowHeads.scaled, r.scaling ? inline.scaled : inline.unscaled);
      setHTML(rowHeads.exp, r.stable ? inline.expStable : inline.exp);
      setHTML(stableNote, r.stable ? t('steps.stable') : '');
      el.classList.toggle('is-stable', r.stable);
      for (let j = 0; j < m; j++) {
        setCell(values.dot[j], r.scores[j]);
        setCell(values.scaled[j], r.scaled[j]);
        setCell(values.exp[j], r.exps[j]);
        setCell(values.weight[j], r.weights[j]);
        bars[j].update(r.weights[j]);
        mixVectors[j].update(r.weighted[j]);
      }
      setText(factor, r.scaling ? `\u00d7 ${formatNumber(r.scale)}` : '');
      factor.title = r.scaling ? t('steps.scaleTitle', { scale: formatFull(r.scale) }) : '';
      setCell(sums.exp, r.expSum);
      setCell(sums.weight, r.weightSum);
      outputVector.update(r.output);

      const equals = [mrow(mi('o', 'o'), mo('='))];
      outputEq.replaceChildren(...(laidOut === 'columns'
        ? [math([...equals, mmatrix(r.values, 3, 'v', { trim: true, transpose: true }), mcolumn(r.weights, 3)]),
          math([mrow(mo('='), mcolumn(r.output, 3, 'o'))])]
        : [math(equals),
          ...r.weights.map((w, j) => math([mrow(j > 0 ? mo('+') : null, mn(w), mcolumn(r.values[j], 3, 'v', { trim: true }))])),
          math([mrow(mo('='), mcolumn(r.output, 3, 'o'))])]));

      // The sentence says what the other setting changes in the weights as shown:
      // nothing (equal scores, or scores so far apart that one key takes all) or
      // flatter / sharper weights.
      const shown = (weights) => weights.map((w) => formatNumber(w)).join(', ');
      const key = shown(other.weights) === shown(r.weights) ? 'compare.same'
        : r.scaling ? 'compare.withoutScaling' : 'compare.withScaling';
      setHTML(compare, t(key, { divisor: formatNumber(Math.sqrt(r.dk)), weights: shown(other.weights) }));
    },
  };
}
