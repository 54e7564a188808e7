// Section 5, the softmax of one row written out: its masked scores, their
// exponentials (0 for -inf), their sum, and the weights.
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { selectInput } from '../../components/select-input.js';
import { formatFull, formatNumber } from '../../lib/format.js';
import { setFullValue } from '../../lib/full-value.js';

const STEPS = ['masked', 'exp', 'weight'];

// Exact zeros that a mask produced print as "0", not "0.000".
function setNum(el, x, exactZero = false) {
  setText(el, exactZero && x === 0 ? '0' : formatNumber(x));
  setFullValue(el, formatFull(x));
}

export function breakdownPanel(model, { t, tokens, changed }) {
  const n = tokens.length;
  const rowSelect = selectInput({
    label: t('breakdown.row'),
    options: tokens.map((label, i) => ({ value: i, label })),
    value: model.state.focusRow,
    onChange: (i) => { model.setFocusRow(i); changed(); },
  });
  const cells = { masked: [], exp: [], weight: [] };
  const sums = {};
  const body = h('tbody', {}, STEPS.map((step) => {
    const tr = h('tr', {}, html('th', { scope: 'row' }, t(`breakdown.${step}`)));
    for (let j = 0; j < n; j++) {
      const td = h('td', { class: 'num' });
      cells[step].push(td);
      tr.append(td);
    }
    sums[step] = h('td', { class: 'num bd-sum' });
    tr.append(sums[step]);
    return tr;
  }));
  const table = h('table', { class: 'matrix breakdown-table' },
    h('thead', {}, h('tr', {}, h('td'), tokens.map((tok) => h('th', { scope: 'col', class: 'role-text-k', text: tok })),
      h('th', { scope: 'col', text: t('breakdown.sum') }))),
    body);
  const note = h('p', { class: 'breakdown-note' });

  return {
    el: h('div', { class: 'breakdown' },
      h('h3', { class: 'breakdown-title', text: t('breakdown.title') }),
      rowSelect.el,
      h('div', { class: 'matrix-scroll is-wide' }, table),
      note),
    update() {
      const { state } = model;
      rowSelect.set(state.focusRow);
      const bd = model.breakdown;
      if (!bd) return;
      for (let j = 0; j < n; j++) {
        const isMasked = bd.masked[j] === -Infinity;
        setNum(cells.masked[j], bd.masked[j]);
        setNum(cells.exp[j], bd.exps[j], isMasked);
        setNum(cells.weight[j], bd.weights[j], isMasked);
        for (const step of STEPS) cells[step][j].classList.toggle('is-masked', isMasked);
      }
      setText(sums.masked, '');
      setNum(sums.exp, bd.sumExp, bd.allMasked);
      setNum(sums.weight, bd.weightSum, bd.allMasked);
      setHTML(note, bd.allMasked
        ? t('breakdown.allMasked', { token: tokens[state.focusRow] })
        : t('breakdown.note', { token: tokens[state.focusRow], sum: formatNumber(bd.sumExp) }));
    },
  };
}
