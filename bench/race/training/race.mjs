// The training race (Node): for each task, every contender (./contenders.mjs,
// one worker thread each) first trains CHECK_STEPS steps from the project's
// initial parameters on the project's batches, and its losses are checked
// against the project's (./workload.mjs); a contender whose losses are out of
// tolerance, or that failed, gets no figure. Then the checked contenders race
// in one interleaved race (../harness.mjs): a call is STEPS_PER_CALL steps.
// Returns plain data (JSON): per task, per contender its check and its timing,
// with msPerStep = medianMs / STEPS_PER_CALL.
import { runRace } from '../harness.mjs';
import { CHECK_STEPS, STEPS_PER_CALL, TASKS, TOLERANCE, checkLosses, makeProblem } from './workload.mjs';

export const ROUNDS = 7;
export const SAMPLES = 3;

const errorText = (error) => String(error?.message ?? error).slice(0, 300);

// contenders: ./contenders.mjs; engine: a testing engine of the learning module (the problem's source).
export async function runTrainingRace({ contenders, engine, tasks = TASKS, rounds = ROUNDS, log = () => {} }) {
  const result = { workload: 'training', stepsPerCall: STEPS_PER_CALL, checkSteps: CHECK_STEPS, tolerance: TOLERANCE,
    rounds, samplesPerRound: SAMPLES, tasks: [] };
  for (const task of tasks) {
    const problem = makeProblem(engine, task);
    const entries = [];
    const racing = [];
    for (const contender of contenders) {
      const entry = { name: contender.name, role: contender.role, build: contender.build };
      entries.push(entry);
      try {
        const call = await contender.prepare(problem);
        entry.dispose = call.dispose;
        entry.label = await call.label();
        Object.assign(entry, checkLosses(problem, await call.check()));
        if (entry.ok) {
          await call();  // warm-up: the first calls compile and tier up
          racing.push({ name: contender.name, call });
        } else {
          log(`  ${task} ${contender.name}: WRONG (losses ${entry.losses.join(', ')}; the project's ` +
            `${problem.losses.slice(0, CHECK_STEPS).join(', ')}); no figure`);
        }
      } catch (error) {
        Object.assign(entry, { ok: false, error: errorText(error) });
        log(`  ${task} ${contender.name}: FAILED (${entry.error}); not timed`);
      }
    }
    const timings = await runRace(racing, { rounds, samples: SAMPLES });
    for (const entry of entries) {
      await entry.dispose?.();
      delete entry.dispose;
      const timing = timings.find((t) => t.name === entry.name);
      if (!timing) continue;
      Object.assign(entry, { callsPerSample: timing.callsPerSample, medianMs: timing.medianMs, roundMs: timing.roundMs,
        msPerStep: timing.medianMs / STEPS_PER_CALL });
      log(`  ${task.padEnd(9)} ${entry.name.padEnd(17)} ${entry.msPerStep.toFixed(4).padStart(9)} ms/step ` +
        `${(1000 / entry.msPerStep).toFixed(0).padStart(7)} steps/s   loss error ${entry.maxError.toExponential(1)}`);
    }
    const { heads, dModel, batchSize, learningRate, weightDecay, S, T, Vs, Vt, parameterCount } = problem;
    result.tasks.push({ task, heads, dModel, batchSize, learningRate, weightDecay, S, T, Vs, Vt, parameterCount,
      contenders: entries });
  }
  return result;
}
