// A weight heatmap (rows = queries, columns = keys) with its numbers printed in
// the cells, plus a table alternative holding the full values and row sums.
//
// With `onToggle`, cells are buttons (the masking demo): one tab stop for the
// whole grid, arrow keys move, Enter or Space toggles (ARIA grid pattern).
import { h, html, setHTML, setText, uid } from '../lib/dom.js';
import { cellColors } from '../lib/color.js';
import { formatFull, formatNumber } from '../lib/format.js';
import { setFullValue } from '../lib/full-value.js';
import './heatmap.css';

export function heatmap({
  rows, cols, rowLabels, colLabels, rowRole = 'q', colRole = 'k',
  caption, rowAxis, colAxis, tableSummary, rowSumLabel, maskedText,
  digits = 2, showNumbers = true, compact = false, tiny = false,
  onToggle, cellLabel,
  label,               // accessible name when there is no caption
  diverging = false,   // signed values: white at 0 (default: weights in [0, 1])
  maxAbs = null,       // diverging: the value drawn darkest (default: the largest |value| shown)
  groupSize = 0,       // columns per group (heads): a gap before each group
  tableColLabels = colLabels,   // the table alternative's column headers (when the grid's are abbreviated)
}) {
  const captionId = uid('heatmap-cap');
  const interactive = typeof onToggle === 'function';
  const grid = h('div', {
    class: ['heatmap-grid', compact && 'is-compact', tiny && 'is-tiny', !showNumbers && 'no-numbers'],
    style: { '--cols': String(cols) },
    role: interactive ? 'grid' : 'img',
    'aria-labelledby': caption ? captionId : undefined,
    'aria-label': caption ? undefined : (label ?? 'heatmap'),
  });

  // Header row.
  const plain = (label) => label.replace(/<[^>]+>/g, '');
  const colLabelEls = colLabels.map((label, j) => html('div', {
    title: plain(label),
    class: [`heatmap-col-label role-text-${colRole}`, groupSize && j > 0 && j % groupSize === 0 && 'group-start'],
    role: interactive ? 'columnheader' : undefined,
  }, label));
  const headRow = h('div', { class: 'heatmap-row', role: interactive ? 'row' : undefined },
    h('div', { class: 'heatmap-corner', 'aria-hidden': 'true' }), colLabelEls);
  grid.append(headRow);

  const cells = [];
  const rowLabelEls = [];
  for (let i = 0; i < rows; i++) {
    const rowLabel = html('div', { class: `heatmap-row-label role-text-${rowRole}`, role: interactive ? 'rowheader' : undefined }, rowLabels[i]);
    rowLabelEls.push(rowLabel);
    const row = h('div', { class: 'heatmap-row', role: interactive ? 'row' : undefined }, rowLabel);
    for (let j = 0; j < cols; j++) {
      let cell;
      if (interactive) {
        const button = h('button', {
          type: 'button', class: 'heatmap-cell', tabindex: i === 0 && j === 0 ? '0' : '-1',
          dataset: { row: String(i), col: String(j) },
        });
        cell = button;
        row.append(h('div', { role: 'gridcell', class: 'heatmap-gridcell' }, button));
      } else {
        cell = h('div', { class: ['heatmap-cell', groupSize && j > 0 && j % groupSize === 0 && 'group-start'] });
        row.append(cell);
      }
      cells.push(cell);
    }
    grid.append(row);
  }
  if (!interactive) grid.querySelectorAll('.heatmap-row').forEach((r) => r.setAttribute('aria-hidden', 'true'));

  if (interactive) {
    grid.addEventListener('click', (event) => {
      const button = event.target.closest('button.heatmap-cell');
      if (!button) return;
      focusCell(+button.dataset.row, +button.dataset.col, false);
      onToggle(+button.dataset.row, +button.dataset.col);
    });
    grid.addEventListener('keydown', (event) => {
      const button = event.target.closest('button.heatmap-cell');
      if (!button) return;
      let i = +button.dataset.row;
      let j = +button.dataset.col;
      const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (event.key in moves) {
        i = Math.min(rows - 1, Math.max(0, i + moves[event.key][0]));
        j = Math.min(cols - 1, Math.max(0, j + moves[event.key][1]));
      } else if (event.key === 'Home') j = 0;
      else if (event.key === 'End') j = cols - 1;
      else return;  // Enter and Space click the button natively
      event.preventDefault();
      focusCell(i, j, true);
    });
  }
  function focusCell(i, j, focus) {
    for (const c of cells) c.tabIndex = -1;
    const target = cells[i * cols + j];
    target.tabIndex = 0;
    if (focus) target.focus();
  }

  // Table alternative: full values and row sums, built the first time it is
  // opened (most readers never open it; building it eagerly doubled the DOM).
  const tableCells = [];
  const sumCells = [];
  const tableRowHeads = [];
  const tableColHeads = [];
  let last = null;   // { values, masked }: what the table should show
  const tableSlot = h('div', { class: 'matrix-scroll' });
  const details = h('details', { class: 'table-alt' }, html('summary', {}, tableSummary ?? 'Table'), tableSlot);
  details.addEventListener('toggle', () => {
    if (!details.open || tableCells.length) return;
    buildTable();
    if (last) fillTable(last.values, last.masked);
  });
  function buildTable() {
    const tbody = h('tbody');
    for (let i = 0; i < rows; i++) {
      const th = html('th', { scope: 'row', class: `role-text-${rowRole}` }, rowLabels[i]);
      tableRowHeads.push(th);
      const tr = h('tr', {}, th);
      for (let j = 0; j < cols; j++) {
        const td = h('td', { class: 'num' });
        tableCells.push(td);
        tr.append(td);
      }
      if (rowSumLabel) {
        const td = h('td', { class: 'num heatmap-sum' });
        sumCells.push(td);
        tr.append(td);
      }
      tbody.append(tr);
    }
    tableSlot.append(h('table', { class: 'matrix heatmap-table' },
      caption ? html('caption', { class: 'visually-hidden' }, caption) : null,
      h('thead', {}, h('tr', {}, h('td'),
        tableColLabels.map((label) => {
          const th = html('th', { scope: 'col', class: `role-text-${colRole}` }, label);
          tableColHeads.push(th);
          return th;
        }),
        rowSumLabel ? html('th', { scope: 'col' }, rowSumLabel) : null)),
      tbody));
  }
  function fillTable(values, masked) {
    for (let k = 0; k < tableCells.length; k++) {
      const w = values[k];
      const isMasked = masked ? masked[k] === 1 : false;
      setText(tableCells[k], isMasked && maskedText ? `${formatFull(w)} ${maskedText}` : formatFull(w));
    }
    for (let i = 0; i < sumCells.length; i++) {
      let sum = 0;
      for (let j = 0; j < cols; j++) sum += values[i * cols + j];
      setText(sumCells[i], formatNumber(sum, 4));
    }
  }

  const figure = h('figure', { class: ['heatmap', interactive && 'is-interactive'] },
    caption ? html('figcaption', { class: 'heatmap-caption', id: captionId }, caption) : null,
    (rowAxis || colAxis)
      ? h('div', { class: 'heatmap-axes', 'aria-hidden': 'true' },
        rowAxis ? html('span', { class: `role-text-${rowRole}` }, rowAxis) : null,
        colAxis ? html('span', { class: `role-text-${colRole}` }, colAxis) : null)
      : null,
    grid, details);

  const shown = new Array(cells.length).fill(undefined);   // last value drawn per cell
  const shownMask = new Uint8Array(cells.length);
  const shownColors = new Array(cells.length).fill(undefined);   // last cellColors drawn per cell (null: masked)
  let shownLargest = null;   // the scale of the last update (diverging maps without a fixed maxAbs)

  return {
    el: figure,
    grid,
    cells,
    // New labels for the same shape (the order section's shuffled tokens),
    // written into the grid and the table alternative in place.
    setLabels({ rowLabels: nextRows, colLabels: nextCols, tableColLabels: nextTableCols = nextCols }) {
      rowLabels = nextRows;
      tableColLabels = nextTableCols;
      nextRows.forEach((label, i) => setHTML(rowLabelEls[i], label));
      nextCols.forEach((label, j) => {
        setHTML(colLabelEls[j], label);
        colLabelEls[j].title = plain(label);
      });
      tableRowHeads.forEach((th, i) => setHTML(th, nextRows[i]));
      tableColHeads.forEach((th, j) => setHTML(th, nextTableCols[j]));
    },
    // values: n*m weights; masked: optional n*m (1 = masked) for the hatch.
    update(values, masked = null) {
      let largest = maxAbs ?? 0;
      if (diverging && maxAbs === null) for (const x of values) largest = Math.max(largest, Math.abs(x));
      const sameScale = !diverging || maxAbs !== null || largest === shownLargest;
      shownLargest = largest;
      for (let k = 0; k < cells.length; k++) {
        const w = values[k];
        const isMasked = masked ? masked[k] === 1 : false;
        const cell = cells[k];
        // Unchanged cells are left alone (a diverging map rescales with its maximum
        // unless it is fixed: then only while that maximum stays the same).
        if (sameScale && shown[k] === w && shownMask[k] === (isMasked ? 1 : 0)) continue;
        shown[k] = w;
        shownMask[k] = isMasked ? 1 : 0;
        // Weights: a gamma of 0.6 separates the small weights of long rows
        // (uniform over 5 keys is 0.2) while 0 stays white and 1 stays darkest.
        const colors = diverging ? cellColors(w, { diverging, maxAbs: largest }) : cellColors(Math.max(0, w) ** 0.6);
        cell.classList.toggle('is-masked', isMasked);
        // A style written is a style recalculated: only when the colours change
        // (cellColors gives the same object for the same colours).
        const painted = isMasked ? null : colors;
        if (shownColors[k] !== painted) {
          shownColors[k] = painted;
          cell.style.background = painted?.background ?? '';
          cell.style.color = painted?.color ?? '';
        }
        if (showNumbers) setText(cell, w === 0 ? '0' : formatNumber(w, digits));  // masked: exactly 0
        setFullValue(cell, formatFull(w));
        if (interactive) {
          cell.setAttribute('aria-pressed', String(isMasked));
          cell.setAttribute('aria-label', cellLabel(Math.floor(k / cols), k % cols, w, isMasked));
        }
      }
      last = { values: Float32Array.from(values), masked: masked ? Uint8Array.from(masked) : null };
      if (tableCells.length) fillTable(last.values, last.masked);
    },
  };
}
