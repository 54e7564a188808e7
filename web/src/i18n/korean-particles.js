// Korean particles that depend on the sound they follow: 으로/로, 이/가, 은/는,
// 을/를, 과/와. After a number the choice follows the number as it is read:
// 22.63 is read 이십이 점 육삼, ending in 삼 (a final consonant), so "22.63으로";
// 1.414 ends in 사 (none), so "1.414로". Pure functions, unit-tested in Node.
//
// In the Korean text a placeholder names its particle by its form after a
// final consonant: "{divisor|으로}" becomes "22.63으로" or "1.414로".

// The final consonant (jongseong) index of a Hangul syllable: 0 = none, 8 = ㄹ.
const finalOf = (syllable) => (syllable.codePointAt(0) - 0xac00) % 28;
const FINAL_L = 8;

// How each digit is read: 영 일 이 삼 사 오 육 칠 팔 구.
const DIGIT = '영일이삼사오육칠팔구';
// Trailing zeros of a whole number end it on a unit: 10 십, 100 백, 1000 천,
// 10^4 to 10^7 만 (십만, 백만, ...), 10^8 억, 10^12 조.
const unitOf = (zeros) => (zeros >= 12 ? '조' : zeros >= 8 ? '억' : zeros >= 4 ? '만' : '십백천'[zeros - 1]);
// Latin letters as read (a 에이, l 엘, m 엠, n 엔, r 알 ...): only the final sound matters.
const LETTER = { a: '이', b: '비', c: '씨', d: '디', e: '이', f: '프', g: '지', h: '치', i: '이', j: '이', k: '이', l: '엘', m: '엠', n: '엔', o: '오', p: '피', q: '큐', r: '알', s: '스', t: '티', u: '유', v: '이', w: '유', x: '스', y: '이', z: '트' };
const SUBSCRIPT_DIGITS = '\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089';
const SUPERSCRIPT = /[\u2070\u00b9\u00b2\u00b3\u2074-\u2079]$/;

// The syllable a text ends with when read aloud, or null if unknown.
export function lastSyllable(text) {
  const s = String(text).replace(/<[^>]*>/g, '').replace(/[\s"'“”‘’)\]}»›.,;:!?%]+$/u, '');
  if (!s) return null;
  const last = s[s.length - 1];
  if (/[\uac00-\ud7a3]/.test(last)) return last;
  if (SUPERSCRIPT.test(s)) return '승';   // 10³⁰⁷: 십의 삼백칠 승
  const sub = SUBSCRIPT_DIGITS.indexOf(last);
  if (sub >= 0) return DIGIT[sub];
  const number = s.match(/(\d[\d,]*)(\.\d+)?$/);
  if (number) {
    if (number[2]) return DIGIT[Number(number[2][number[2].length - 1])];   // decimals: digit by digit
    const whole = number[1].replace(/,/g, '');
    if (/^0+$/.test(whole)) return '영';
    const zeros = whole.length - whole.replace(/0+$/, '').length;
    if (zeros === 0) return DIGIT[Number(whole[whole.length - 1])];
    return unitOf(zeros);
  }
  const letter = last.toLowerCase();
  return LETTER[letter] ?? null;
}

// The particle after `text`, given its form after a final consonant: 으로, 이, 은, 을 or 과.
const PAIRS = { 으로: '로', 이: '가', 은: '는', 을: '를', 과: '와' };
export function particle(text, afterConsonant) {
  const afterVowel = PAIRS[afterConsonant];
  if (afterVowel === undefined) throw new Error(`particle: expected one of ${Object.keys(PAIRS).join(', ')}, got ${afterConsonant}`);
  const syllable = lastSyllable(text);
  if (syllable === null) return afterConsonant;   // not a word or number we can read
  const final = finalOf(syllable);
  if (afterConsonant === '으로') return final === 0 || final === FINAL_L ? '로' : '으로';
  return final === 0 ? afterVowel : afterConsonant;
}

export const PARTICLES = Object.keys(PAIRS);
