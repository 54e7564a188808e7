// Number formatting for display. Numbers are rounded for the eye only: the
// full value is always available through `formatFull` (tooltips, tables).
// Pure functions, no DOM: unit-tested in Node.

export const MINUS = '\u2212';       // typographic minus sign
export const NEG_INFINITY = `${MINUS}\u221e`;  // −∞

const SUPERSCRIPT = { '-': '\u207b', 0: '\u2070', 1: '\u00b9', 2: '\u00b2', 3: '\u00b3', 4: '\u2074', 5: '\u2075', 6: '\u2076', 7: '\u2077', 8: '\u2078', 9: '\u2079' };

// 307 -> "³⁰⁷", -7 -> "⁻⁷"
export const superscript = (n) => String(n).replace(/[-\d]/g, (c) => SUPERSCRIPT[c]);

// " × 10" with narrow no-break spaces: a power of ten never breaks across
// lines, and fits a table cell on a phone.
const TIMES_TEN = '\u202f\u00d7\u202f10';

// Numbers from here up are shown as powers of ten: a decimal would grow wider
// than its neighbours (e^35 = 2262708745142282.000).
export const LARGE = 1e5;

// x as "m × 10ⁿ" with `significant` digits in the mantissa: 1.237e307 ->
// "1.24 × 10³⁰⁷", -3e-9 -> "−3.0 × 10⁻⁹". A fixed width whatever the size.
export function formatPowerOfTen(x, significant = 3) {
  if (!Number.isFinite(x) || x === 0) return formatNumber(x, significant - 1);
  const [mantissa, exponent] = x.toExponential(significant - 1).split('e');
  return `${mantissa.replace('-', MINUS)}${TIMES_TEN}${superscript(Number(exponent))}`;
}

// `digits` decimals, typographic minus, -0 shown as 0, ±∞ as symbols, NaN as
// an em dash (the engine never returns NaN; this is a guard, not a path).
// From LARGE up, a power of ten with three significant digits.
export function formatNumber(x, digits = 3) {
  if (Number.isNaN(x)) return '\u2014';
  if (x === Infinity) return '\u221e';
  if (x === -Infinity) return NEG_INFINITY;
  if (Math.abs(x) >= LARGE) return formatPowerOfTen(x, 3);
  let s = x.toFixed(digits);
  if (/^-0(\.0*)?$/.test(s)) s = s.slice(1);  // -0.000 -> 0.000
  return s.replace('-', MINUS);
}

// Like formatNumber, without trailing zeros: for numbers a reader typed
// ("2", "0.5"), as opposed to computed ones, which keep a fixed width.
// A share as a percentage: 0.9478 -> "94.8%" (digits after the point).
export const formatPercent = (x, digits = 1) => `${formatNumber(100 * x, digits)}%`;

export function formatTrimmed(x, digits = 3) {
  const s = formatNumber(x, digits);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

// Up to 7 significant digits (a float32 carries about 7): for titles and the
// table alternatives, so a reader can see what was rounded away. Very large
// and very small numbers as powers of ten (1.237542 × 10³⁰⁷), never "e+307".
export function formatFull(x) {
  if (!Number.isFinite(x)) return formatNumber(x);
  if (x === 0) return '0';
  const abs = Math.abs(x);
  if (abs >= 1e7 || abs < 1e-4) {
    const [mantissa, exponent] = x.toPrecision(7).split('e');
    if (exponent === undefined) return formatPowerOfTen(x, 7);
    return `${String(Number(mantissa)).replace('-', MINUS)}${TIMES_TEN}${superscript(Number(exponent))}`;
  }
  const s = Number(x.toPrecision(7)).toString();
  return s.replace('-', MINUS);
}

// Numbers that can be exactly zero or tiny (differences, asymmetries): an exact
// zero prints as "0", a tiny or huge number as "2.4 × 10⁻⁷", anything else as
// a decimal.
export function formatScientific(x, digits = 2) {
  if (x === 0) return '0';
  if (!Number.isFinite(x)) return formatNumber(x);
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < LARGE) return formatNumber(x, abs >= 100 ? 1 : Math.max(digits, 3));
  return formatPowerOfTen(x, digits);
}

// A tick of a log axis, as short as it is exact: 0.001, 0.01, 0.1, 1, 10, 2, 5.
export function formatLogTick(v) {
  return String(Number(v.toPrecision(2)));
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

// Text a reader or an author gave, shown in a message: as it is up to `max`
// characters (code points), else its first `max` and "… (1,000,003 characters)".
export function excerpt(text, max = 40) {
  const chars = Array.from(String(text));
  if (chars.length <= max) return chars.join('');
  return `${chars.slice(0, max).join('')}… (${chars.length.toLocaleString('en')} characters)`;
}
