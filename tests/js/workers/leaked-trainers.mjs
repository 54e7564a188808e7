// Run by tests/js/trainer-finalization.test.js with node --expose-gc: makes
// trainers and drops them without dispose() (or, with 'keep', keeps them),
// collecting garbage between them, and prints the wasm memory size before and
// after, in bytes, as JSON.
import { createTestingEngine } from '../../../web/src/engine/testing.js';

const engine = await createTestingEngine({ build: 'simd', learning: true });
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
const kept = [];
const leak = () => {
  const trainer = engine.createTrainer({ task: 'reverse', seed: 1, dModel: 256, heads: 4 });
  trainer.step(1);
  if (process.argv[3] === 'keep') kept.push(trainer);
};
leak();
for (let i = 0; i < 3; i++) {
  globalThis.gc();
  await turn();
}
const before = engine.boundaryState().memoryBytes;
const count = Number(process.argv[2] ?? 40);
for (let i = 0; i < count; i++) {
  leak();
  globalThis.gc();
  await turn();
}
process.stdout.write(JSON.stringify({ before, after: engine.boundaryState().memoryBytes }));
