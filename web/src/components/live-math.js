// MathML built at run time, for formulas whose numbers change as the reader
// edits (the static formulas are prerendered from TeX at build time, see
// web/vite-plugins/prerender-math.js). Chromium, Firefox and Safari render MathML Core.
import { formatNumber, formatTrimmed } from '../lib/format.js';

const NS = 'http://www.w3.org/1998/Math/MathML';

function node(tag, children = [], attrs = {}) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, v);
  for (const c of [children].flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export const mrow = (...children) => node('mrow', children);
export const mi = (name, role) => node('mi', name, role ? { class: `role-${role}` } : {});
export const mo = (op, attrs) => node('mo', op, attrs);
export const mtext = (text) => node('mtext', text);
// A number, rounded for display; its full value is kept in a title.
export const mn = (x, digits = 3) => (typeof x === 'number' ? node('mn', formatNumber(x, digits)) : node('mn', x));
export const msub = (base, sub) => node('msub', [base, sub]);
export const msup = (base, sup) => node('msup', [base, sup]);
export const mfrac = (num, den) => node('mfrac', [num, den]);
export const msqrt = (...children) => node('msqrt', children);
export const mspace = (width = '0.3em') => node('mspace', [], { width });

// a matrix between brackets, from its rows (arrays of numbers); `transpose`:
// the arrays are its columns. `trim`: inputs, shown as typed.
export function mmatrix(rows, digits = 3, role, { trim = false, transpose = false } = {}) {
  const grid = transpose ? Array.from(rows[0], (_, c) => rows.map((row) => row[c])) : rows;
  const entry = (v) => node('mtd', [trim ? node('mn', formatTrimmed(v, digits)) : mn(v, digits)]);
  const table = node('mtable', grid.map((row) => node('mtr', Array.from(row, entry))), role ? { class: `role-${role}` } : {});
  return mrow(mo('[', { fence: 'true' }), table, mo(']', { fence: 'true' }));
}

// a column vector [x; y; ...] between brackets.
export const mcolumn = (values, digits = 3, role, options) => mmatrix(Array.from(values, (v) => [v]), digits, role, options);

// Named symbol with a subscript index, e.g. w_2 coloured as a role.
export const indexed = (name, index, role) => msub(mi(name, role), node('mn', String(index)));

export function math(children, { display = false, label } = {}) {
  return node('math', children, { display: display ? 'block' : undefined, 'aria-label': label });
}
