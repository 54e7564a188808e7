// The model engine's models through the trainer's API (issue 22), on the real
// .wasm in Node: each trains (its loss falls in a few steps: the convergence
// targets are measured natively and by the benchmark, not here), the same seed
// gives the same numbers bit for bit within a build, decoding with the cache
// gives what recomputing gives, every attention map has its shape and rows
// that sum to 1, headScores reads a decoder's heads, ablating heads changes an
// evaluation, and bad input is named. Small models where the test is about
// shapes and equality, the defaults where it is about training.
import { describe, expect, it } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { createTestingEngine } from '../../web/src/engine/testing.js';
import { thrown } from './engine-helpers.js';

const BUILDS = ['simd', 'baseline'];
const learning = (build) => createAttention({ build, learning: true });

// Each model of the engine once, on a task it learns, with an option that is not its default.
const MODELS = [
  ['reverse', 'rnn', {}],
  ['translate', 'bahdanau', {}],
  ['reverse', 'luong', { score: 'general', window: 'local' }],
  ['translate', 'luong', { score: 'concat', inputFeeding: false }],
  ['translate', 'transformer', { positions: 'learned' }],
  ['reverse', 'decoder', { layers: 1 }],
  ['induction', 'decoder', { attentionOnly: true }],
];
const label = ([task, model, extra]) => `${model} on ${task} ${JSON.stringify(extra)}`;

// The largest |a[i] - b[i]| of two arrays of the same length.
const largestDifference = (a, b) => {
  expect(a.length).toBe(b.length);
  return a.reduce((worst, x, i) => Math.max(worst, Math.abs(x - b[i])), 0);
};

// Each row's sum of every head of every map.
const rowSums = (map) => map.heads.flatMap((weights) => Array.from({ length: map.rows },
  (_, r) => weights.subarray(r * map.cols, (r + 1) * map.cols).reduce((sum, w) => sum + w, 0)));

describe('each engine model trains: its loss falls in six steps (default options, SIMD build)', () => {
  it.each(MODELS)('%s %s %o', async (task, model, extra) => {
    const trainer = (await learning('simd')).createTrainer({ task, seed: 1, model, ...extra, longRunning: true });
    const losses = Array.from({ length: 6 }, () => trainer.step().loss);
    trainer.dispose();
    expect(losses.every(Number.isFinite), String(losses)).toBe(true);
    // The last two steps' mean at least 5% below the first step's loss (the initial model's, on its batch).
    expect((losses[4] + losses[5]) / 2, String(losses)).toBeLessThan(0.95 * losses[0]);
  });
});

describe.each(BUILDS)('the same seed, the same numbers bit for bit (%s build)', (build) => {
  it.each(MODELS)('%s %s %o: losses, parameters, evaluation and generation', async (task, model, extra) => {
    const t = await createTestingEngine({ build, learning: true });
    const options = { task, seed: 5, model, dModel: 16, batchSize: 8, ...extra, longRunning: true };
    const [a, b] = [t.createTrainer(options), t.createTrainer(options)];
    // In turn, so that neither runs on what the other left in the module's memory.
    for (let i = 0; i < 3; i++) expect(b.step().loss).toBe(a.step().loss);
    expect(b.parameters()).toEqual(a.parameters());
    expect(b.generate()).toEqual(a.generate());
    const other = t.createTrainer({ ...options, seed: 6 });
    expect(other.step().loss).not.toBe(t.createTrainer(options).step().loss);
    for (const trainer of [a, b, other]) trainer.dispose();
  });
});

