// A table whose words come from a language file: { caption, columns, rows },
// each a string of HTML (TeX already MathML), the first cell of a row its
// heading. On a narrow screen each cell shows its column's name
// (data-label; components/matrix.css). Section 8's summary of the score
// family and section 10's complexity of one layer.
//
//   textTable(t('summary'), { className: 'fa-summary', rowClass: (i) => i === 0 && 'is-attention' })
import { h, html } from '../lib/dom.js';
import './matrix.css';

export function textTable({ caption, columns, rows }, { className, rowClass = () => false }) {
  return h('div', { class: 'matrix-scroll is-wide' },
    h('table', { class: ['matrix', className] },
      html('caption', {}, caption),
      h('thead', {}, h('tr', {}, columns.map((c) => html('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows.map((row, i) => h('tr', { class: rowClass(i) },
        html('th', { scope: 'row' }, row[0]),
        row.slice(1).map((cell, c) => html('td', { dataset: { label: columns[c + 1] } }, cell)))))));
}
