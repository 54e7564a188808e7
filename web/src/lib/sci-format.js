// Numbers that can be exactly zero or tiny (differences, asymmetries): an exact
// zero prints as "0", a tiny or huge number as "2.4 × 10⁻⁷", anything else as
// a decimal. Pure functions, no DOM: unit-tested in Node.
import { MINUS, formatNumber } from './format.js';

const SUPERSCRIPT = { '-': '\u207b', 0: '\u2070', 1: '\u00b9', 2: '\u00b2', 3: '\u00b3', 4: '\u2074', 5: '\u2075', 6: '\u2076', 7: '\u2077', 8: '\u2078', 9: '\u2079' };

export const superscript = (n) => String(n).replace(/[-\d]/g, (c) => SUPERSCRIPT[c]);

export function formatScientific(x, digits = 2) {
  if (x === 0) return '0';
  if (!Number.isFinite(x)) return formatNumber(x);
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e5) return formatNumber(x, abs >= 100 ? 1 : Math.max(digits, 3));
  const [mantissa, exponent] = x.toExponential(digits - 1).split('e');
  return `${mantissa.replace('-', MINUS)} \u00d7 10${superscript(Number(exponent))}`;
}