describe.each(BUILDS)('generate: with the cache and recomputing, the same tokens and weights within 1e-5 (%s build)', (build) => {
  it.each(MODELS)('%s %s %o', async (task, model, extra) => {
    const trainer = (await learning(build)).createTrainer({ task, seed: 1, model, dModel: 32, ...extra, longRunning: true });
    trainer.step(5);
    const typed = { reverse: '9 8 7 1 2 3 5 5', translate: 'a happy farmer ate a red apple in the kitchen', induction: 'q r s q r' }[task];
    for (const sentence of [undefined, typed]) {
      const cached = trainer.generate(sentence), recomputed = trainer.generate(sentence, { cache: false });
      expect(recomputed.tokens).toEqual(cached.tokens);
      expect(recomputed.source).toEqual(cached.source);
      expect(cached.steps.length).toBeGreaterThan(0);
      expect(cached.steps.filter((s) => !s.end).map((s) => s.token)).toEqual(cached.tokens);
      let worst = 0;
      cached.steps.forEach((step, i) => {
        const again = recomputed.steps[i];
        expect([again.token, again.end]).toEqual([step.token, step.end]);
        expect(again.weights.map((m) => [m.kind, m.layer, m.rows, m.cols])).toEqual(step.weights.map((m) => [m.kind, m.layer, m.rows, m.cols]));
        step.weights.forEach((map, j) => {
          // One row per step; with the cache, a transformer's self-attention reads every row it holds.
          expect(map.rows).toBe(1);
          if (map.kind === 'decoder-self') expect(map.cols).toBe(step.cacheLength);
          if (map.kind === 'cross') expect(map.cols).toBe(cached.source.length);
          map.heads.forEach((weights, h) => { worst = Math.max(worst, largestDifference(weights, again.weights[j].heads[h])); });
        });
      });
      expect(worst, `${sentence}: the largest weight difference`).toBeLessThanOrEqual(1e-5);
    }
    trainer.dispose();
  });
});

describe('probe and translate: every attention map, its shape and its rows', () => {
  // The maps each model has: [kind, layer], and each one's rows x cols for a source of S and a target of T words.
  const expectedMaps = (model, options, S, T) => {
    const L = options.layers;
    const cross = (layer) => ['cross', layer, T + 1, S];   // the target's positions and its end, on the source
    if (model === 'rnn') return [];
    if (model === 'bahdanau' || model === 'luong') return [cross(0)];
    if (model === 'decoder') return Array.from({ length: L }, (_, l) => ['decoder-self', l, S + 1 + T, S + 1 + T]);
    return [...Array.from({ length: L }, (_, l) => ['encoder-self', l, S, S]),
      ...Array.from({ length: L }, (_, l) => [['decoder-self', l, T + 1, T + 1], cross(l)]).flat()];
  };

  it.each(MODELS)('%s %s %o', async (task, model, extra) => {
    const trainer = (await learning('simd')).createTrainer({ task, seed: 2, model, dModel: 16, ...extra, longRunning: true });
    trainer.step(3);
    const typed = { reverse: '0 1 2 3 4 5 6 7', translate: 'the busy doctor quickly wrote a long letter', induction: 'a b c a b' }[task];
    const probe = trainer.probe();
    for (const reading of [probe, trainer.translate(typed)]) {
      const S = reading.source.length, T = reading.target.length;
      expect(reading.layers.map((m) => [m.kind, m.layer, m.rows, m.cols]), `${S} x ${T}`)
        .toEqual(expectedMaps(model, trainer.options, S, T));
      for (const map of reading.layers) {
        expect(map.heads).toHaveLength(trainer.options.heads ?? 1);
        for (const weights of map.heads) expect(weights.length).toBe(map.rows * map.cols);
        const sums = rowSums(map);
        if (trainer.options.window === 'local') {
          // Luong's local-p: the weights times a Gaussian around p_t (each row at most 1), p_t in [0, S].
          expect(sums.every((s) => s >= 0 && s <= 1 + 1e-5), String(sums)).toBe(true);
          expect(map.positions).toHaveLength(map.rows);
          expect(map.positions.every((p) => p >= 0 && p <= S), String(map.positions)).toBe(true);
        } else {
          expect(sums.every((s) => Math.abs(s - 1) <= 1e-5), `${map.kind} ${map.layer}: ${sums}`).toBe(true);
          expect(map.positions).toBeUndefined();
        }
      }
      // The reference alignment: a source position or -1 (a particle) per target position of the
      // reference translation (translate's target is the model's own output, of its own length).
      if (reading === probe) expect(reading.reference).toHaveLength(T);
      expect(reading.reference.every((s) => Number.isInteger(s) && s >= -1 && s < Math.max(S, 1))).toBe(true);
      expect(reading.weights.length).toBe(model === 'rnn' || task === 'induction' ? 0 : T * S);
    }
    expect(trainer.probe().reference).toEqual(trainer.alignment);
    trainer.dispose();
  });

  it("a typed sentence's reference follows the sentence (translate: each content word's source, -1 for a particle)", async () => {
    const trainer = (await learning('simd')).createTrainer({ task: 'translate', seed: 1, model: 'bahdanau', dModel: 16 });
    const short = trainer.translate('the student reads a book'), long = trainer.translate('the young student quietly reads an old book');
    expect(short.source).toEqual(['the', 'student', 'reads', 'a', 'book']);
    // The subject's particle has no source word; a longer subject moves every later reference.
    expect(short.reference.filter((s) => s >= 0).sort()).not.toEqual(long.reference.filter((s) => s >= 0).sort());
    expect(short.reference).toContain(-1);
    trainer.dispose();
  });
});

