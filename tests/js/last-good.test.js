import { describe, expect, it } from 'vitest';
import { lastGood } from '../../web/src/lib/last-good.js';

describe('lastGood', () => {
  it('keeps the last good result and the latest error message, then clears the error', () => {
    let input = 2;
    const computed = lastGood(() => {
      if (!Number.isFinite(input)) throw new RangeError(`input: expected a finite number, got ${input}`);
      return input * input;
    });
    expect(computed.update().result).toBe(4);
    expect(computed.error).toBeNull();
    input = NaN;
    expect(computed.update().result).toBe(4);
    expect(computed.error).toBe('input: expected a finite number, got NaN');
    input = 3;
    expect(computed.update().result).toBe(9);
    expect(computed.error).toBeNull();
  });
});
