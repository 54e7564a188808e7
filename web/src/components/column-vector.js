// A small column vector in brackets, e.g. the weighted values w_j v_j. Its
// tooltip holds the full values (src/lib/full-value.js).
import { h, setText } from '../lib/dom.js';
import { formatFull, formatNumber } from '../lib/format.js';
import { setFullValue } from '../lib/full-value.js';
import './column-vector.css';

export function columnVector({ size, role, digits = 3 }) {
  const entries = Array.from({ length: size }, () => h('span', { class: 'cv-entry' }));
  const el = h('span', { class: ['column-vector', role && `role-text-${role}`] }, entries);
  return {
    el,
    update(values) {
      values.forEach((x, i) => setText(entries[i], formatNumber(x, digits)));
      setFullValue(el, `(${Array.from(values, formatFull).join(', ')})`);
    },
  };
}
