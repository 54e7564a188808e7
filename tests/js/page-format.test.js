// Shared display logic of the page: number formatting (including -inf and tiny
// numbers in powers of ten), input parsing, and the heatmap colours' contrast
// (WCAG AA for the printed numbers).
import { describe, it, expect } from 'vitest';
import { MINUS, NEG_INFINITY, excerpt, formatFull, formatInput, formatLogTick, formatScientific, formatInteger, formatNumber, formatVector, parseNumber, subscript }
  from '../../web/src/lib/format.js';
import { INK, WHITE, contrast, divergingColor, rampColor, textColorOn } from '../../web/src/lib/color.js';

describe('formatLogTick', () => {
  it('a log axis tick as short as it is exact', () => {
    expect([0.001, 0.01, 0.1, 1, 10, 100, 2, 5, 0.05].map(formatLogTick)).toEqual(['0.001', '0.01', '0.1', '1', '10', '100', '2', '5', '0.05']);
  });
});

describe('formatNumber', () => {
  it('rounds for display, with a typographic minus and no negative zero', () => {
    expect(formatNumber(0.40106)).toBe('0.401');
    expect(formatNumber(1.2032, 3)).toBe('1.203');
    expect(formatNumber(-0.25, 2)).toBe(`${MINUS}0.25`);
    expect(formatNumber(-0.0001)).toBe('0.000');
    expect(formatNumber(-0)).toBe('0.000');
  });
  it('shows -inf (masked scores) as −∞ and never prints NaN', () => {
    expect(formatNumber(-Infinity)).toBe(NEG_INFINITY);
    expect(NEG_INFINITY).toBe('\u2212\u221e');
    expect(formatNumber(Infinity)).toBe('\u221e');
    expect(formatNumber(NaN)).toBe('\u2014');
  });
  it('full values keep float32 precision; vectors and integers', () => {
    expect(formatFull(0.4010739)).toBe('0.4010739');
    expect(formatFull(-Infinity)).toBe(NEG_INFINITY);
    expect(formatFull(0)).toBe('0');
    expect(formatVector([1.20321, 0.79679])).toBe('(1.203, 0.797)');
    expect(formatInteger(1152, 'en')).toBe('1,152');
    expect(subscript(12)).toBe('\u2081\u2082');
  });
});

describe('scientific numbers', () => {
  it('exact zero prints as 0; tiny numbers in powers of ten', () => {
    expect(formatScientific(0)).toBe('0');
    expect(formatScientific(2.384185791015625e-7)).toBe('2.4\u202f\u00d7\u202f10\u207b\u2077');
    expect(formatScientific(-3e-9)).toBe('\u22123.0\u202f\u00d7\u202f10\u207b\u2079');
    expect(formatScientific(0.953)).toBe('0.953');
  });
});

describe('large and small numbers: powers of ten, a fixed width, never "e+307"', () => {
  it('from 10^5 up, three significant digits (the issue: e^35 printed 2262708745142282.000)', () => {
    expect(formatNumber(Math.exp(50 / Math.SQRT2))).toBe('2.26\u202f\u00d7\u202f10\u00b9\u2075');
    expect(formatNumber(Math.exp(1000 / Math.SQRT2))).toBe('1.24\u202f\u00d7\u202f10\u00b3\u2070\u2077');
    expect(formatNumber(-123456, 2)).toBe(`${MINUS}1.23\u202f\u00d7\u202f10\u2075`);
    expect(formatNumber(99999.5, 1)).toBe('99999.5');
    // Every power of ten prints at one width: the mantissa has three digits.
    const widths = [1e5, 3.3e17, 9.99e99, 1.5e307].map((x) => formatNumber(x).replace(/[\u2070-\u2079\u00b2\u00b3\u00b9]/g, '').length);
    expect(new Set(widths).size).toBe(1);
  });
  it('full values: seven digits, powers of ten beyond 10^7 and below 10^-4', () => {
    expect(formatFull(1.237541733718742e307)).toBe('1.237542\u202f\u00d7\u202f10\u00b3\u2070\u2077');
    expect(formatFull(-3e-9)).toBe(`${MINUS}3\u202f\u00d7\u202f10\u207b\u2079`);
    expect(formatFull(1234567)).toBe('1234567');
    for (const x of [1e300, 2.5e-300, -7.1e40]) expect(formatFull(x)).not.toMatch(/e[+-]/);
  });
});

describe('parseNumber / formatInput', () => {
  it('accepts what readers type', () => {
    expect(parseNumber('1')).toBe(1);
    expect(parseNumber(' -0.5 ')).toBe(-0.5);
    expect(parseNumber('\u22122')).toBe(-2);
    expect(parseNumber('0,25')).toBe(0.25);
    expect(parseNumber('.5')).toBe(0.5);
    expect(parseNumber('1e-2')).toBe(0.01);
  });
  it('gives NaN for anything else, so the engine reports it', () => {
    for (const bad of ['', '-', 'abc', '1.2.3', '--1', '1x']) expect(parseNumber(bad)).toBeNaN();
  });
  it('formats input boxes without trailing zeros', () => {
    expect(formatInput(0.5)).toBe('0.5');
    expect(formatInput(-0)).toBe('0');
    expect(formatInput(2)).toBe('2');
    expect(formatInput(NaN)).toBe('');
  });
});

describe('heatmap colours', () => {
  it('every step of the weight ramp has a text colour with at least 4.5:1 contrast', () => {
    for (let i = 0; i <= 1000; i++) {
      const bg = rampColor(i / 1000);
      expect(contrast(bg, textColorOn(bg))).toBeGreaterThanOrEqual(4.5);
    }
  });
  it('the ramp runs from white (0) to the darkest ink (1); diverging is white at 0', () => {
    expect(rampColor(0)).toEqual(WHITE);
    expect(textColorOn(rampColor(0))).toEqual(INK);
    expect(textColorOn(rampColor(1))).toEqual(WHITE);
    expect(divergingColor(0, 2)).toEqual(WHITE);
    expect(divergingColor(-2, 2)).not.toEqual(divergingColor(2, 2));
  });
});

describe('excerpt: text a reader or an author gave, in a message', () => {
  it('keeps short text, shortens long text by code points and says how long it was', () => {
    expect(excerpt('masking')).toBe('masking');
    expect(excerpt('x'.repeat(40))).toBe('x'.repeat(40));
    expect(excerpt('y'.repeat(1000000))).toBe(`${'y'.repeat(40)}\u2026 (1,000,000 characters)`);
    // an astral character is one character, never cut in half
    const text = '😀'.repeat(41);
    expect(excerpt(text)).toBe(`${'😀'.repeat(40)}\u2026 (41 characters)`);
    expect(excerpt("$&$'")).toBe("$&$'");
  });
});

