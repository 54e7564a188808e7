// Section inputs as text (links, widget attributes, the iframe route): the
// shared parsers of src/lib/params.js and every section's codec, with
// well-formed, malformed and hostile values. A rejected value always falls back
// to the section's defaults and is reported by parameter name only.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  MAX_ABS, ParamError, decodeSection, encodeSection, pageGetter, parseBits, parseMatrix, parseNumber, parseSwitch,
  parseVector, queryString, replaceSectionParams,
} from '../../web/src/lib/params.js';
import workedExample from '../../web/src/sections/worked-example/params.js';
import sentence from '../../web/src/sections/sentence/params.js';
import masking from '../../web/src/sections/masking/params.js';
import multiHead from '../../web/src/sections/multi-head/params.js';
import crossAttention from '../../web/src/sections/cross-attention/params.js';
import { createWorkedExample } from '../../web/src/sections/worked-example/state.js';
import { createSentence } from '../../web/src/sections/sentence/state.js';
import { createMasking } from '../../web/src/sections/masking/state.js';
import { createMultiHead } from '../../web/src/sections/multi-head/state.js';
import { createCross } from '../../web/src/sections/cross-attention/state.js';
import { createAttention } from '../../web/src/engine/index.js';

const HOSTILE = [
  '<img src=x onerror="window.__pwned=1">',
  '"><script>window.__pwned=1</script>',
  'javascript:alert(1)',
  '1,0<svg onload=alert(1)>',
  '${alert(1)}',
  'NaN', 'Infinity', '-Infinity', '0x10', '1e400', '1e999', '', ' ', ',', ';', '1,,0', '1;0',
  '\u0000', '１,０',   // full-width digits
  '1'.repeat(5000),
];

const from = (record) => (name) => (name in record ? record[name] : null);

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

const CODECS = { 'worked-example': workedExample, sentence, masking, 'multi-head': multiHead, 'cross-attention': crossAttention };

describe.each(Object.entries(CODECS))('%s codec', (id, codec) => {
  test('no parameters: the defaults, nothing rejected, nothing to encode', () => {
    const { state, rejected } = decodeSection(codec, () => null);
    expect(rejected).toEqual([]);
    expect(state).toEqual(codec.defaults());
    expect(encodeSection(codec, state)).toEqual([]);
  });

  test.each(HOSTILE)('hostile value %j in every parameter falls back to the defaults', (value) => {
    for (const name of codec.names) {
      const { state, rejected } = decodeSection(codec, from({ [name]: value }));
      expect(rejected, `${name}=${JSON.stringify(value).slice(0, 40)}`).toEqual([name]);
      expect(state).toEqual(codec.defaults());
    }
  });

  test('one bad parameter among good ones: the whole section falls back', () => {
    const good = Object.fromEntries(encodeSection(codec, codec.defaults()).map(([k, v]) => [k, v]));
    const [first, ...others] = codec.names;
    const record = { ...good, [first]: '<img src=x onerror=alert(1)>' };
    for (const name of others) record[name] ??= codec.fields[name].format(codec.fromState(codec.defaults())[name]);
    const { state, rejected } = decodeSection(codec, from(record));
    expect(rejected).toContain(first);
    expect(state).toEqual(codec.defaults());
  });
});

describe('round trips: encode(state) decodes back to the same state', () => {
  test('worked example', () => {
    const state = { q: [0.5, -1.25], keys: [[1, 0], [0, 1], [1, 1], [2, -1]], values: [[2, 0], [0, 2], [1, 1], [3, 3]], scaling: false };
    const pairs = encodeSection(workedExample, state);
    expect(pairs).toEqual([['q', '0.5,-1.25'], ['keys', '1,0;0,1;1,1;2,-1'], ['values', '2,0;0,2;1,1;3,3'], ['scaling', 'off']]);
    expect(decodeSection(workedExample, from(Object.fromEntries(pairs)))).toEqual({ state, rejected: [] });
  });
  test('worked example: keys and values must have the same count', () => {
    const { state, rejected } = decodeSection(workedExample, from({ keys: '1,0;0,1' }));
    expect(rejected).toEqual(['keys', 'values']);
    expect(state).toEqual(workedExample.defaults());
    expect(decodeSection(workedExample, from({ keys: '1,0;0,1', values: '1,1;2,2' })).rejected).toEqual([]);
    expect(decodeSection(workedExample, from({ keys: Array(9).fill('1,0').join(';'), values: Array(9).fill('1,0').join(';') })).rejected)
      .toEqual(['keys', 'values']);
  });
  test('masking: presets and a clicked keep-matrix', () => {
    expect(decodeSection(masking, from({ mask: 'none' })).state).toEqual({ mode: 'none', keep: null, focusRow: 2 });
    const keep = '10000;11000;10100;11110;00000';
    const { state } = decodeSection(masking, from({ mask: keep, row: '5' }));
    expect(state.mode).toBe('custom');
    expect(state.focusRow).toBe(4);
    expect(encodeSection(masking, state)).toEqual([['mask', keep], ['row', '5']]);
    expect(decodeSection(masking, from({ mask: 'custom' })).rejected).toEqual(['mask']);
    expect(decodeSection(masking, from({ row: '6' })).rejected).toEqual(['row']);
    expect(decodeSection(masking, from({ row: '0' })).rejected).toEqual(['row']);
  });
  test('multi-head: heads from the choices, seeds in 32 bits', () => {
    expect(decodeSection(multiHead, from({ heads: '4', seed: '42' })).state).toEqual({ heads: 4, seed: 42 });
    expect(decodeSection(multiHead, from({ heads: '3' })).rejected).toEqual(['heads']);
    expect(decodeSection(multiHead, from({ seed: '-1' })).rejected).toEqual(['seed']);
    expect(decodeSection(multiHead, from({ seed: String(2 ** 32) })).rejected).toEqual(['seed']);
    expect(decodeSection(multiHead, from({ seed: '1.5' })).rejected).toEqual(['seed']);
  });
  test('sentence and cross-attention: exact shapes', () => {
    expect(decodeSection(sentence, from({ embeddings: '1,0;0,1;1,1;1,1' })).rejected).toEqual(['embeddings']);
    expect(decodeSection(sentence, from({ embeddings: '1,0;0,1;1,1;1,1;2,2' })).state.embeddings[4]).toEqual([2, 2]);
    expect(decodeSection(crossAttention, from({ decoder: '1,0,0;0,1,0;0,0,1' })).rejected).toEqual([]);
    expect(decodeSection(crossAttention, from({ encoder: '1,0,0;0,1,0;0,0,1' })).rejected).toEqual(['encoder']);
  });
});

