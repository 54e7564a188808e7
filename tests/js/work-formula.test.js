// The work formulas are written once, as text (web/src/engine/work-limits.js):
// compileFormula makes the function that computes each. Here each compiled
// formula against the same text evaluated by JavaScript itself, and the
// formulas it refuses.
import { describe, expect, test } from 'vitest';
import { WORK, compileFormula } from '../../web/src/engine/work-limits.js';

const namesOf = (formula) => [...new Set(formula.match(/[A-Za-z]+/g))];
// The text as a JavaScript expression of its names (Node only: the page's CSP forbids this).
const byJavaScript = (formula) => new Function(...namesOf(formula), `return ${formula};`);

describe('compileFormula', () => {
  test('every formula of WORK computes what its text says, on 200 random sizes each', () => {
    let state = 7;
    const random = () => { state = (state * 48271) % 2147483647; return 1 + (state % 4096); };
    for (const [kind, { formula, of }] of Object.entries(WORK)) {
      const names = namesOf(formula);
      const expected = byJavaScript(formula);
      for (let i = 0; i < 200; i++) {
        const values = Object.fromEntries(names.map((name) => [name, random()]));
        expect(of(values), `${kind}: ${formula} at ${JSON.stringify(values)}`).toBe(expected(...names.map((n) => values[n])));
      }
    }
  });

  test('+ before *, left to right, parentheses first', () => {
    expect(compileFormula('2+3*4')({})).toBe(14);
    expect(compileFormula('(2+3)*4')({})).toBe(20);
    expect(compileFormula('a*(b+c)*2')({ a: 3, b: 4, c: 5 })).toBe(54);
  });

  test('refused: other operators, unbalanced parentheses, a missing value', () => {
    expect(() => compileFormula('n-m')).toThrow('work formula n-m: expected only + * ( ), names and integers');
    expect(() => compileFormula('n*(m+1')).toThrow('work formula n*(m+1: expected )');
    expect(() => compileFormula('n*m)')).toThrow('work formula n*m): unexpected )');
    expect(() => compileFormula('n*')).toThrow('work formula n*: unexpected end');
    expect(() => WORK.attentionFast.of({ n: 1, m: 2, dk: 3 })).toThrow('work formula n*m*(dk+dv+32): no value for dv');
  });
});
