// The numbers a reader typed, checked before they reach the engine, so that a
// problem is told in the reader's words: which box (counted from 1, as the
// labels count) and what is wrong with it, in the page's language, instead of
// the engine's "q[0]: expected a finite number, got NaN". Pure functions, no
// DOM: unit-tested in Node.
//
//   compute: (inputs) => {
//     checkNumbers(inputs.keys, (j, i) => ({ key: 'inputs.keyCell', params: { j: j + 1, i: i + 1 } }));
//     return withinFloatRange(() => engine.attention(...));   // scores past float32's range
//   }
//   view: t('inputs.error', { message: readerMessage(model.failure, t) })

// The largest float32: the engine computes in single precision.
export const FLOAT32_MAX = 3.4028234663852886e38;

// problem: 'notANumber' | 'tooLarge' (a typed value) or 'overflow' (a result);
// field: { key, params } of the box's label in the section's strings, or null.
export class InputError extends Error {
  constructor(problem, field = null) {
    super(field ? `${field.key} ${JSON.stringify(field.params ?? {})}: ${problem}` : problem);
    this.name = 'InputError';
    this.problem = problem;
    this.field = field;
  }
}

// values: numbers, or (nested) arrays of them; fieldOf(...indices) names the
// box at those 0-based indices (its label counts from 1). Throws for the first
// value that is not a number or does not fit in single precision.
export function checkNumbers(values, fieldOf, indices = []) {
  if (typeof values === 'number') {
    if (Number.isNaN(values)) throw new InputError('notANumber', fieldOf(...indices));
    if (!(Math.abs(values) <= FLOAT32_MAX)) throw new InputError('tooLarge', fieldOf(...indices));
    return;
  }
  Array.from(values).forEach((v, i) => checkNumbers(v, fieldOf, [...indices, i]));
}

// Runs compute() (an engine call) and returns its result. Products of large
// inputs can pass float32's range (q = k = 10^20 gives a score of 10^40): the
// engine then raises an Error saying which quantity is "beyond the float range"
// (its contract: every number it returns is finite), and the input is refused
// in the reader's words. The arrays named in `names` (masked scores may be
// -inf) are also checked, so that a broken contract shows as a refusal, not
// as NaN on screen.
export function withinFloatRange(compute, names = ['scores', 'scaled', 'weights', 'output']) {
  let result;
  try {
    result = compute();
  } catch (error) {
    if (/beyond the float range/.test(error?.message)) throw new InputError('overflow');
    throw error;
  }
  for (const name of names) {
    for (const x of result[name] ?? []) if (!Number.isFinite(x)) throw new InputError('overflow');
  }
  return result;
}

// The message for the reader: `t` is the section's translator (its labels,
// then common.js, whose errors.* word the problems). Other errors (a bug, not a
// typing mistake) keep their own message.
export function readerMessage(error, t) {
  if (!error) return '';
  if (error instanceof InputError) {
    return t(`errors.${error.problem}`, { field: error.field ? t(error.field.key, error.field.params) : '' });
  }
  return String(error.message ?? error);
}