describe('headScores: the heads of a decoder', () => {
  it('one score pair per layer and head, each a mean weight in [0, 1]; an Error for the other models', async () => {
    const e = await learning('simd');
    const decoder = e.createTrainer({ task: 'induction', seed: 1, model: 'decoder', dModel: 16, heads: 2, layers: 2, attentionOnly: true });
    decoder.step(2);
    const scores = decoder.headScores();
    expect(scores.map(({ layer, head }) => [layer, head])).toEqual([[0, 0], [0, 1], [1, 0], [1, 1]]);
    for (const s of scores) {
      expect(s.previousToken >= 0 && s.previousToken <= 1 && s.prefixMatch >= 0 && s.prefixMatch <= 1, JSON.stringify(s)).toBe(true);
    }
    expect(decoder.headScores()).toEqual(scores);   // a reading: it changes nothing
    decoder.dispose();
    const transformer = e.createTrainer({ task: 'reverse', seed: 1, model: 'transformer', dModel: 16 });
    expect(() => transformer.headScores()).toThrow(
      new Error("model: headScores() reads the heads of a decoder-only model ('decoder'), got another model"));
    transformer.dispose();
    const attention = e.createTrainer({ task: 'reverse', seed: 1 });
    expect(() => attention.headScores()).toThrow(new Error("headScores: model 'attention' reads every target position " +
      "at once (its queries are positions); headScores is for the engine's models ('rnn', 'bahdanau', 'luong', " +
      "'transformer', 'decoder')"));
    expect(() => attention.generate()).toThrow(/^generate: model 'attention' reads every target position at once/);
    expect(attention.step().step).toBe(1);   // it keeps working
    attention.dispose();
  });
});

