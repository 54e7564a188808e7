// The link and attribute parameters of sections 2, 3, 8, 9 and 10: defaults
// round-trip to an empty link, every value reads back, hostile values are
// rejected (never repaired), and the models start from what a link says.
import { beforeAll, describe, expect, test } from 'vitest';
import { decodeSection, encodeSection } from '../../web/src/lib/params.js';
import { createAttention } from '../../web/src/engine/index.js';
import scaling from '../../web/src/sections/scaling/params.js';
import readingWeights from '../../web/src/sections/reading-weights/params.js';
import family from '../../web/src/sections/family/params.js';
import order from '../../web/src/sections/order/params.js';
import cost from '../../web/src/sections/cost/params.js';
import { createScaling } from '../../web/src/sections/scaling/state.js';
import { createReading } from '../../web/src/sections/reading-weights/state.js';
import { createOrder } from '../../web/src/sections/order/state.js';
import { createFamily } from '../../web/src/sections/family/state.js';

const CODECS = { scaling, 'reading-weights': readingWeights, family, order, cost };
const getter = (map) => (name) => (name in map ? map[name] : null);

let engine;
beforeAll(async () => { engine = await createAttention(); });

describe.each(Object.keys(CODECS))('%s', (id) => {
  const codec = CODECS[id];
  test('the defaults make an empty link, and no parameters give the defaults', () => {
    expect(encodeSection(codec, codec.defaults())).toEqual([]);
    expect(decodeSection(codec, () => null)).toEqual({ state: codec.defaults(), rejected: [] });
  });
  test('hostile values are rejected by name and the defaults kept', () => {
    for (const name of codec.names) {
      for (const bad of ['', 'NaN', '1e999', '<script>', '0x10', '1;2', 'x'.repeat(3000)]) {
        const { state, rejected } = decodeSection(codec, getter({ [name]: bad }));
        expect(rejected, `${name}=${bad.slice(0, 12)}`).toEqual([name]);
        expect(state).toEqual(codec.defaults());
      }
    }
  });
});

describe('values read back as given', () => {
  const roundTrip = (codec, params) => {
    const { state, rejected } = decodeSection(codec, getter(params));
    expect(rejected).toEqual([]);
    return { state, pairs: Object.fromEntries(encodeSection(codec, state)) };
  };
  test('scaling', () => {
    const params = { dk: '64', seed: '7', 'trials-dk': '256', trials: '1000', 'trials-seed': '8', 'sweep-trials': '50', 'sweep-seed': '9' };
    const { state, pairs } = roundTrip(scaling, params);
    expect(pairs).toEqual(params);
    expect(state.tenKeys).toMatchObject({ dk: 64, seed: 7, keys: 10 });
    expect(state.trials).toMatchObject({ dk: 256, trials: 1000, seed: 8, keys: 8 });
    expect(state.sweep).toMatchObject({ trials: 50, seed: 9, dims: [4, 16, 64, 256, 1024] });
    // only the slider's sizes: a link cannot ask for 10^6 trials
    expect(decodeSection(scaling, getter({ trials: '1000000' })).rejected).toEqual(['trials']);
    const model = createScaling(engine, state);
    expect(model.results.tenKeys.dk).toBe(64);
  });
  test('reading-weights', () => {
    const embeddings = '1,0,0,0;0,1,0,0;0,0,1,0;1,0,0,0;0,1,0,0;0,0,1,0';
    const { state, pairs } = roundTrip(readingWeights, { embeddings, factor: '-1.5', seed: '12', token: 't5' });
    expect(pairs).toEqual({ embeddings, factor: '-1.5', seed: '12', token: 't5' });
    expect(state.token).toBe(5);
    expect(decodeSection(readingWeights, getter({ embeddings: '1,2;3,4' })).rejected).toEqual(['embeddings']);
    expect(decodeSection(readingWeights, getter({ token: 't6' })).rejected).toEqual(['token']);
    const model = createReading(engine, { base: state.base, factor: state.factor, asymmetry: { seed: state.seed, pairs: 200 }, token: state.token });
    expect(model.selected).toBe(5);
    expect(model.snapshot).toEqual(state);
    expect(model.reading.maxAsymmetry).toBe(0);
  });
  test('family', () => {
    const { state, pairs } = roundTrip(family, { seed: '42' });
    expect(pairs).toEqual({ seed: '42' });
    expect(createFamily(engine, state.seed).seed).toBe(42);
    for (const bad of ['-1', '1.5', '1000000']) expect(decodeSection(family, getter({ seed: bad })).rejected, bad).toEqual(['seed']);
  });
  test('order', () => {
    const { state, pairs } = roundTrip(order, { perm: '5,4,3,2,1,0', pe: 'on' });
    expect(pairs).toEqual({ perm: '5,4,3,2,1,0', pe: 'on' });
    const model = createOrder(engine, state);
    expect(model.result.positional).toBe(true);
    expect(model.result.maxDiff).toBeGreaterThan(0);
    for (const bad of ['0,1,2', '0,1,2,3,4,4', '0,1,2,3,4,6', '0;1;2;3;4;5']) {
      expect(decodeSection(order, getter({ perm: bad })).rejected, bad).toEqual(['perm']);
    }
  });
  test('cost', () => {
    const { state, pairs } = roundTrip(cost, { n: '4096' });
    expect(pairs).toEqual({ n: '4096' });
    expect(state.largest).toBe(4096);
    expect(decodeSection(cost, getter({ n: '8192' })).rejected).toEqual(['n']);
  });
});
