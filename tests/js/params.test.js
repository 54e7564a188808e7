// Section inputs as text (links, widget attributes, the iframe route): the
// shared parsers of src/lib/params.js, then every section's codec, driven by the
// section registry: defaults make an empty link, a link reads back as given,
// hostile and malformed values are rejected by name (never repaired) and the
// whole section falls back to its defaults; and the models start from what a
// link says (real engine).
import { beforeAll, describe, expect, test } from 'vitest';
import {
  MAX_ABS, MAX_TEXT, ParamError, decodeSection, encodeSection, hashTarget, pageGetter, shortenOverlongParams, addressPairs, MAX_PAIRS, parseBits, parseMatrix, parseNumber, parseSwitch,
  parseVector, queryString, replaceSectionParams,
} from '../../web/src/lib/params.js';
import { sections } from '../../web/src/sections/registry.js';
import { createAttention } from '../../web/src/engine/index.js';
import { createWorkedExample } from '../../web/src/sections/worked-example/state.js';
import { createScaling } from '../../web/src/sections/scaling/state.js';
import { createReading } from '../../web/src/sections/reading-weights/state.js';
import { createSentence } from '../../web/src/sections/sentence/state.js';
import { createMasking } from '../../web/src/sections/masking/state.js';
import { createMultiHead } from '../../web/src/sections/multi-head/state.js';
import { createCross } from '../../web/src/sections/cross-attention/state.js';
import { createFamily } from '../../web/src/sections/family/state.js';
import { createOrder } from '../../web/src/sections/order/state.js';

const HOSTILE = [
  '<img src=x onerror="window.__pwned=1">',
  '"><script>window.__pwned=1</script>',
  '<script>',
  'javascript:alert(1)',
  '1,0<svg onload=alert(1)>',
  '${alert(1)}',
  'NaN', 'Infinity', '-Infinity', '0x10', '1e400', '1e999', '', ' ', ',', ';', '1,,0', '1;0', '1;2', 'x',
  '\u0000', '１,０',   // full-width digits
  '1'.repeat(5000), 'x'.repeat(3000),
];

// A link for every section that differs from its defaults in every parameter:
// it must read back as given. A new section adds its line here (a test says so).
const EXAMPLES = {
  'worked-example': { q: '0.5,-1.25', keys: '1,0;0,1;1,1;2,-1', values: '2,0;0,2;1,1;3,3', scaling: 'off', convention: 'columns' },
  scaling: { dk: '64', seed: '7', 'trials-dk': '256', trials: '1000', 'trials-seed': '8', 'sweep-trials': '50', 'sweep-seed': '9' },
  'reading-weights': { embeddings: '1,0,0,0;0,1,0,0;0,0,1,0;1,0,0,0;0,1,0,0;0,0,1,0', factor: '-1.5', seed: '12', token: 't5' },
  sentence: { embeddings: '1,0;0,1;1,1;1,1;2,2' },
  masking: { mask: '10000;11000;10100;11110;00000', row: '5' },
  'multi-head': { heads: '4', seed: '42' },
  'cross-attention': { decoder: '1,0,0;0,1,0;0,0,1', encoder: '1,0,0;0,1,0;0,0,1;1,1,1' },
  family: { seed: '42' },
  order: { perm: '5,4,3,2,1,0', pe: 'on' },
  cost: { n: '4096' },
  gradients: { seed: '7', dk: '1024', row: '5', 'train-dk': '128', 'train-seed': '3', steps: '500' },
  learning: { task: 'reverse', seed: '12', heads: '4', scaling: 'off', lr: '0.03' },
  bottleneck: { seed: '7', steps: '2000' },
  'family-trained': { task: 'reverse', seed: '12', models: 'general,concat', window: 'both', feeding: 'off' },
  induction: { seed: '5' },
  'mask-reason': { seed: '4' },
  'positions-trained': { seed: '3', positions: 'learned' },
  decoding: { seed: '7', model: 'bahdanau' },
};

const from = (record) => (name) => (name in record ? record[name] : null);
const codecs = Object.fromEntries(await Promise.all(sections.filter((s) => s.params).map(async (s) =>
  [s.id, (await import(`../../web/src/sections/${s.id}/params.js`)).default])));