describe('evaluate: free-running accuracy, and heads ablated', () => {
  it('a transformer with heads ablated evaluates differently, and whole again after; a bad head is named', async () => {
    const e = await learning('simd');
    const trainer = e.createTrainer({ task: 'reverse', seed: 1, model: 'transformer', dModel: 16, heads: 2, sourceLength: 4 });
    trainer.step(20);
    const whole = trainer.evaluate();
    for (const key of ['accuracy', 'generatedAccuracy', 'sequenceAccuracy']) {
      expect(whole[key] >= 0 && whole[key] <= 1, `${key} ${whole[key]}`).toBe(true);
    }
    // Every cross-attention head of the last layer zeroed: the decoder reads the source through the first layer only.
    const ablated = trainer.evaluate({ ablate: [{ kind: 'cross', layer: 1, head: 0 }, { kind: 'cross', layer: 1, head: 1 }] });
    expect(ablated.loss).not.toBe(whole.loss);
    const encoderHead = trainer.evaluate({ ablate: [{ kind: 'encoder-self', layer: 0, head: 1 }] });
    expect(encoderHead.loss).not.toBe(whole.loss);
    expect(encoderHead.loss).not.toBe(ablated.loss);
    const cases = [
      [{ ablate: [{ kind: 'cross', layer: 2, head: 0 }] }, Error, 'ablate[0].layer: expected below 2, got 2'],
      [{ ablate: [{ kind: 'cross', layer: 0, head: 0 }, { kind: 'cross', layer: 0, head: 2 }] }, Error,
        'ablate[1].head: expected below 2, got 2'],
      [{ ablate: [{ kind: 'self', layer: 0, head: 0 }] }, Error,
        "ablate[0].kind: expected 'encoder-self', 'decoder-self' or 'cross', got 'self'"],
      [{ ablate: [{ layer: 0, head: 0 }] }, Error, "ablate[0].kind: expected 'encoder-self', 'decoder-self' or 'cross', got none"],
      [{ ablate: [{ kind: 'cross', layer: '0', head: 0 }] }, TypeError, "ablate[0].layer: expected a non-negative integer, got '0'"],
      [{ ablate: [{ kind: 'cross', layer: 0, head: -1 }] }, RangeError, 'ablate[0].head: expected an integer from 0 to 4294967295, got -1'],
      [{ ablate: [{ kind: 'cross', layer: 0 }] }, TypeError, 'ablate[0].head: expected a non-negative integer, got undefined'],
      [{ ablate: [{ kind: 0, layer: 0, head: 0 }] }, TypeError, 'ablate[0].kind: expected a string, got 0'],
      [{ ablate: [{ kind: 'cross', layer: 0, head: 0, heads: 1 }] }, TypeError,
        "ablate[0]: expected { layer, head, kind? }, got an unknown key 'heads'"],
      [{ ablate: [null] }, TypeError, 'ablate[0]: expected { layer, head, kind? }, got null'],
      [{ ablate: { layer: 0, head: 0 } }, TypeError, 'ablate: expected an Array of { layer, head, kind? }, got an Object'],
      [{ ablate: new Array(4097) }, RangeError, 'ablate: expected at most 4096 heads, got 4097'],
    ];
    for (const [options, Type, message] of cases) {
      const error = thrown(() => trainer.evaluate(options));
      expect(error, message).toBeInstanceOf(Type);
      expect(error.message).toBe(message);
    }
    // Nothing stays ablated: the whole model evaluates as before, bit for bit.
    expect(trainer.evaluate()).toEqual(whole);
    trainer.dispose();
  });

  it("a decoder's heads need no kind; the models without heads say so; the 'attention' model's free-running accuracy is its accuracy", async () => {
    const e = await learning('simd');
    const decoder = e.createTrainer({ task: 'reverse', seed: 1, model: 'decoder', dModel: 16, heads: 2, sourceLength: 4 });
    decoder.step(5);
    expect(decoder.evaluate({ ablate: [{ layer: 1, head: 0 }] }).loss).not.toBe(decoder.evaluate().loss);
    expect(() => decoder.evaluate({ ablate: [{ kind: 'cross', layer: 0, head: 0 }] })).toThrow(
      new Error("ablate[0].kind: expected 'decoder-self' (a decoder-only model's one kind), got 'cross'"));
    decoder.dispose();
    const bahdanau = e.createTrainer({ task: 'reverse', seed: 1, model: 'bahdanau', dModel: 8, sourceLength: 4 });
    expect(() => bahdanau.evaluate({ ablate: [{ layer: 0, head: 0 }] })).toThrow(new Error("ablate[0]: model 'bahdanau' " +
      'has no heads to ablate (its attention is one score; the transformers have heads)'));
    bahdanau.dispose();
    const attention = e.createTrainer({ task: 'translate', seed: 1 });
    expect(() => attention.evaluate({ ablate: [{ layer: 0, head: 0 }] })).toThrow(
      new Error("ablate: model 'attention' is evaluated whole; ablating heads is for the transformers"));
    attention.step(5);
    const evaluation = attention.evaluate({ ablate: [] });
    expect(evaluation.generatedAccuracy).toBe(evaluation.accuracy);
    // sequenceAccuracy counts whole sentences: a multiple of 1 / heldOut.
    expect(Number.isInteger(Math.round(evaluation.sequenceAccuracy * attention.heldOut * 1e6) / 1e6)).toBe(true);
    attention.dispose();
  });
});

