// An editable matrix: a table of number boxes with row and column headers.
// rows x cols values; onInput(r, c, x) fires on every keystroke.
import { h } from '../lib/dom.js';
import { numberInput } from './number-input.js';
import './matrix.css';

export function matrixInput({ values, rows, cols, rowLabels, colLabels, role, cellLabel, caption, onInput }) {
  const inputs = [];
  const head = colLabels
    ? h('thead', {}, h('tr', {}, h('td'), colLabels.map((label) => h('th', { scope: 'col', html: label }))))
    : null;
  const body = h('tbody');
  for (let r = 0; r < rows; r++) {
    const tr = h('tr', {}, h('th', { scope: 'row', class: role && `role-text-${role}`, html: rowLabels?.[r] ?? String(r + 1) }));
    for (let c = 0; c < cols; c++) {
      const box = numberInput({
        value: values[r * cols + c],
        role,
        label: cellLabel(r, c),
        onInput: (x) => onInput(r, c, x),
      });
      inputs.push(box);
      tr.append(h('td', {}, box.el));
    }
    body.append(tr);
  }
  const table = h('table', { class: 'matrix matrix-input' },
    caption ? h('caption', { html: caption }) : null, head, body);
  return {
    el: table,
    set(next) { next.forEach((x, i) => inputs[i]?.set(x)); },
    relabel(labelFor) { inputs.forEach((box, i) => box.setLabel(labelFor(Math.floor(i / cols), i % cols))); },
  };
}
