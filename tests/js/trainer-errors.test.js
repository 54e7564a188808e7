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
    const range = (name, text, value) => `${name}: expected ${text}, got ${value}`;
    const cases = [
      [undefined, TypeError, 'createTrainer: expected an options object, got undefined'],
      [{ ...good, task: 'sort' }, TypeError, "task: expected 'reverse' or 'translate', got 'sort'"],
      [{ seed: 1 }, TypeError, "task: expected 'reverse' or 'translate', got undefined"],
      [{ task: 'reverse' }, TypeError, 'seed: expected a non-negative safe integer or a BigInt, got undefined'],
      [{ ...good, seed: -1 }, TypeError, 'seed: expected a non-negative safe integer or a BigInt, got -1'],
      [{ ...good, seed: 2n ** 64n }, Error, 'seed: expected an integer from 0 to 18446744073709551615, got 18446744073709551616'],
      [{ ...good, model: 'rnn' }, TypeError, "model: expected 'attention', got 'rnn'"],
      [{ ...good, heads: 3 }, RangeError, 'heads: expected a divisor of dModel = 32, got 3'],
      [{ ...good, heads: 0 }, Error, range('heads', 'an integer from 1 to 1024', 0)],
      [{ ...good, heads: 1.5 }, TypeError, 'heads: expected an integer, got 1.5'],
      [{ ...good, dModel: 2048 }, Error, range('dModel', 'an integer from 1 to 1024', 2048)],
      [{ ...good, dModel: '64' }, TypeError, "dModel: expected an integer, got '64'"],
      [{ ...good, dModel: 2 ** 40 }, Error, range('dModel', 'an integer from 1 to 1024', 1099511627776)],
      [{ ...good, batchSize: 0 }, Error, range('batchSize', 'an integer from 1 to 4096', 0)],
      [{ ...good, scale: 0.5 }, TypeError, 'scale: expected true or false, got 0.5'],
      [{ ...good, learningRate: 0 }, Error, range('learningRate', 'a number above 0 and at most 1', 0)],
      [{ ...good, learningRate: NaN }, Error, range('learningRate', 'a number above 0 and at most 1', 'NaN')],
      // Issue 25: the value as given, not as the float it became (-0.00999999978).
      [{ ...good, learningRate: -0.01 }, Error, range('learningRate', 'a number above 0 and at most 1', -0.01)],
      // Issue 25: named itself, not weightDecay (1e30 * 0.5 >= 1), and refused rather than failing every step.
      [{ ...good, learningRate: 1e30 }, Error, range('learningRate', 'a number above 0 and at most 1', '1e+30')],
      [{ ...good, learningRate: 1e38, weightDecay: 0 }, Error, range('learningRate', 'a number above 0 and at most 1', '1e+38')],
      // Issue 25: "expected 0 or a magnitude from 1.4e-45", where 0 was refused: now one range, and what the float makes of it.
      [{ ...good, learningRate: 1e-46 }, Error, range('learningRate', 'a number above 0 and at most 1',
        '1e-46 (0 as a float, the precision the trainer computes in)')],
      [{ ...good, learningRate: '0.1' }, TypeError, "learningRate: expected a number, got '0.1'"],
      [{ ...good, weightDecay: -1 }, Error, range('weightDecay', 'a number at least 0', -1)],
      [{ ...good, weightDecay: 500 }, Error,
        'weightDecay: expected learningRate * weightDecay < 1 (learningRate 0.01, its default), got 500'],
      [{ ...good, learningRate: 0.5, weightDecay: 3 }, Error,
        'weightDecay: expected learningRate * weightDecay < 1 (learningRate 0.5), got 3'],
      [{ ...good, longRunning: 1 }, TypeError, 'longRunning: expected true or false, got 1'],
      [{ ...good, learningrate: 0.1 }, TypeError, "createTrainer: expected the options 'task', 'seed', 'model', 'heads', " +
        "'dModel', 'scale', 'learningRate', 'batchSize', 'weightDecay' or 'longRunning', got an unknown option 'learningrate'"],
    ];
    for (const [args, Type, message] of cases) {
      const error = thrown(() => e.createTrainer(args));
      expect(error, message).toBeInstanceOf(Type);
      expect(error.message).toBe(message);
    }
    // The engine still trains; a rate of 1e-45 is a float above 0, and trains.
    const trainer = e.createTrainer({ ...good, heads: 4, dModel: 16, batchSize: 8, learningRate: 0.02, weightDecay: 0 });
    expect(trainer.options).toEqual({ task: 'reverse', seed: 1, model: 'attention', heads: 4, dModel: 16, batchSize: 8,
      scale: true, learningRate: Math.fround(0.02), weightDecay: 0 });
    expect(Number.isFinite(trainer.step(2).loss)).toBe(true);
    trainer.dispose();
    const slowest = e.createTrainer({ ...good, learningRate: 1e-45 });
    expect(slowest.options.learningRate).toBe(Math.fround(1e-45));
    expect(slowest.step(3).step).toBe(3);
    slowest.dispose();
    // As fast as the range allows: it trains (a rate accepted takes its steps).
    const fastest = e.createTrainer({ ...good, learningRate: 1, weightDecay: 0 });
    expect(Number.isFinite(fastest.step(100).loss)).toBe(true);
    fastest.dispose();
  });

  it("the rules come from the core's table: every option, its kind, range and default", async () => {
    const e = await engine();
    const table = e.trainerOptions();
    expect(Object.isFrozen(table) && Object.isFrozen(table[0]) && Object.isFrozen(table[0].defaults)).toBe(true);
    const row = (name) => table.find((r) => r.name === name);
    expect(table.map((r) => r.name)).toEqual(['task', 'seed', 'model', 'heads', 'dModel', 'scale', 'learningRate',
      'batchSize', 'weightDecay']);
    expect(row('learningRate')).toMatchObject({ kind: 'number', minimum: 0, maximum: 1, minimumExcluded: true,
      required: false, models: [], tasks: [] });
    expect(row('task')).toMatchObject({ kind: 'choice', choices: ['reverse', 'translate'], required: true, defaults: [] });
    // The defaults a trainer runs with are the table's.
    const t = await createTestingEngine({ build, learning: true });
    for (const task of ['reverse', 'translate']) {
      const trainer = t.createTrainer({ task, seed: 3 });
      for (const r of table.filter((x) => !x.required)) {
        const { value } = r.defaults.find((d) => d.task === task && d.model === 'attention');
        expect(trainer.options[r.name], r.name).toBe(r.kind === 'number' ? Math.fround(value) : value);
      }
      // The parameter count is the core's (the model's layout), not a formula copied here.
      expect(trainer.parameterCount).toBe(trainer.parameters().length);
      trainer.dispose();
    }
  });

  it('a trainer whose calls could never run, or that would not fit, is refused at creation, naming createTrainer', async () => {
    const e = await engine();
    // Issue 25: accepted, and no step() could ever run.
    const huge = thrown(() => e.createTrainer({ ...good, task: 'translate', dModel: 1024, heads: 1024, batchSize: 4096 }));
    expect(huge).toBeInstanceOf(RangeError);
    expect(huge.message).toMatch(/^createTrainer: one step\(\) of this model is count\*\(.*\) = \d+ units of work, more than a call may do even with longRunning \(137438953472\): smaller dModel \(1024\), heads \(1024\) or batchSize \(4096\) need less$/);
    const wide = thrown(() => e.createTrainer({ ...good, task: 'translate', dModel: 1024, batchSize: 1024 }));
    expect(wide).toBeInstanceOf(RangeError);
    expect(wide.message).toMatch(/^createTrainer: this trainer needs [\d.]+ MiB of WebAssembly memory, of the 256\.0 MiB the trainers of one engine may hold: smaller dModel \(1024\) or batchSize \(1024\) need less$/);
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
    expect(trainer.stepsTaken).toBe(3);
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