describe('decoded states drive the sections (real engine)', () => {
  let engine;
  beforeAll(async () => { engine = await createAttention(); });

  test('worked example from a link computes article 001 (0.401, 1.203)', () => {
    const { state } = decodeSection(workedExample, from({ q: '1,0', keys: '1,0;0,1;1,1', values: '2,0;0,2;1,1' }));
    const model = createWorkedExample(engine, state);
    expect(model.result.weights[0]).toBeCloseTo(0.401, 3);
    expect(model.result.output[0]).toBeCloseTo(1.203, 3);
    expect(encodeSection(workedExample, model.snapshot)).toEqual([]);
  });
  test('worked example with four keys from an attribute', () => {
    const { state } = decodeSection(workedExample, from({ keys: '1,0;0,1;1,1;-1,0', values: '2,0;0,2;1,1;0,0' }));
    const model = createWorkedExample(engine, state);
    expect(model.result.weights).toHaveLength(4);
    expect(model.result.weightSum).toBeCloseTo(1, 6);
  });
  test('masking from a keep-matrix: masked weights are exactly 0; the snapshot encodes back', () => {
    const keep = '10000;11000;10100;11110;00000';
    const { state } = decodeSection(masking, from({ mask: keep }));
    const model = createMasking(engine, state);
    expect(model.result.weights[1]).toBe(0);
    expect(model.result.fullyMasked).toEqual([4]);
    expect(encodeSection(masking, model.snapshot)).toEqual([['mask', keep]]);
    model.reset();
    expect(encodeSection(masking, model.snapshot)).toEqual([['mask', keep]]);   // reset = the link's state
  });
  test('multi-head, sentence and cross-attention snapshots encode what they were built from', () => {
    const mh = createMultiHead(engine, { heads: 8, seed: 7 });
    expect(encodeSection(multiHead, mh.snapshot)).toEqual([['heads', '8'], ['seed', '7']]);
    mh.redraw();
    expect(encodeSection(multiHead, mh.snapshot)).toEqual([['heads', '8'], ['seed', '8']]);
    const s = createSentence(engine, decodeSection(sentence, from({ embeddings: '1,0;0,1;1,1;1,1;2,2' })).state.embeddings);
    expect(encodeSection(sentence, s.snapshot)).toEqual([['embeddings', '1,0;0,1;1,1;1,1;2,2']]);
    const c = createCross(engine, decodeSection(crossAttention, from({ decoder: '1,0,0;0,1,0;0,0,1' })).state);
    expect(c.result.n).toBe(3);
    expect(encodeSection(crossAttention, c.snapshot)).toEqual([['decoder', '1,0,0;0,1,0;0,0,1']]);
  });
});

describe('the registry lists each section codec\'s names (what <attention-demo> observes)', async () => {
  const { sections } = await import('../../web/src/sections/registry.js');
  const { widthMediaToContainer } = await import('../../web/vite-plugins/adopted-styles.js');
  test.each(sections.filter((s) => s.params).map((s) => s.id))('%s', async (id) => {
    const codec = (await import(`../../web/src/sections/${id}/params.js`)).default;
    expect(sections.find((s) => s.id === id).params).toEqual(codec.names);
  });
  test('no parameter name clashes with the widget\'s own attributes', () => {
    for (const s of sections) for (const name of s.params ?? []) expect(['section', 'lang', 'theme', 'id', 'class', 'style']).not.toContain(name);
  });
  test('the embed build turns width media queries into container queries, and only those', () => {
    expect(widthMediaToContainer('@media (min-width: 40rem) { a{} } @media (max-width: 30rem) and (min-width: 10rem) {b{}}'))
      .toBe('@container (min-width: 40rem) { a{} } @container (max-width: 30rem) and (min-width: 10rem) {b{}}');
    expect(widthMediaToContainer('@media (prefers-reduced-motion: reduce) { a{} }')).toBe('@media (prefers-reduced-motion: reduce) { a{} }');
  });
});