describe('number parsing', () => {
  test('plain decimals, signs, exponents', () => {
    expect(parseNumber('1')).toBe(1);
    expect(parseNumber('-0.5')).toBe(-0.5);
    expect(parseNumber('.25')).toBe(0.25);
    expect(parseNumber('2e-3')).toBe(0.002);
    expect(parseNumber(' 3 ')).toBe(3);
    expect(Object.is(parseNumber('-0'), 0)).toBe(true);
  });
  test.each(['abc', '1.2.3', '0x10', 'Infinity', 'NaN', '', '1 2', '1e400', '--1', '1e', '+', '٣'])('rejects %j', (s) => {
    expect(() => parseNumber(s)).toThrow(ParamError);
  });
  test('huge values are rejected', () => {
    expect(parseNumber(String(MAX_ABS))).toBe(MAX_ABS);
    expect(() => parseNumber(String(MAX_ABS + 1))).toThrow(ParamError);
    expect(() => parseNumber('1e308')).toThrow(ParamError);
  });
  test('vectors and matrices have exact counts', () => {
    expect(parseVector('1,0', 2)).toEqual([1, 0]);
    expect(() => parseVector('1,0,0', 2)).toThrow(/expected 2 numbers, got 3/);
    expect(parseMatrix('1,0;0,1', 2, 2)).toEqual([[1, 0], [0, 1]]);
    expect(() => parseMatrix('1,0;0,1;1,1', 2, 2)).toThrow(/expected 2 rows, got 3/);
    expect(() => parseMatrix('1,0;0', 2, 2)).toThrow(ParamError);
    expect(parseMatrix('1,0', { min: 1, max: 3 }, 2)).toEqual([[1, 0]]);
  });
  test('bits and switches', () => {
    expect(Array.from(parseBits('10;01', 2, 2))).toEqual([1, 0, 0, 1]);
    expect(() => parseBits('12;01', 2, 2)).toThrow(ParamError);
    expect(() => parseBits('10;0', 2, 2)).toThrow(ParamError);
    expect(parseSwitch('off')).toBe(false);
    expect(parseSwitch('ON')).toBe(true);
    expect(() => parseSwitch('maybe')).toThrow(ParamError);
  });
});

describe('page query strings', () => {
  test('readable: commas and semicolons are not escaped, the rest is', () => {
    expect(queryString([['worked-example.keys', '1,0;0,1'], ['x', '<a&b>']]))
      .toBe('worked-example.keys=1,0;0,1&x=%3Ca%26b%3E');
  });
  test('a section replaces only its own parameters', () => {
    const next = replaceSectionParams('?lang=ko&masking.mask=none&worked-example.q=1,1', 'worked-example', [['q', '0,1']]);
    expect(next).toBe('lang=ko&masking.mask=none&worked-example.q=0,1');
    expect(replaceSectionParams(next, 'masking', [])).toBe('lang=ko&worked-example.q=0,1');
    expect(pageGetter(`?${next}`, 'worked-example')('q')).toBe('0,1');
  });
});

describe('the registry', () => {
  test('every section has a codec (src/sections/<id>/params.js) and an example link in this test', () => {
    expect(Object.keys(codecs)).toEqual(sections.map((s) => s.id));
    expect(Object.keys(EXAMPLES).sort()).toEqual(Object.keys(codecs).sort());
  });
  test('no parameter name clashes with the widget\'s own attributes', () => {
    for (const s of sections) for (const name of s.params ?? []) expect(['section', 'lang', 'theme', 'id', 'class', 'style']).not.toContain(name);
  });
});

