// Section 3, the first panel: the editable embeddings M and factor c, the
// weight heatmap A, and one token's gaze (its row of A as bars, picked by a
// radio group or by hovering a row). `select(i)` and `changed(from)` go back
// to the section, which redraws what depends on them.
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { readerMessage } from '../../lib/input-check.js';
import { heatmap } from '../../components/heatmap.js';
import { matrixInput } from '../../components/matrix-input.js';
import { numberInput } from '../../components/number-input.js';
import { button } from '../../components/button.js';
import { choiceGroup } from '../../components/choice-group.js';
import { weightBar } from '../../components/weight-bar.js';
import { formatFull, formatNumber } from '../../lib/format.js';
import { setFullValue } from '../../lib/full-value.js';
import { TOKENS } from './state.js';
import { inline } from './formulas.tex.js';

export function weightsPanel(model, { t, labels, changed, select }) {
  const n = TOKENS.length;
  const d = model.inputs.base[0].length;
  const errorSlot = h('p', { class: 'input-error', role: 'status', 'aria-live': 'polite' });
  const factorInput = numberInput({
    value: model.inputs.factor, label: t('inputs.factor'),
    onInput: (x) => { model.setFactor(x); changed('input'); },
  });
  const baseInput = matrixInput({
    values: model.inputs.base.flat(), rows: n, cols: d,
    rowLabels: labels, colLabels: Array.from({ length: d }, (_, c) => String(c + 1)),
    caption: t('inputs.caption'),
    cellLabel: (r, c) => t('inputs.cell', { token: TOKENS[r], i: c + 1 }),
    onInput: (r, c, x) => { model.setEntry(r, c, x); changed('input'); },
  });
  const reset = button({ label: t('actions.reset'), icon: '\u21ba', onClick: () => { model.reset(); changed('reset'); } });

  const weightsMap = heatmap({
    rows: n, cols: n, rowLabels: labels, colLabels: labels,
    caption: t('heatmap.caption'), rowAxis: t('heatmap.rowAxis'), colAxis: t('heatmap.colAxis'),
    tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'), digits: 3,
  });
  weightsMap.el.classList.add('rw-heatmap');
  const gridRows = [...weightsMap.grid.querySelectorAll('.heatmap-row')].slice(1);
  weightsMap.grid.addEventListener('pointerover', (event) => {
    const row = gridRows.indexOf(event.target.closest('.heatmap-row'));
    if (row >= 0 && row !== model.selected) select(row);
  });

  const picker = choiceGroup({
    legend: t('gaze.picker'),
    options: TOKENS.map((_, i) => ({ value: i, label: labels[i] })),
    value: model.selected,
    onChange: (i) => select(i),
  });
  const gazeTitle = h('p', { class: 'rw-gaze-title' });
  const gazeBars = TOKENS.map((_, j) => {
    const bar = weightBar();
    const value = h('span', { class: 'rw-bar-value' });
    const note = h('span', { class: 'rw-bar-note' });
    const li = h('li', { class: 'rw-bar' },
      h('span', { class: 'rw-bar-key role-text-k', html: labels[j] }), bar.el, value, note);
    return { li, bar, value, note };
  });
  const gazeText = h('p', { class: 'rw-gaze-text', 'aria-live': 'polite' });
  const result = h('div', { class: 'rw-result' }, weightsMap.el);

  const el = h('div', { class: 'panel rw-panel' },
    h('p', { class: 'panel-title', html: t('panelTitle') }),
    h('div', { class: 'rw-layout' },
      h('div', { class: 'rw-inputs' },
        html('p', { class: 'rw-hint' }, t('inputs.hint')),
        h('div', { class: 'rw-factor' }, html('span', { class: 'rw-factor-label' }, `${inline.embeddings}${t('inputs.factorShort')}`), factorInput.el),
        h('div', { class: 'matrix-scroll' }, baseInput.el),
        errorSlot,
        h('div', { class: 'controls-row' }, reset.el)),
      result),
    h('div', { class: 'rw-gaze' },
      picker.el,
      gazeTitle,
      h('ul', { class: 'rw-bars' }, gazeBars.map((b) => b.li)),
      gazeText));

  // The selected token's row, in the heatmap and as bars, with its summary.
  function showGaze(params) {
    const { gaze } = model;
    const i = gaze.i;
    picker.set(i);
    weightsMap.cells.forEach((cell, k) => cell.classList.toggle('rw-selected', Math.floor(k / n) === i));
    gridRows.forEach((row, r) => row.classList.toggle('rw-selected-row', r === i));
    weightsMap.grid.classList.add('rw-has-selection');
    setHTML(gazeTitle, t('gaze.title', { token: labels[i] }));
    gazeBars.forEach((b, j) => {
      b.bar.update(gaze.row[j]);
      setText(b.value, formatNumber(gaze.row[j], 3));
      setFullValue(b.value, formatFull(gaze.row[j]));
      setText(b.note, j === i ? t('gaze.self') : j === gaze.pair ? t('gaze.pair') : '');
      b.li.classList.toggle('is-self', j === i);
      b.li.classList.toggle('is-pair', j === gaze.pair);
    });
    setHTML(gazeText, t(gaze.prefersPair ? 'gaze.summaryPair' : 'gaze.summarySelf', params));
  }

  return {
    el,
    showGaze,
    update(from) {
      const { reading, error, inputs } = model;
      setText(errorSlot, error ? t('inputs.error', { message: readerMessage(model.failure, t) }) : '');
      result.classList.toggle('is-stale', Boolean(error));
      if (from !== 'input') {
        baseInput.set(inputs.base.flat());
        factorInput.set(inputs.factor);
      }
      if (reading) weightsMap.update(reading.weights);
    },
  };
}
