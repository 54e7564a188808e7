// Section 5 view: causal and padding masks; -inf before the softmax; masked
// weights exactly 0; rows renormalised. A click (or Enter/Space) on a weight
// cell masks or unmasks it. State: ./state.js. The softmax of one row written
// out: ./breakdown-panel.js.
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { readerMessage } from '../../lib/input-check.js';
import { matrixTable } from '../../components/matrix-table.js';
import { heatmap } from '../../components/heatmap.js';
import { choiceGroup } from '../../components/choice-group.js';
import { button } from '../../components/button.js';
import { formatNumber } from '../../lib/format.js';
import { createMasking } from './state.js';
import { breakdownPanel } from './breakdown-panel.js';
import params from './params.js';
import './masking.css';

export default { mount, params };

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createMasking(engine, initial ?? params.defaults()));
  const tokens = t('tokens');
  const n = tokens.length;
  const changed = (options) => refresh(options);

  const modes = choiceGroup({
    legend: t('controls.mode'),
    options: ['none', 'causal', 'padding', 'custom'].map((value) => ({ value, label: t(`modes.${value}`) })),
    value: model.state.mode,
    onChange: (mode) => { model.setMode(mode); changed(); },
  });
  const modeNote = h('p', { class: 'mask-mode-note', 'aria-live': 'polite' });
  const reset = button({ label: t('actions.reset'), icon: '\u21ba', onClick: () => { model.reset(); changed(); } });
  const matrix = (caption) => matrixTable({ rows: n, cols: n, rowLabels: tokens, colLabels: tokens, rowRole: 'q', colRole: 'k',
    caption, digits: 2, className: 'matrix-compact' });
  const scaled = matrix(t('matrices.scaled'));
  const masked = matrix(t('matrices.masked'));
  const weights = heatmap({
    rows: n, cols: n, rowLabels: tokens, colLabels: tokens,
    caption: t('matrices.weights'), rowAxis: t('matrices.rowAxis'), colAxis: t('matrices.colAxis'),
    tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'), maskedText: t('table.masked'), digits: 2,
    onToggle: (i, j) => { model.toggle(i, j); changed({ focusCell: [i, j] }); },
    cellLabel: (i, j, w, isMasked) => t(isMasked ? 'cell.masked' : 'cell.open', {
      query: tokens[i], key: tokens[j], weight: formatNumber(w, 2),   // the visible text comes first
    }),
  });
  const output = matrixTable({ rows: n, cols: 2, rowLabels: tokens, colLabels: ['1', '2'], rowRole: 'q', colRole: 'o',
    caption: t('matrices.output'), digits: 3 });
  const emptyRows = h('div', { class: 'mask-empty-rows', role: 'status', 'aria-live': 'polite' });
  const errorSlot = h('p', { class: 'input-error', role: 'status' });
  const breakdown = breakdownPanel(model, { t, tokens, changed });

  root.append(
    html('div', { class: 'prose section-lede' }, t('lede')),
    html('div', { class: 'prose' }, t('formula')),
    h('div', { class: 'panel mask-panel' },
      h('p', { class: 'panel-title', html: t('panelTitle') }),
      h('div', { class: 'controls-row mask-controls' }, modes.el, reset.el),
      modeNote,
      html('p', { class: 'mask-hint' }, t('hint')),
      errorSlot,
      h('div', { class: 'figure-row mask-steps' },
        scaled.el, h('div', { class: 'mask-arrow', 'aria-hidden': 'true', text: '\u2192' }), masked.el),
      h('div', { class: 'figure-row' }, weights.el, h('div', { class: 'grow' }, output.el, emptyRows)),
      breakdown.el),
    html('div', { class: 'prose' }, t('after')));

  function refresh({ focusCell } = {}) {
    onChange?.(model.snapshot);   // the host keeps links and attributes in step
    const { result, error, state } = model;
    setText(errorSlot, error ? t('error', { message: readerMessage(model.failure, t) }) : '');
    modes.set(state.mode);
    setHTML(modeNote, t(`modeNotes.${state.mode}`));
    breakdown.update();
    if (!result) return;
    scaled.update(result.scaled);
    masked.update(result.masked);
    weights.update(result.weights, result.maskedCells);
    output.update(result.output);
    setHTML(emptyRows, result.fullyMasked.map((i) =>
      `<p class="mask-empty">${t('emptyRow', { token: tokens[i] })}</p>`).join(''));
    if (focusCell) weights.cells[focusCell[0] * n + focusCell[1]].focus();
  }

  refresh();
  return {};
}