describe.each(Object.keys(codecs))('%s codec', (id) => {
  const codec = codecs[id];

  test('the registry lists its names (what <attention-demo> observes)', () => {
    expect(sections.find((s) => s.id === id).params).toEqual(codec.names);
  });

  test('no parameters: the defaults, nothing rejected; the defaults make an empty link', () => {
    expect(decodeSection(codec, () => null)).toEqual({ state: codec.defaults(), rejected: [] });
    expect(encodeSection(codec, codec.defaults())).toEqual([]);
  });

  test('the example link reads back as given, and differs from the defaults in every parameter', () => {
    const link = EXAMPLES[id];
    expect(Object.keys(link)).toEqual(codec.names);
    const { state, rejected } = decodeSection(codec, from(link));
    expect(rejected).toEqual([]);
    expect(Object.fromEntries(encodeSection(codec, state))).toEqual(link);
    // encodeSection leaves out what equals the default: every parameter was written, so each differs
    expect(decodeSection(codec, from(Object.fromEntries(encodeSection(codec, state))))).toEqual({ state, rejected: [] });
  });

  test.each(HOSTILE.map((v) => [v.length > 40 ? `${v.slice(0, 12)}... (${v.length})` : v, v]))(
    'hostile value %j in every parameter: rejected by name, the defaults kept', (_, value) => {
      for (const name of codec.names) {
        const { state, rejected } = decodeSection(codec, from({ [name]: value }));
        expect(rejected, name).toEqual([name]);
        expect(state).toEqual(codec.defaults());
      }
    });

  test('one bad parameter among good ones: the whole section falls back', () => {
    for (const bad of codec.names) {
      const { state, rejected } = decodeSection(codec, from({ ...EXAMPLES[id], [bad]: '<img src=x onerror=alert(1)>' }));
      expect(rejected).toContain(bad);
      expect(state).toEqual(codec.defaults());
    }
  });
});

describe('what each codec accepts', () => {
  const rejected = (id, record) => decodeSection(codecs[id], from(record)).rejected;
  test('worked example: keys and values must have the same count, 1 to 8 rows', () => {
    expect(rejected('worked-example', { keys: '1,0;0,1' })).toEqual(['keys', 'values']);
    expect(rejected('worked-example', { keys: '1,0;0,1', values: '1,1;2,2' })).toEqual([]);
    expect(rejected('worked-example', { keys: Array(9).fill('1,0').join(';'), values: Array(9).fill('1,0').join(';') }))
      .toEqual(['keys', 'values']);
  });
  test('scaling: only the sliders\' sizes (a link cannot ask for 10^6 trials)', () => {
    const { state } = decodeSection(codecs.scaling, from(EXAMPLES.scaling));
    expect(state.tenKeys).toMatchObject({ dk: 64, seed: 7, keys: 10 });
    expect(state.trials).toMatchObject({ dk: 256, trials: 1000, seed: 8, keys: 8 });
    expect(state.sweep).toMatchObject({ trials: 50, seed: 9, dims: [4, 16, 64, 256, 1024] });
    expect(rejected('scaling', { trials: '1000000' })).toEqual(['trials']);
  });
  test('reading-weights: six rows of four numbers, tokens t0 to t5', () => {
    expect(decodeSection(codecs['reading-weights'], from({ token: 't5' })).state.token).toBe(5);
    expect(rejected('reading-weights', { embeddings: '1,2;3,4' })).toEqual(['embeddings']);
    expect(rejected('reading-weights', { token: 't6' })).toEqual(['token']);
  });
  test('sentence and cross-attention: exact shapes', () => {
    expect(rejected('sentence', { embeddings: '1,0;0,1;1,1;1,1' })).toEqual(['embeddings']);
    expect(decodeSection(codecs.sentence, from({ embeddings: '1,0;0,1;1,1;1,1;2,2' })).state.embeddings[4]).toEqual([2, 2]);
    expect(rejected('cross-attention', { decoder: '1,0,0;0,1,0;0,0,1' })).toEqual([]);
    expect(rejected('cross-attention', { encoder: '1,0,0;0,1,0;0,0,1' })).toEqual(['encoder']);
  });
  test('masking: presets, a clicked keep-matrix, rows 1 to 5', () => {
    expect(decodeSection(codecs.masking, from({ mask: 'none' })).state).toEqual({ mode: 'none', keep: null, focusRow: 2 });
    const { state } = decodeSection(codecs.masking, from(EXAMPLES.masking));
    expect(state.mode).toBe('custom');
    expect(state.focusRow).toBe(4);
    expect(rejected('masking', { mask: 'custom' })).toEqual(['mask']);
    expect(rejected('masking', { row: '6' })).toEqual(['row']);
    expect(rejected('masking', { row: '0' })).toEqual(['row']);
  });
  test('multi-head: heads from the choices, seeds in 32 bits', () => {
    expect(decodeSection(codecs['multi-head'], from({ heads: '4', seed: '42' })).state).toEqual({ heads: 4, seed: 42 });
    for (const [name, bad] of [['heads', '3'], ['seed', '-1'], ['seed', String(2 ** 32)], ['seed', '1.5']]) {
      expect(rejected('multi-head', { [name]: bad }), bad).toEqual([name]);
    }
  });
  test('family: whole seeds below 10^6', () => {
    for (const bad of ['-1', '1.5', '1000000']) expect(rejected('family', { seed: bad }), bad).toEqual(['seed']);
  });
  test('order: a permutation of 0..5', () => {
    for (const bad of ['0,1,2', '0,1,2,3,4,4', '0,1,2,3,4,6', '0;1;2;3;4;5']) expect(rejected('order', { perm: bad }), bad).toEqual(['perm']);
  });
  test('cost: the benchmark sizes up to 4096', () => {
    expect(decodeSection(codecs.cost, from({ n: '4096' })).state.largest).toBe(4096);
    expect(rejected('cost', { n: '8192' })).toEqual(['n']);
  });
});

