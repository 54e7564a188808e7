// lib/slices.js: a generator run on the main thread in slices of ~6 ms, one
// task each; and lib/dom.js's escapeHTML (a reader's words into markup).
import { describe, expect, test } from 'vitest';
import { runInSlices } from '../../web/src/lib/slices.js';
import { escapeHTML } from '../../web/src/lib/dom.js';

function* work(steps, log) {
  for (let i = 0; i < steps; i++) { log.push(i); yield; }
  return 'done';
}

describe('runInSlices', () => {
  test('nothing runs in the caller\'s task; the generator\'s return value is the result', async () => {
    const tasks = [];
    const log = [];
    const result = runInSlices(work(10, log), { later: (fn) => tasks.push(fn) });
    expect(log).toEqual([]);
    while (tasks.length) tasks.shift()();
    expect(log).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await result).toBe('done');
  });
  test('slices by the clock: a 1 ms step and a 3 ms slice make 3 steps per slice', async () => {
    let clock = 0;
    const tasks = [];
    const log = [];
    function* timed() { for (let i = 0; i < 7; i++) { clock += 1; log.push(i); yield; } return log.length; }
    const result = runInSlices(timed(), { sliceMs: 3, now: () => clock, later: (fn) => tasks.push(fn) });
    const perSlice = [];
    while (tasks.length) { const n = log.length; tasks.shift()(); perSlice.push(log.length - n); }
    expect(perSlice).toEqual([3, 3, 1]);
    expect(await result).toBe(7);
  });
  test('cancelled before a slice: stops and resolves to null; a throwing step rejects', async () => {
    const tasks = [];
    let stop = false;
    const log = [];
    const result = runInSlices(work(100, log), { sliceMs: 0, cancelled: () => stop, later: (fn) => tasks.push(fn) });
    tasks.shift()();
    stop = true;
    tasks.shift()();
    expect(await result).toBe(null);
    expect(log.length).toBe(1);
    function* broken() { yield; throw new Error('bad step'); }
    const failing = runInSlices(broken(), { sliceMs: 100, later: (fn) => fn() });
    await expect(failing).rejects.toThrow('bad step');
  });
});

test('escapeHTML: markup characters become entities', () => {
  expect(escapeHTML('<img src=x onerror="a()"> & \'b\'')).toBe('&lt;img src=x onerror=&quot;a()&quot;&gt; &amp; &#39;b&#39;');
});