describe('evaluate on part of the held-out set, and the alignment against the reference', () => {
  it('examples: the first n held-out examples, the same numbers as a model evaluated on them alone; bad counts named', async () => {
    const e = await learning('simd');
    const trainer = e.createTrainer({ task: 'reverse', seed: 2, model: 'bahdanau', dModel: 8, sourceLength: 4 });
    trainer.step(30);
    const one = trainer.evaluate({ examples: 1 });
    // One example of 4 digits: accuracy is a multiple of 1/4, sequenceAccuracy 0 or 1.
    expect(Number.isInteger(one.generatedAccuracy * 4)).toBe(true);
    expect([0, 1]).toContain(one.sequenceAccuracy);
    const all = trainer.evaluate();
    expect(trainer.evaluate({ examples: trainer.heldOut })).toEqual(all);
    expect(trainer.evaluate({ examples: 1e6 })).toEqual(all);
    const some = trainer.evaluate({ examples: 64 });
    expect(some.loss).not.toBe(all.loss);
    expect(thrown(() => trainer.evaluate({ examples: 0 })).message).toBe('examples: expected at least 1, got 0');
    expect(thrown(() => trainer.evaluate({ examples: 1.5 })).message).toBe('examples: expected a non-negative integer, got 1.5');
    trainer.dispose();
  });

  it("alignmentAgreement: a trained bahdanau's attention finds the reference's word; rnn has none to find", async () => {
    const e = await learning('simd');
    const trainer = e.createTrainer({ task: 'translate', seed: 1, model: 'bahdanau', dModel: 16 });
    const before = trainer.alignmentAgreement(32);
    expect(before.examples).toBe(32);
    expect(before.positions).toBeGreaterThan(32);  // each sentence has several content words
    trainer.step(300, { longRunning: true });
    const after = trainer.alignmentAgreement(32);
    expect(after.positions).toBe(before.positions);
    // Untrained, about one source word in the sentence's ~8 by chance; trained, most.
    expect(before.agreement).toBeLessThan(0.5);
    expect(after.agreement).toBeGreaterThan(0.7);
    trainer.dispose();
    const rnn = e.createTrainer({ task: 'translate', seed: 1, model: 'rnn', dModel: 8 });
    expect(rnn.alignmentAgreement(4)).toEqual({ agreement: 0, oneRight: 0, positions: 0, examples: 0 });
    rnn.dispose();
  });
});

describe('bad input to the engine models is named, and the trainer keeps working', () => {
  it('unknown words, an empty sentence, a sentence of the wrong type, a bad cache option', async () => {
    const e = await learning('simd');
    const trainer = e.createTrainer({ task: 'translate', seed: 1, model: 'bahdanau', dModel: 16 });
    const vocabulary = trainer.vocabulary.source.join(', ');
    const cases = [
      [() => trainer.translate('the young student reads the cat and the dog'), Error,
        `sentence: unknown words "cat", "and", "dog"; the vocabulary is: ${vocabulary}`],
      [() => trainer.generate('a happy cat eats'), Error, `sentence: unknown word "cat"; the vocabulary is: ${vocabulary}`],
      [() => trainer.generate(''), RangeError, "sentence: expected a sentence, got '' (omit it for the probe's)"],
      [() => trainer.generate(7), TypeError, 'sentence: expected a string, got 7'],
      [() => trainer.generate(null), TypeError, 'sentence: expected a string, got null'],
      [() => trainer.generate('a'.repeat(1001)), RangeError, 'sentence: expected at most 1000 characters, got 1001'],
      [() => trainer.generate(undefined, { cache: 'no' }), TypeError, "cache: expected true or false, got 'no'"],
      [() => trainer.generate(undefined, 5), TypeError, 'options: expected an options object, got 5'],
      [() => trainer.headScores(5), TypeError, 'options: expected an options object, got 5'],
      [() => trainer.probe({ longRunning: 1 }), TypeError, 'longRunning: expected true or false, got 1'],
    ];
    for (const [call, Type, message] of cases) {
      const error = thrown(call);
      expect(error, message).toBeInstanceOf(Type);
      expect(error.message).toBe(message);
    }
    expect(trainer.step().step).toBe(1);
    expect(trainer.generate('a happy farmer eats a red apple').source).toEqual(['a', 'happy', 'farmer', 'eats', 'a', 'red', 'apple']);
    trainer.dispose();
    const reverse = e.createTrainer({ task: 'reverse', seed: 1, model: 'rnn', dModel: 8 });
    expect(() => reverse.generate('1 2 x')).toThrow(/^sentence: unknown character "x"; the vocabulary is: 0, 1, 2/);
    reverse.dispose();
    for (const name of ['generate', 'headScores']) {
      expect(() => reverse[name]()).toThrow(new Error(`trainer.${name}: this trainer was disposed (dispose() freed its ` +
        'memory); create another with createTrainer()'));
    }
  });
});