describe('the models start from what a link says, and their snapshots encode back (real engine)', () => {
  let engine;
  beforeAll(async () => { engine = await createAttention(); });
  const decoded = (id, record = EXAMPLES[id]) => decodeSection(codecs[id], from(record)).state;

  test('worked example from a link computes article 001 (0.401, 1.203); four keys from an attribute', () => {
    const model = createWorkedExample(engine, decoded('worked-example', { q: '1,0', keys: '1,0;0,1;1,1', values: '2,0;0,2;1,1' }));
    expect(model.result.weights[0]).toBeCloseTo(0.401, 3);
    expect(model.result.output[0]).toBeCloseTo(1.203, 3);
    expect(encodeSection(codecs['worked-example'], model.snapshot)).toEqual([]);
    const four = createWorkedExample(engine, decoded('worked-example', { keys: '1,0;0,1;1,1;-1,0', values: '2,0;0,2;1,1;0,0' }));
    expect(four.result.weights).toHaveLength(4);
    expect(four.result.weightSum).toBeCloseTo(1, 6);
  });
  test('scaling', () => {
    expect(createScaling(engine, decoded('scaling')).results.tenKeys.dk).toBe(64);
  });
  test('reading-weights', () => {
    const state = decoded('reading-weights');
    const model = createReading(engine, { base: state.base, factor: state.factor, asymmetry: { seed: state.seed, pairs: 200 }, token: state.token });
    expect(model.selected).toBe(5);
    expect(model.snapshot).toEqual(state);
    expect(model.reading.maxAsymmetry).toBe(0);
  });
  test('sentence', () => {
    const s = createSentence(engine, decoded('sentence').embeddings);
    expect(encodeSection(codecs.sentence, s.snapshot)).toEqual([['embeddings', EXAMPLES.sentence.embeddings]]);
  });
  test('masking from a keep-matrix: masked weights are exactly 0; reset is the link\'s state', () => {
    const keep = EXAMPLES.masking.mask;
    const model = createMasking(engine, decoded('masking', { mask: keep }));
    expect(model.result.weights[1]).toBe(0);
    expect(model.result.fullyMasked).toEqual([4]);
    expect(encodeSection(codecs.masking, model.snapshot)).toEqual([['mask', keep]]);
    model.reset();
    expect(encodeSection(codecs.masking, model.snapshot)).toEqual([['mask', keep]]);
  });
  test('multi-head: the snapshot follows new projections', () => {
    const mh = createMultiHead(engine, { heads: 8, seed: 7 });
    expect(encodeSection(codecs['multi-head'], mh.snapshot)).toEqual([['heads', '8'], ['seed', '7']]);
    mh.redraw();
    expect(encodeSection(codecs['multi-head'], mh.snapshot)).toEqual([['heads', '8'], ['seed', '8']]);
  });
  test('cross-attention', () => {
    const c = createCross(engine, decoded('cross-attention', { decoder: '1,0,0;0,1,0;0,0,1' }));
    expect(c.result.n).toBe(3);
    expect(encodeSection(codecs['cross-attention'], c.snapshot)).toEqual([['decoder', '1,0,0;0,1,0;0,0,1']]);
  });
  test('family', () => {
    expect(createFamily(engine, decoded('family').seed).seed).toBe(42);
  });
  test('order', () => {
    const model = createOrder(engine, decoded('order'));
    expect(model.result.positional).toBe(true);
    expect(model.result.maxDiff).toBeGreaterThan(0);
  });
});

