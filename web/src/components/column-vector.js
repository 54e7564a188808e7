// A small column vector in brackets, e.g. the weighted values w_j v_j. Its
// title holds the full values.
import { h, setText } from '../lib/dom.js';
import { formatFull, formatNumber } from '../lib/format.js';
import './column-vector.css';

export function columnVector({ size, role, digits = 3 }) {
  const entries = Array.from({ length: size }, () => h('span', { class: 'cv-entry' }));
  const el = h('span', { class: ['column-vector', role && `role-text-${role}`] }, entries);
  return {
    el,
    update(values) {
      values.forEach((x, i) => setText(entries[i], formatNumber(x, digits)));
      el.title = `(${Array.from(values, formatFull).join(', ')})`;
    },
  };
}
