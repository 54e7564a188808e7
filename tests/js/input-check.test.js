// lib/input-check.js: typing mistakes told in the reader's words, in both
// languages, with the boxes counted from 1, never "q[0]" (issue 9).
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { FLOAT32_MAX, InputError, checkNumbers, readerMessage, withinFloatRange } from '../../web/src/lib/input-check.js';
import { translator } from '../../web/src/i18n/lookup.js';
import { createWorkedExample } from '../../web/src/sections/worked-example/state.js';
import { createReading } from '../../web/src/sections/reading-weights/state.js';
import { createSentence } from '../../web/src/sections/sentence/state.js';
import { createCross } from '../../web/src/sections/cross-attention/state.js';

let engine;
beforeAll(async () => { engine = await createAttention(); });

const load = async (lang, name) => (await import(`../../web/src/i18n/${lang}/${name}.js`)).default;
const translators = async (name) => Object.fromEntries(await Promise.all(['en', 'ko'].map(async (lang) =>
  [lang, translator(await load(lang, name), await load(lang, 'common'))])));

describe('checkNumbers and withinFloatRange', () => {
  test('the first bad value, with its indices turned into the label of its box', () => {
    const field = (j, i) => ({ key: 'cell', params: { j: j + 1, i: i + 1 } });
    expect(() => checkNumbers([[1, 2], [3, 4]], field)).not.toThrow();
    expect(() => checkNumbers([[1, 2], [NaN, 4]], field)).toThrow(expect.objectContaining({ problem: 'notANumber', field: { key: 'cell', params: { j: 2, i: 1 } } }));
    expect(() => checkNumbers([[1, 2], [3, 1e39]], field)).toThrow(expect.objectContaining({ problem: 'tooLarge', field: { key: 'cell', params: { j: 2, i: 2 } } }));
    expect(() => checkNumbers([FLOAT32_MAX, -FLOAT32_MAX], (i) => ({ key: 'x', params: { i } }))).not.toThrow();
    expect(() => withinFloatRange(() => ({ scores: [1, Infinity], weights: [0.5, 0.5] }))).toThrow(expect.objectContaining({ problem: 'overflow', field: null }));
    // the engine's own refusal of a result past float32 becomes the reader's 'overflow'
    const past = () => { throw new Error('scores[0][0]: q_0 . k_0 = 1e+40 is beyond the float range (|x| <= 3.40282347e+38)'); };
    expect(() => withinFloatRange(past)).toThrow(expect.objectContaining({ problem: 'overflow' }));
    expect(() => withinFloatRange(() => { throw new RangeError('k: expected m*d_k = 6 floats, got 5'); })).toThrow(RangeError);
  });
});

describe('the sections say what is wrong, in the reader’s words, in both languages', () => {
  const cases = [
    ['worked-example', (e) => createWorkedExample(e).setKey(1, 0, NaN), { en: 'key 2, component 1: not a number', ko: '키 2의 1번째 성분이 숫자가 아닙니다' }],
    ['worked-example', (e) => createWorkedExample(e).setQuery(1, 1e39), { en: 'q, component 2: too large', ko: 'q의 2번째 성분이 너무 큽니다' }],
    // q = k = 10^20: each score is 10^40, past float32; the engine refuses it (ValueError).
    ['worked-example', (e) => createWorkedExample(e).setQueryVector(1e20, 0).setKey(0, 0, 1e20), { en: 'These numbers are too large', ko: '값이 너무 큽니다' }],
    ['reading-weights', (e) => createReading(e).setFactor(NaN), { en: 'Scale factor c: not a number', ko: '계수 c가 숫자가 아닙니다' }],
    ['reading-weights', (e) => createReading(e).setFactor(1e38), { en: 'These numbers are too large', ko: '값이 너무 큽니다' }],
    ['sentence', (e) => createSentence(e).setEmbedding(4, 1, NaN), { en: 'embedding of “store”, component 2: not a number', ko: '“store” 임베딩의 2번째 성분이 숫자가 아닙니다' }],
    ['cross-attention', (e) => createCross(e).setDecoder(0, 2, NaN), { en: '“나는”, feature 3: not a number', ko: '“나는”의 특징 3이 숫자가 아닙니다' }],
  ];
  test.each(cases)('%s', async (section, act, expected) => {
    const model = act(engine);
    expect(model.failure).toBeInstanceOf(InputError);
    expect(model.result).not.toBeNull();   // the last good numbers stay
    const t = await translators(section);
    for (const lang of ['en', 'ko']) {
      const message = readerMessage(model.failure, t[lang]);
      expect(message, lang).toContain(expected[lang]);
      expect(message, lang).not.toMatch(/\[\d+\]|NaN|\binf\b|⟦/);   // no developer terms, no missing string
    }
  });
});
