// Section 1, every intermediate number: one row per step (dot product, scale,
// exponentiate, normalise, mix) and a column per key, with the row totals;
// then o = w_1 v_1 + w_2 v_2 + w_3 v_3 with the live numbers, and what the
// weights would be with the scaling flipped.
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { columnVector } from '../../components/column-vector.js';
import { weightBar } from '../../components/weight-bar.js';
import { math, mrow, mi, mo, mn, mcolumn } from '../../components/live-math.js';
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
  const cells = {};
  const rowHeads = {};
  const sums = {};
  const bars = [];
  const mixVectors = [];
  const outputVector = columnVector({ size: 2, role: 'o' });
  const factor = h('span', { class: 'step-factor' });   // × 1/√d_k, the scale row's own place
  const tbody = h('tbody');
  for (const step of STEPS) {
    const label = h('span', { class: 'step-math' });
    rowHeads[step] = label;
    const tr = h('tr', { class: `step-${step}` },
      h('th', { scope: 'row' }, h('span', { class: 'step-name', text: t(`steps.${step}`) }), label, step === 'scaled' ? factor : null));
    cells[step] = [];
    for (let j = 0; j < m; j++) {
      const td = h('td', { class: 'num' });
      if (step === 'weight') {
        const value = h('span', { class: 'step-value' });
        const bar = weightBar();
        bars.push(bar);
        td.append(value, bar.el);
        cells[step].push(value);
      } else if (step === 'mix') {
        const vec = columnVector({ size: 2, role: 'v' });
        mixVectors.push(vec);
        td.append(vec.el);
        cells[step].push(null);
      } else {
        cells[step].push(td);
      }
      tr.append(td);
    }
    const sumCell = h('td', { class: 'num step-sum' });
    if (step === 'mix') sumCell.append(outputVector.el);
    sums[step] = sumCell;
    tr.append(sumCell);
    tbody.append(tr);
  }
  setHTML(rowHeads.dot, inline.dot);
  setHTML(rowHeads.weight, inline.weight);
  setHTML(rowHeads.mix, inline.mix);
  const table = h('table', { class: 'steps-table' },
    html('caption', {}, t('steps.caption')),
    h('thead', {}, h('tr', {},
      h('td'),
      Array.from({ length: m }, (_, j) => html('th', { scope: 'col', class: 'role-text-k' }, `<i>k</i><sub>${j + 1}</sub>`)),
      html('th', { scope: 'col' }, t('steps.total')))),
    tbody);

  // o = w1 v1 + w2 v2 + w3 v3 = o as separate pieces, so it wraps on a phone.
  const outputEq = h('div', { class: 'we-output-eq' });
  const compare = h('p', { class: 'we-compare' });
  // When e^{s_j} overflows, the row shows e^{s_j - max s}: one line says why.
  const stableNote = h('p', { class: 'we-stable-note', 'aria-live': 'polite' });
  const el = h('div', { class: 'we-steps' }, h('div', { class: 'matrix-scroll is-wide' }, table), stableNote, outputEq, compare);

  return {
    el,
    update() {
      const { result: r, error, other } = model;
      el.classList.toggle('is-stale', Boolean(error));
      if (!r) return;
      setHTML(rowHeads.scaled, r.scaling ? inline.scaled : inline.unscaled);
      setHTML(rowHeads.exp, r.overflow ? inline.expStable : inline.exp);
      setHTML(stableNote, r.overflow ? t('steps.stable') : '');
      el.classList.toggle('is-stable', r.overflow);
      const exps = r.overflow ? r.shifted : r.exps;
      for (let j = 0; j < m; j++) {
        setCell(cells.dot[j], r.scores[j]);
        setCell(cells.scaled[j], r.scaled[j]);
        setCell(cells.exp[j], exps[j]);
        setCell(cells.weight[j], r.weights[j]);
        bars[j].update(r.weights[j]);
        mixVectors[j].update(r.weighted[j]);
      }
      setText(factor, r.scaling ? `\u00d7 ${formatNumber(r.scale)}` : '');
      factor.title = r.scaling ? t('steps.scaleTitle', { scale: formatFull(r.scale) }) : '';
      setCell(sums.exp, r.overflow ? r.sumShifted : r.sumExp);
      setCell(sums.weight, r.weightSum);
      outputVector.update(r.output);

      outputEq.replaceChildren(
        math([mrow(mi('o', 'o'), mo('='))]),
        ...r.weights.map((w, j) => math([mrow(j > 0 ? mo('+') : null, mn(w), mcolumn(r.values[j], 3, 'v', { trim: true }))])),
        math([mrow(mo('='), mcolumn(r.output, 3, 'o'))]));

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
