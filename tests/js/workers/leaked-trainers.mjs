// Run by tests/js/trainer-finalization.test.js with node --expose-gc: trainers
// made and never disposed, in three ways (argv[2]), and what they left, as JSON
// (bytes of wasm memory, the engine's count of live trainers):
//   dropped N   N trainers of dModel 256, each dropped and garbage collected
//   kept        trainers of dModel 256 kept until createTrainer refuses; then
//               all dropped and collected, and one more made
//   loop N      the loop: createTrainer({ task: 'translate', seed: i })
//               .step(1), N times, never disposed, no pause for a collection
import { createTestingEngine } from '../../../web/src/engine/testing.js';
import { liveTrainers } from '../../../web/src/engine/trainer.js';

const engine = await createTestingEngine({ build: 'simd', learning: true });
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
const collect = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await turn();
  }
};
const memory = () => engine.boundaryState().memoryBytes;
const live = () => liveTrainers(engine.module).count;
const wide = () => engine.createTrainer({ task: 'reverse', seed: 1, dModel: 256, heads: 4 });
const [mode, count = '40'] = process.argv.slice(2);
const out = {};

if (mode === 'dropped') {
  wide().step(1);
  await collect();
  out.before = memory();
  for (let i = 0; i < Number(count); i++) {
    wide().step(1);
    await collect();
  }
  Object.assign(out, { after: memory(), live: live() });
} else if (mode === 'kept') {
  out.before = memory();
  // (In a function of its own: a variable of the module's top level could keep the last one alive.)
  const keepUntilRefused = () => {
    const kept = [];
    try {
      for (;;) {
        kept.push(wide());
        kept.at(-1).step(1);
      }
    } catch (error) {
      return { kept: kept.length, live: live(), error: `${error.constructor.name}: ${error.message}` };
    }
  };
  Object.assign(out, keepUntilRefused(), { after: memory() });
  await collect();
  out.liveAfterCollection = live();
  wide().dispose();
  out.madeAgain = true;
} else {
  out.before = memory();
  let created = 0;
  try {
    for (let i = 0; i < Number(count); i++, created++) engine.createTrainer({ task: 'translate', seed: i }).step(1);
  } catch (error) {
    out.error = `${error.constructor.name}: ${error.message}`;
  }
  Object.assign(out, { created, after: memory() });
}
process.stdout.write(JSON.stringify(out));
