// The trainer learns both tasks with the default options, as issue 8 asks:
// held-out token accuracy >= 0.98 (reverse) and >= 0.95 (translate), and on
// the probe example the largest averaged weight of every target position on
// the source position it translates (trainer.alignment), within a bounded
// number of steps. The bound: natively, over seeds 1..100, reverse needs at
// most 80 steps and translate a median of 50 (cpp/src/training/README.md);
// here seeds 1..10, checked every 10 steps, within 200. Then the trained model
// translates typed sentences, checked against the grammar written out here.
import { describe, it, expect } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';

const TARGETS = { reverse: 0.98, translate: 0.95 };
const MAX_STEPS = 200;

const alignedOn = (reading, alignment) => reading.strongestSources.every((s, t) => s === alignment[t]);

describe.each(['simd', 'baseline'])('the trainer learns (%s build)', (build) => {
  const engine = () => createAttention({ build, learning: true });

  it.each(Object.keys(TARGETS))('%s, seeds 1..10: the accuracy target and the probe alignment within 200 steps', async (task) => {
    const e = await engine();
    const reached = [];
    for (let seed = 1; seed <= 10; seed++) {
      const trainer = e.createTrainer({ task, seed });
      let steps = null;
      for (let taken = 10; taken <= MAX_STEPS && steps === null; taken += 10) {
        expect(trainer.step(10).step).toBe(taken);
        const { accuracy } = trainer.evaluate();
        if (accuracy >= TARGETS[task] && alignedOn(trainer.probe(), trainer.alignment)) steps = taken;
      }
      reached.push([seed, steps]);
      trainer.dispose();
    }
    expect(reached.filter(([, steps]) => steps === null), `seeds that did not reach the targets: ${reached}`).toEqual([]);
  });

  it('reverse: a trained model reverses typed digits and looks at the mirrored position', async () => {
    const e = await engine();
    const trainer = e.createTrainer({ task: 'reverse', seed: 1 });
    trainer.step(150);
    expect(trainer.alignment).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
    for (const digits of ['31459268', '0 0 7 7 1 2 9 9', '98765432']) {
      const source = digits.replace(/ /g, '').split('');
      const reading = trainer.translate(digits);
      expect(reading.source).toEqual(source);
      expect(reading.predicted, digits).toEqual([...source].reverse());
      expect(reading.target).toEqual(reading.predicted);
      expect(reading.weights).toHaveLength(8 * 8);
      expect(reading.headWeights).toHaveLength(trainer.options.heads);
    }
    const probe = trainer.probe();
    expect(probe.predicted).toEqual(probe.target);
    expect(probe.target).toEqual([...probe.source].reverse());
    expect(alignedOn(probe, trainer.alignment)).toBe(true);
    trainer.dispose();
  });

  it('translate: a trained model translates typed sentences (SVO -> SOV), each Korean word from its English word', async () => {
    const e = await engine();
    const trainer = e.createTrainer({ task: 'translate', seed: 1 });
    trainer.step(200);
    // The grammar's words, written out here (task_translate.cpp is the core's copy).
    const korean = {
      'the kind': '착한', 'a busy': '바쁜', 'the young': '젊은', teacher: '선생님이', farmer: '농부가', girl: '소녀가',
      eats: '먹는다', sings: '부른다', reads: '읽는다', 'a sweet': '달콤한', 'the famous': '유명한', 'an old': '오래된',
      apple: '사과를', song: '노래를', letter: '편지를', 'in the kitchen': '부엌에서', 'in the park': '공원에서',
      'in the school': '학교에서',
    };
    for (const sentence of ['The kind teacher eats a sweet apple in the kitchen.', 'a busy farmer sings the famous song in the park',
      'The young girl reads an old letter in the school!']) {
      const reading = trainer.translate(sentence);
      expect(reading.source).toHaveLength(6);
      // Korean order: adjective, subject, place, adjective, object, verb = English tokens 0, 1, 5, 3, 4, 2.
      expect(reading.predicted, sentence).toEqual(trainer.alignment.map((s) => korean[reading.source[s]]));
    }
    expect(trainer.alignment).toEqual([0, 1, 5, 3, 4, 2]);
    const probe = trainer.probe();
    expect(probe.source).toEqual(['the young', 'student', 'reads', 'an old', 'book', 'in the library']);
    expect(probe.target).toEqual(['젊은', '학생이', '도서관에서', '오래된', '책을', '읽는다']);
    expect(probe.predicted).toEqual(probe.target);
    expect(alignedOn(probe, trainer.alignment)).toBe(true);
    // Weights: T x S rows of a softmax, and their mean over the heads.
    for (let t = 0; t < 6; t++) {
      const row = probe.weights.subarray(t * 6, t * 6 + 6);
      expect(Math.abs(row.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-5);
      for (let s = 0; s < 6; s++) {
        const mean = probe.headWeights.reduce((sum, head) => sum + head[t * 6 + s], 0) / probe.headWeights.length;
        expect(Math.abs(row[s] - mean)).toBeLessThan(1e-6);
      }
    }
    const { accuracy, loss } = trainer.evaluate();
    expect(accuracy).toBeGreaterThanOrEqual(0.95);
    expect(loss).toBeLessThan(0.2);
    trainer.dispose();
  });
});