describe('the location hash', () => {
  test('names an element id, percent-decoded; malformed encodings name nothing instead of throwing', () => {
    expect(hashTarget('#masking')).toBe('masking');
    expect(hashTarget('#%EB%A7%88%EC%8A%A4%ED%82%B9')).toBe('마스킹');
    expect(hashTarget('')).toBe(null);
    expect(hashTarget('#')).toBe(null);
    // decodeURIComponent throws URIError for these (issue 12: the page stopped rendering)
    for (const bad of ['#%E0%A4%A', '#%', '#%zz', '#%C0%80%']) {
      expect(() => decodeURIComponent(bad.slice(1))).toThrow(URIError);
      expect(hashTarget(bad)).toBe(null);
    }
  });
});

describe('over-long parameters in the address', () => {
  test('are cut to MAX_TEXT + 1 characters: still refused as too long, the address short', () => {
    expect(shortenOverlongParams('?lang=en&masking.mask=causal')).toBe('lang=en&masking.mask=causal');
    const long = '1'.repeat(1000000);
    const shortened = shortenOverlongParams(`?lang=ko&worked-example.q=${long}&masking.row=2`);
    expect(shortened.length).toBeLessThan(MAX_TEXT + 100);
    const params = new URLSearchParams(shortened);
    expect(params.get('worked-example.q')).toBe('1'.repeat(MAX_TEXT + 1));
    expect([params.get('lang'), params.get('masking.row')]).toEqual(['ko', '2']);
    const codec = { names: ['q'], defaults: () => ({ q: [1, 0] }), fields: { q: { parse: (t) => parseVector(t, 2), format: String } },
      toState: (v, d) => ({ q: v.q ?? d.q }), fromState: (x) => x };
    expect(decodeSection(codec, pageGetter(shortened, 'worked-example')).rejected).toEqual(['q']);
  });

  // Issue 25: a 10^6-character name was never shortened, and every address was
  // parsed whole (250,000 parameters: 2.4 s in Node, 0.5 s more per section read).
  test('the page reads at most MAX_PAIRS parameters, each part cut before decoding; long names are cut too', () => {
    const name = shortenOverlongParams(`?${'x'.repeat(1000000)}=1&lang=ko`);
    expect(name.length).toBeLessThan(MAX_TEXT + 20);
    expect(new URLSearchParams(name).get('lang')).toBe('ko');
    const many = `?worked-example.q=0,1&${'a=1&'.repeat(250000)}`;
    const started = performance.now();
    const shortened = shortenOverlongParams(many);
    expect(performance.now() - started).toBeLessThan(100);
    expect([...new URLSearchParams(shortened)]).toHaveLength(MAX_PAIRS);
    expect(pageGetter(many, 'worked-example')('q')).toBe('0,1');
    expect(addressPairs(many)).toHaveLength(MAX_PAIRS);
    // A percent-encoded value cut before decoding still decodes to more than MAX_TEXT: refused, never a shorter value.
    const korean = `?worked-example.q=${'%EA%B0%80'.repeat(200000)}`;
    const [[, value]] = addressPairs(korean);
    expect(value.length).toBeGreaterThan(MAX_TEXT);
    expect(value.length).toBeLessThan(10 * MAX_TEXT);
    expect(new URLSearchParams(shortenOverlongParams(korean)).get('worked-example.q')).toBe('\uac00'.repeat(MAX_TEXT + 1));
    // Read as URLSearchParams reads it: '+', escapes, repeated names (the first wins), '=' in a value, bare names.
    expect(addressPairs('?a=1+2&b=%41%3D&a=3&c&d=x=y&&')).toEqual([['a', '1 2'], ['b', 'A='], ['a', '3'], ['c', ''], ['d', 'x=y']]);
    expect(pageGetter('?s.a=1&s.a=2', 's')('a')).toBe('1');
    expect(shortenOverlongParams('?a=1+2&b=%41')).toBe('a=1+2&b=%41');
  });
});

