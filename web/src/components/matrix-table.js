// A read-only matrix of numbers with row and column headers. Numbers are
// rounded for display; each cell's tooltip holds the full value
// (src/lib/full-value.js). -inf cells (the masked scores) get the mask style.
import { h, setText } from '../lib/dom.js';
import { formatFull, formatNumber } from '../lib/format.js';
import { setFullValue } from '../lib/full-value.js';
import './matrix.css';

export function matrixTable({ rows, cols, rowLabels, colLabels, rowRole, colRole, caption, digits = 3, className }) {
  const cells = [];
  const head = colLabels
    ? h('thead', {}, h('tr', {}, h('td'),
      colLabels.map((label) => h('th', { scope: 'col', class: colRole && `role-text-${colRole}`, html: label }))))
    : null;
  const body = h('tbody');
  for (let r = 0; r < rows; r++) {
    const tr = h('tr', {}, h('th', { scope: 'row', class: rowRole && `role-text-${rowRole}`, html: rowLabels?.[r] ?? '' }));
    for (let c = 0; c < cols; c++) {
      const td = h('td', { class: 'num' });
      cells.push(td);
      tr.append(td);
    }
    body.append(tr);
  }
  const captionEl = caption ? h('caption', { html: caption }) : null;
  const table = h('table', { class: ['matrix', className] }, captionEl, head, body);
  const wrap = h('div', { class: 'matrix-scroll' }, table);
  return {
    el: wrap,
    table,
    update(values) {
      for (let i = 0; i < cells.length; i++) {
        const x = values[i];
        setText(cells[i], formatNumber(x, digits));
        setFullValue(cells[i], formatFull(x));
        cells[i].classList.toggle('is-masked', x === -Infinity);
      }
    },
  };
}
