// Section 5 view: causal and padding masks; -inf before the softmax; masked
// weights exactly 0; rows renormalised. A click (or Enter/Space) on a weight
// cell masks or unmasks it. State: ./state.js.
import { h, html, setHTML, setText } from '../../components/dom.js';
import { matrixTable } from '../../components/matrix-table.js';
import { heatmap } from '../../components/heatmap.js';
import { choiceGroup } from '../../components/choice-group.js';
import { selectInput } from '../../components/select-input.js';
import { button } from '../../components/button.js';
import { formatFull, formatNumber } from '../../lib/format.js';
import { createMasking } from './state.js';
import params from './params.js';
import './masking.css';

export default { mount, params };

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createMasking(engine, initial ?? params.defaults()));
  const tokens = t('tokens');
  const n = tokens.length;
  const dims = ['1', '2'];

  const modes = choiceGroup({
    legend: t('controls.mode'),
    options: ['none', 'causal', 'padding', 'custom'].map((value) => ({ value, label: t(`modes.${value}`) })),
    value: model.state.mode,
    onChange: (mode) => { model.setMode(mode); refresh(); },
  });
  const modeNote = h('p', { class: 'mask-mode-note', 'aria-live': 'polite' });
  const reset = button({ label: t('actions.reset'), icon: '\u21ba', onClick: () => { model.reset(); refresh(); } });

  const scaled = matrixTable({ rows: n, cols: n, rowLabels: tokens, colLabels: tokens, rowRole: 'q', colRole: 'k',
    caption: t('matrices.scaled'), digits: 2, className: 'matrix-compact' });
  const masked = matrixTable({ rows: n, cols: n, rowLabels: tokens, colLabels: tokens, rowRole: 'q', colRole: 'k',
    caption: t('matrices.masked'), digits: 2, className: 'matrix-compact' });
  const weights = heatmap({
    rows: n, cols: n, rowLabels: tokens, colLabels: tokens,
    caption: t('matrices.weights'), rowAxis: t('matrices.rowAxis'), colAxis: t('matrices.colAxis'),
    tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'), maskedText: t('table.masked'), digits: 2,
    onToggle: (i, j) => { model.toggle(i, j); refresh({ focusCell: [i, j] }); },
    cellLabel: (i, j, w, isMasked) => t(isMasked ? 'cell.masked' : 'cell.open', {
      query: tokens[i], key: tokens[j], weight: formatNumber(w, 2),   // the visible text comes first
    }),
  });
  const output = matrixTable({ rows: n, cols: 2, rowLabels: tokens, colLabels: dims, rowRole: 'q', colRole: 'o',
    caption: t('matrices.output'), digits: 3 });
  const emptyRows = h('div', { class: 'mask-empty-rows', role: 'status', 'aria-live': 'polite' });
  const errorSlot = h('p', { class: 'input-error', role: 'status' });

  // The softmax of one row, written out.
  const rowSelect = selectInput({
    label: t('breakdown.row'),
    options: tokens.map((label, i) => ({ value: i, label })),
    value: model.state.focusRow,
    onChange: (i) => { model.setFocusRow(i); refresh(); },
  });
  const bdCells = { masked: [], exp: [], weight: [] };
  const bdSums = {};
  const bdBody = h('tbody', {}, ['masked', 'exp', 'weight'].map((step) => {
    const tr = h('tr', {}, html('th', { scope: 'row' }, t(`breakdown.${step}`)));
    for (let j = 0; j < n; j++) {
      const td = h('td', { class: 'num' });
      bdCells[step].push(td);
      tr.append(td);
    }
    bdSums[step] = h('td', { class: 'num bd-sum' });
    tr.append(bdSums[step]);
    return tr;
  }));
  const bdTable = h('table', { class: 'matrix breakdown-table' },
    h('thead', {}, h('tr', {}, h('td'), tokens.map((tok) => h('th', { scope: 'col', class: 'role-text-k', text: tok })),
      h('th', { scope: 'col', text: t('breakdown.sum') }))),
    bdBody);
  const bdNote = h('p', { class: 'breakdown-note' });

  root.append(
    html('div', { class: 'prose section-lede' }, t('lede')),
    html('div', { class: 'prose' }, t('formula')),
    h('div', { class: 'panel mask-panel' },
      h('p', { class: 'panel-title', text: t('panelTitle') }),
      h('div', { class: 'controls-row mask-controls' }, modes.el, reset.el),
      modeNote,
      html('p', { class: 'mask-hint' }, t('hint')),
      errorSlot,
      h('div', { class: 'figure-row mask-steps' },
        scaled.el, h('div', { class: 'mask-arrow', 'aria-hidden': 'true', text: '\u2192' }), masked.el),
      h('div', { class: 'figure-row' }, weights.el, h('div', { class: 'grow' }, output.el, emptyRows)),
      h('div', { class: 'breakdown' },
        h('h3', { class: 'breakdown-title', text: t('breakdown.title') }),
        rowSelect.el,
        h('div', { class: 'matrix-scroll' }, bdTable),
        bdNote)),
    html('div', { class: 'prose' }, t('after')));

  function refresh({ focusCell } = {}) {
    onChange?.(model.snapshot);   // the host keeps links and attributes in step
    const { result, error, state } = model;
    setText(errorSlot, error ? t('error', { message: error }) : '');
    modes.set(state.mode);
    setHTML(modeNote, t(`modeNotes.${state.mode}`));
    rowSelect.set(state.focusRow);
    if (!result) return;
    scaled.update(result.scaled);
    masked.update(result.masked);
    weights.update(result.weights, result.maskedCells);
    output.update(result.output);
    setHTML(emptyRows, result.fullyMasked.map((i) =>
      `<p class="mask-empty">${t('emptyRow', { token: tokens[i] })}</p>`).join(''));

    const bd = model.breakdown;
    for (let j = 0; j < n; j++) {
      const isMasked = bd.masked[j] === -Infinity;
      setNum(bdCells.masked[j], bd.masked[j]);
      setNum(bdCells.exp[j], bd.exps[j], isMasked);
      setNum(bdCells.weight[j], bd.weights[j], isMasked);
      for (const step of ['masked', 'exp', 'weight']) bdCells[step][j].classList.toggle('is-masked', isMasked);
    }
    setText(bdSums.masked, '');
    setNum(bdSums.exp, bd.sumExp, bd.allMasked);
    setNum(bdSums.weight, bd.weightSum, bd.allMasked);
    setHTML(bdNote, bd.allMasked
      ? t('breakdown.allMasked', { token: tokens[state.focusRow] })
      : t('breakdown.note', { token: tokens[state.focusRow], sum: formatNumber(bd.sumExp) }));
    if (focusCell) weights.cells[focusCell[0] * n + focusCell[1]].focus();
  }

  refresh();
  return {};
}

// Exact zeros that a mask produced print as "0", not "0.000".
function setNum(el, x, exactZero = false) {
  setText(el, exactZero && x === 0 ? '0' : formatNumber(x));
  el.title = formatFull(x);
}
