// The record of runs trained side by side (src/training/side-by-side.js): the
// events of measured-runs followed into each run's points, probe, end and
// final measurement; the heads averaged; the last layer of a kind.
import { describe, expect, test } from 'vitest';
import { allDone, applyEvent, averageHeads, emptyRecord, lastLayerOf, lastLoss } from '../../web/src/training/side-by-side.js';

describe('the record', () => {
  test('each run from waiting through training and measuring to done, the ms and an error kept', () => {
    const record = emptyRecord(['a', 'b']);
    expect(record.runs.a).toEqual({ status: 'waiting', step: 0, options: null, points: [], probe: null, reason: null, final: null });
    applyEvent(record, { type: 'started', id: 'a', trainer: { options: { seed: 3 } }, points: [{ step: 0, loss: null }], probe: { layers: [] } });
    applyEvent(record, { type: 'progress', id: 'a', step: 25, points: [{ step: 25, loss: 1.5 }], probe: { layers: [1] } });
    applyEvent(record, { type: 'progress', id: 'a', step: 30, points: [] });
    expect(record.runs.a).toMatchObject({ status: 'training', step: 30, options: { seed: 3 }, probe: { layers: [1] } });
    expect(lastLoss(record.runs.a)).toBe(1.5);
    expect(lastLoss(record.runs.b)).toBe(null);
    applyEvent(record, { type: 'done', id: 'a', step: 30, reason: 'target' });
    expect(record.runs.a).toMatchObject({ status: 'measuring', reason: 'target' });
    applyEvent(record, { type: 'final', id: 'a', evaluation: { accuracy: 1 }, probe: { layers: [2] } });
    expect(record.runs.a).toMatchObject({ status: 'done', final: { evaluation: { accuracy: 1 }, probe: { layers: [2] } }, probe: { layers: [2] } });
    expect(allDone(record)).toBe(false);
    applyEvent(record, { type: 'final', id: 'b', evaluation: {} });
    expect(allDone(record)).toBe(true);
    applyEvent(record, { type: 'progress', id: 'unknown', step: 1, points: [{}] });
    applyEvent(record, { type: 'finished', ms: 1234 });
    applyEvent(record, { type: 'error', message: 'boom' });
    expect(record).toMatchObject({ ms: 1234, error: 'boom' });
  });

  test('heads averaged cell by cell; the last layer of a kind, or null', () => {
    const mean = averageHeads({ rows: 1, cols: 2, heads: [Float32Array.of(1, 0), Float32Array.of(0.5, 0.5)] });
    expect([...mean]).toEqual([0.75, 0.25]);
    const reading = { layers: [{ kind: 'cross', layer: 0 }, { kind: 'decoder-self', layer: 0 }, { kind: 'cross', layer: 1 }] };
    expect(lastLayerOf(reading, 'cross')).toEqual({ kind: 'cross', layer: 1 });
    expect(lastLayerOf(reading, 'encoder-self')).toBe(null);
    expect(lastLayerOf(null, 'cross')).toBe(null);
  });
});
