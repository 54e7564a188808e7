// Number formatting for display. Numbers are rounded for the eye only: the
// full value is always available through `formatFull` (tooltips, tables).
// Pure functions, no DOM: unit-tested in Node.

export const MINUS = '\u2212';       // typographic minus sign
export const NEG_INFINITY = `${MINUS}\u221e`;  // −∞

// `digits` decimals, typographic minus, -0 shown as 0, ±∞ as symbols, NaN as
// an em dash (the engine never returns NaN; this is a guard, not a path).
export function formatNumber(x, digits = 3) {
  if (Number.isNaN(x)) return '\u2014';
  if (x === Infinity) return '\u221e';
  if (x === -Infinity) return NEG_INFINITY;
  let s = x.toFixed(digits);
  if (/^-0(\.0*)?$/.test(s)) s = s.slice(1);  // -0.000 -> 0.000
  return s.replace('-', MINUS);
}

// Like formatNumber, without trailing zeros: for numbers a reader typed
// ("2", "0.5"), as opposed to computed ones, which keep a fixed width.
export function formatTrimmed(x, digits = 3) {
  const s = formatNumber(x, digits);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

// Up to 7 significant digits (a float32 carries about 7): for titles and the
// table alternatives, so a reader can see what was rounded away.
export function formatFull(x) {
  if (!Number.isFinite(x)) return formatNumber(x);
  if (x === 0) return '0';
  const s = Number(x.toPrecision(7)).toString();
  return s.replace('-', MINUS);
}

// A vector as "(a, b)".
export function formatVector(values, digits = 3) {
  return `(${Array.from(values, (v) => formatNumber(v, digits)).join(', ')})`;
}

// Numbers typed by a reader: accepts a typographic minus, a comma as decimal
// point and surrounding spaces. Anything else (including "") gives NaN, which
// the engine then rejects with a message naming the argument.
export function parseNumber(text) {
  const s = String(text).trim().replace(/\u2212/g, '-').replace(',', '.');
  if (s === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return NaN;
  return Number(s);
}

// A short value for an input box: no trailing zeros ("1", "0.5", "-0.25").
export function formatInput(x) {
  if (!Number.isFinite(x)) return '';
  const s = String(Number(x.toFixed(4)));
  return s === '-0' ? '0' : s;
}

// 1234567 -> "1,234,567" (or the locale's grouping).
export function formatInteger(n, lang = 'en') {
  return Math.round(n).toLocaleString(lang === 'ko' ? 'ko-KR' : 'en-US');
}

// 12 -> "₁₂", for labels such as k₁ in SVG text and aria labels.
export function subscript(n) {
  return String(n).replace(/\d/g, (d) => '\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089'[d]);
}
