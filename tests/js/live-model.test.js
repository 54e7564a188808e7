// lib/live-model.js: the one model helper every section's state.js uses.
import { describe, expect, test } from 'vitest';
import { liveModel } from '../../web/src/lib/live-model.js';

// A computation that rejects non-finite inputs as the engine does.
const square = ({ x }) => {
  if (!Number.isFinite(x)) throw new RangeError(`x: expected a finite number, got ${x}`);
  return x * x;
};

describe('liveModel', () => {
  test('keeps the last good result and the latest error message, then clears the error', () => {
    const model = liveModel({ initial: { x: 2 }, compute: square, actions: { setX: (inputs, x) => { inputs.x = x; } } });
    expect(model.result).toBe(4);
    expect(model.error).toBeNull();
    expect(model.setX(NaN)).toBe(model);
    expect(model.result).toBe(4);
    expect(model.error).toBe('x: expected a finite number, got NaN');
    expect(model.inputs.x).toBeNaN();   // the reader's typo is kept, the result is not
    model.setX(3);
    expect(model.result).toBe(9);
    expect(model.error).toBeNull();
  });

  test('copies the initial inputs, and reset goes back to them', () => {
    const initial = { x: 2, list: [1, 2] };
    const model = liveModel({ initial, compute: square, actions: { push: (inputs, v) => { inputs.list.push(v); } } });
    model.push(3);
    expect(initial.list).toEqual([1, 2]);
    expect(model.inputs.list).toEqual([1, 2, 3]);
    model.reset();
    expect(model.inputs.list).toEqual([1, 2]);
  });

  test('an action returning false does not recompute; views derive from the result and inputs', () => {
    let calls = 0;
    const model = liveModel({
      initial: { x: 2, selected: 0 },
      compute: (inputs) => { calls += 1; return square(inputs); },
      actions: { select: (inputs, i) => { inputs.selected = i; return false; }, setX: (inputs, x) => { inputs.x = x; } },
      views: { label: (result, inputs) => `${inputs.selected}:${result}` },
    });
    expect(calls).toBe(1);
    model.select(5);
    expect(calls).toBe(1);
    expect(model.label).toBe('5:4');
    model.setX(3);
    expect(calls).toBe(2);
    expect(model.label).toBe('5:9');
  });

  test('an action that throws reaches its caller; the snapshot is a copy unless given', () => {
    const model = liveModel({
      initial: { x: 2 }, compute: square,
      actions: { setX(inputs, x) { if (x === 7) throw new Error('x: 7 is not allowed'); inputs.x = x; } },
    });
    expect(() => model.setX(7)).toThrow('x: 7 is not allowed');
    expect(model.inputs.x).toBe(2);
    const snap = model.snapshot;
    snap.x = 100;
    expect(model.inputs.x).toBe(2);
    const named = liveModel({ initial: { x: 2 }, compute: square, snapshot: (inputs) => ({ value: inputs.x }) });
    expect(named.snapshot).toEqual({ value: 2 });
  });
});
