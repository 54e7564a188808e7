// createTrainer and the trainer's methods refuse bad input with an error that
// names the argument, what was expected and what was given; a disposed trainer
// says so; nothing is left allocated by a refused call and the engine keeps
// working (the boundary and soak tests count that over many calls).
import { describe, it, expect } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { createTestingEngine } from '../../web/src/engine/testing.js';
import { thrown } from './engine-helpers.js';

const good = { task: 'reverse', seed: 1 };

describe.each(['simd', 'baseline'])('trainer errors (%s build)', (build) => {
  const engine = () => createAttention({ build, learning: true });

  it('bad options: each a named error, before or from the core', async () => {
    const e = await engine();
    const cases = [
      [undefined, TypeError, 'createTrainer: expected an options object, got undefined'],
      [{ ...good, task: 'sort' }, TypeError, "task: expected 'reverse' or 'translate', got 'sort'"],
      [{ seed: 1 }, TypeError, "task: expected 'reverse' or 'translate', got undefined"],
      [{ task: 'reverse' }, TypeError, 'seed: expected a non-negative safe integer or a BigInt, got undefined'],
      [{ ...good, seed: -1 }, TypeError, 'seed: expected a non-negative safe integer or a BigInt, got -1'],
      [{ ...good, seed: 2n ** 64n }, RangeError, 'seed: expected 0 <= seed < 2^64, got 18446744073709551616'],
      [{ ...good, heads: 3 }, RangeError, 'heads: expected a divisor of d_model = 32, got 3'],
      [{ ...good, heads: 0 }, Error, 'heads: expected 1 to 32, got 0'],
      [{ ...good, heads: 1.5 }, TypeError, 'heads: expected a non-negative integer, got 1.5'],
      [{ ...good, dModel: 2048 }, Error, 'dModel: expected 1 to 1024, got 2048'],
      [{ ...good, dModel: '64' }, TypeError, "dModel: expected a non-negative integer, got '64'"],
      [{ ...good, dModel: 2 ** 32 }, RangeError, 'dModel: expected an integer from 0 to 4294967295, got 4294967296'],
      [{ ...good, batchSize: 0 }, Error, 'batchSize: expected 1 to 4096, got 0'],
      [{ ...good, scale: 0.5 }, TypeError, 'scale: expected true or false, got 0.5'],
      [{ ...good, learningRate: 0 }, Error, 'learningRate: expected a finite number > 0, got 0'],
      [{ ...good, learningRate: NaN }, Error, 'learningRate: expected a finite number > 0, got NaN'],
      [{ ...good, learningRate: 1e39 }, Error,
        'learningRate: expected 0 or a magnitude from 1.40129846e-45 to 3.40282347e+38 (a float), got 1e+39'],
      [{ ...good, learningRate: '0.1' }, TypeError, "learningRate: expected a number, got '0.1'"],
      [{ ...good, weightDecay: -1 }, Error, 'weightDecay: expected a number >= 0 with learning_rate * weight_decay < 1, got -1'],
      [{ ...good, weightDecay: 500 }, Error, 'weightDecay: expected a number >= 0 with learning_rate * weight_decay < 1, got 500'],
      [{ ...good, longRunning: 1 }, TypeError, 'longRunning: expected true or false, got 1'],
      [{ ...good, learningrate: 0.1 }, TypeError, "createTrainer: expected the options 'task', 'seed', 'heads', 'dModel', " +
        "'scale', 'learningRate', 'batchSize', 'weightDecay' or 'longRunning', got an unknown option 'learningrate'"],
    ];
    for (const [args, Type, message] of cases) {
      const error = thrown(() => e.createTrainer(args));
      expect(error, message).toBeInstanceOf(Type);
      expect(error.message).toBe(message);
    }
    // The engine still trains.
    const trainer = e.createTrainer({ ...good, heads: 4, dModel: 16, batchSize: 8, learningRate: 0.02, weightDecay: 0 });
    expect(trainer.options).toEqual({ task: 'reverse', seed: 1, heads: 4, dModel: 16, batchSize: 8, scale: true,
      learningRate: Math.fround(0.02), weightDecay: 0 });
    expect(Number.isFinite(trainer.step(2).loss)).toBe(true);
    trainer.dispose();
  });

  it('step, evaluate and translate: bad arguments are named', async () => {
    const e = await engine();
    const trainer = e.createTrainer({ task: 'translate', seed: 2 });
    const cases = [
      [() => trainer.step(0), RangeError, 'count: expected at least 1, got 0'],
      [() => trainer.step(-1), RangeError, 'count: expected an integer from 0 to 4294967295, got -1'],
      [() => trainer.step('10'), TypeError, "count: expected a non-negative integer, got '10'"],
      [() => trainer.step(NaN), TypeError, 'count: expected a non-negative integer, got NaN'],
      [() => trainer.step(1, { longRunning: 'yes' }), TypeError, "longRunning: expected true or false, got 'yes'"],
      [() => trainer.step(1, 5), TypeError, 'options: expected an options object, got 5'],
      [() => trainer.evaluate(5), TypeError, 'options: expected an options object, got 5'],
      [() => trainer.translate(42), TypeError, 'sentence: expected a string, got 42'],
      [() => trainer.translate('a'.repeat(1001)), RangeError, 'sentence: expected at most 1000 characters, got 1001'],
      [() => trainer.translate('the cat reads a book'), Error,
        `sentence: unknown word "cat"; the vocabulary is: ${trainer.vocabulary.source.join(', ')}`],
      [() => trainer.translate('the young student reads a book'), Error, 'sentence: expected 6 tokens in the pattern: ' +
        `${trainer.vocabulary.pattern}; got "the young student reads a book"`],
    ];
    for (const [call, Type, message] of cases) {
      const error = thrown(call);
      expect(error, message).toBeInstanceOf(Type);
      expect(error.message).toBe(message);
    }
    // Nothing above trained: the first step is still step 1.
    expect(trainer.step().step).toBe(1);
    trainer.dispose();
  });

  it('a disposed trainer throws an Error naming the call; dispose() twice does nothing', async () => {
    const e = await engine();
    const trainer = e.createTrainer(good);
    trainer.step(3);
    expect(trainer.disposed).toBe(false);
    trainer.dispose();
    expect(trainer.disposed).toBe(true);
    trainer.dispose();
    for (const [name, call] of [['step', () => trainer.step()], ['evaluate', () => trainer.evaluate()],
      ['probe', () => trainer.probe()], ['translate', () => trainer.translate('12345678')]]) {
      expect(call).toThrow(new Error(`trainer.${name}: this trainer was disposed (dispose() freed its memory); ` +
        'create another with createTrainer()'));
    }
    // What was read at creation stays readable.
    expect(trainer.vocabulary.source).toHaveLength(10);
    expect(trainer.options.task).toBe('reverse');
  });

  it("a trainer's descriptions are frozen copies: changing them is refused and changes nothing", async () => {
    const e = await engine();
    const trainer = e.createTrainer({ task: 'translate', seed: 1 });
    expect(Object.isFrozen(trainer)).toBe(true);
    for (const frozen of [trainer.options, trainer.vocabulary, trainer.vocabulary.source, trainer.vocabulary.groups,
      trainer.vocabulary.groups[0], trainer.vocabulary.groups[0].words, trainer.alignment]) {
      expect(Object.isFrozen(frozen)).toBe(true);
    }
    expect(() => { trainer.vocabulary.groups[0].words.push('cat'); }).toThrow(TypeError);
    expect(() => trainer.translate('the young cat reads an old book in the library')).toThrow(/unknown word "cat"/);
    trainer.dispose();
  });
});

describe('trainers leave nothing behind', () => {
  it('500 trainers created, stepped and disposed: the stack, the handles and the memory as they were', async () => {
    const t = await createTestingEngine({ build: 'simd', learning: true });
    const once = () => {
      const trainer = t.createTrainer({ task: 'translate', seed: 9 });
      const loss = trainer.step(2).loss;
      trainer.probe();
      trainer.dispose();
      return loss;
    };
    const first = once();
    const before = t.boundaryState();
    for (let i = 0; i < 500; i++) expect(once()).toBe(first);
    expect(t.boundaryState()).toEqual(before);
  });
});
