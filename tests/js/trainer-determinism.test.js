// The trainer is deterministic: the same seed and options give the same
// losses, evaluation and attention weights bit for bit (one build, one thread,
// fixed summation orders); another seed, or another option, gives other
// numbers. Training one trainer does not change another's numbers (each owns
// its weights, optimizer state and batch stream).
import { describe, it, expect } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';

// Losses of `steps` single steps, then the evaluation and the probe's weights.
function run(engine, options, steps = 12) {
  const trainer = engine.createTrainer(options);
  try {
    const losses = Array.from({ length: steps }, () => trainer.step().loss);
    return { losses, evaluation: trainer.evaluate(), weights: Array.from(trainer.probe().weights) };
  } finally {
    trainer.dispose();
  }
}

describe.each(['simd', 'baseline'])('trainer determinism (%s build)', (build) => {
  const engine = () => createAttention({ build, learning: true });

  it.each(['reverse', 'translate'])('%s: the same seed gives the same losses, evaluation and weights bit for bit', async (task) => {
    const e = await engine();
    const first = run(e, { task, seed: 3 });
    const second = run(e, { task, seed: 3 });
    expect(second).toEqual(first);
    expect(new Set(first.losses).size).toBe(first.losses.length);  // the loss moves every step
    // step(12) at once is the same as twelve step(1) calls.
    const trainer = e.createTrainer({ task, seed: 3 });
    expect(trainer.step(12)).toEqual({ step: 12, loss: first.losses[11] });
    trainer.dispose();
  });

  it.each(['reverse', 'translate'])('%s: another seed, another option: other numbers', async (task) => {
    const e = await engine();
    const base = run(e, { task, seed: 3 }, 4);
    expect(run(e, { task, seed: 4 }, 4).losses).not.toEqual(base.losses);
    expect(run(e, { task, seed: 2n ** 40n + 3n }, 4).losses).not.toEqual(base.losses);  // the high half counts
    expect(run(e, { task, seed: 3, scale: false }, 4).losses).not.toEqual(base.losses);
    expect(run(e, { task, seed: 3, heads: 4 }, 4).losses).not.toEqual(base.losses);
    expect(run(e, { task, seed: 3, learningRate: 0.02 }, 4).losses.slice(1)).not.toEqual(base.losses.slice(1));
    // The first loss is the untrained model's on the first batch: the learning rate does not change it.
    expect(run(e, { task, seed: 3, learningRate: 0.02 }, 1).losses[0]).toBe(base.losses[0]);
  });

  it('two trainers stepped in turn give what each gives alone', async () => {
    const e = await engine();
    const alone = [run(e, { task: 'reverse', seed: 5 }, 6).losses, run(e, { task: 'translate', seed: 6 }, 6).losses];
    const a = e.createTrainer({ task: 'reverse', seed: 5 });
    const b = e.createTrainer({ task: 'translate', seed: 6 });
    const together = [[], []];
    for (let i = 0; i < 6; i++) {
      together[0].push(a.step().loss);
      b.probe();
      together[1].push(b.step().loss);
      a.evaluate();
    }
    a.dispose();
    b.dispose();
    expect(together).toEqual(alone);
  });
});
