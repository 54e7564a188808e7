// Korean particles after numbers and words (i18n/korean-particles.js), and
// every templated Korean sentence: a placeholder followed by a particle that
// depends on the sound before it must let the value choose ({x|으로}).
import { describe, expect, test } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { lastSyllable, particle } from '../../web/src/i18n/korean-particles.js';
import { interpolate } from '../../web/src/i18n/lookup.js';

describe('the particle follows the number as it is read', () => {
  test.each([
    // the examples: 22.63 (…육삼), 32.00 (…영영), 64.00 need 으로
    ['22.63', '으로'], ['32.00', '으로'], ['64.00', '으로'],
    ['1.414', '로'],   // …사사: no final consonant
    ['1', '로'], ['7', '로'], ['8', '로'],   // 일, 칠, 팔 end in ㄹ: 로
    ['3', '으로'], ['6', '으로'], ['0', '으로'],
    ['2', '로'], ['10', '으로'], ['20', '으로'], ['100', '으로'], ['1,000', '으로'], ['120', '으로'], ['105', '로'],
    ['10000', '으로'], ['200000', '으로'], ['1.24 × 10³⁰⁷', '으로'],
    ['k₂', '로'], ['k₃', '으로'], ['t3', '으로'], ['t2', '로'], ['나는', '으로'], ['배가', '로'], ['고프다', '로'],
  ])('%s: %s', (text, expected) => {
    expect(particle(text, '으로')).toBe(expected);
  });

  test('이/가, 은/는, 을/를, 과/와 after words and numbers', () => {
    expect(particle('“karina”', '과')).toBe('와');
    expect(particle('“am”', '과')).toBe('과');
    expect(particle('3', '이')).toBe('이');
    expect(particle('4', '이')).toBe('가');
    expect(particle('<b>0.25</b>', '은')).toBe('는');
    expect(particle('10', '을')).toBe('을');
    expect(() => particle('3', '에서')).toThrow(/particle/);
  });

  test('interpolate fills {name|으로} with the value and its particle', () => {
    expect(interpolate('{d|으로} 나누면', { d: '22.63' })).toBe('22.63으로 나누면');
    expect(interpolate('{d|으로} 나누면', { d: '1.414' })).toBe('1.414로 나누면');
    expect(interpolate('{a|과} {b|은}', { a: '“to”', b: '“the”' })).toBe('“to”와 “the”는');
    expect(lastSyllable('')).toBeNull();
  });
});

describe('every templated Korean sentence', () => {
  const dir = new URL('../../web/src/i18n/ko/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
  // A placeholder, maybe closing tags or quotes, then a particle whose form depends on the sound before it.
  const bare = /\{(\w+)\}((?:<\/\w+>|[”’»])*)(으로|로|이|가|은|는|을|를|과|와)(?![\uac00-\ud7a3])/g;

  test('there are Korean language files to check', () => expect(files.length).toBeGreaterThanOrEqual(11));
  test.each(files)('%s: no fixed particle after a placeholder', (file) => {
    const text = readFileSync(new URL(file, dir), 'utf8').replace(/^\s*\/\/.*$/gm, '');   // strings, not comments
    const found = [...text.matchAll(bare)].map((m) => m[0]);
    expect(found).toEqual([]);
  });
});
