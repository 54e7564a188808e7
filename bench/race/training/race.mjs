// The training races (Node). For each problem, every contender
// (./contenders.mjs: a worker thread each, or the native child process) first
// trains CHECK_STEPS steps from the project's initial parameters on the
// project's batches, and its losses are checked against the project's
// (./workload.mjs checkLosses); a contender whose losses are out of tolerance,
// or that failed, gets no figure. Then the checked contenders race in one
// interleaved race (../harness.mjs): a call is problem.stepsPerCall steps, or,
// when the problem gives callMs, as many steps as a warm call takes about callMs.
// Returns plain data (JSON): per problem, per contender its check and its
// timing (roundMs per call), with its stepsPerCall and msPerStep = medianMs / stepsPerCall.
//   runTrainingRace      the one-layer 'attention' model on each task (issue 8; ./workload.mjs)
//   runTransformerRace   the engine's transformer at issue 22's shape (./transformer-workload.mjs),
//                        with the native contender; translate checked, not raced
import { runRace } from '../harness.mjs';
import { CHECK_STEPS, STEPS_PER_CALL, TASKS, TOLERANCE, checkLosses, makeProblem } from './workload.mjs';
import { CALL_MS, CHECKED_ONLY, RACED, makeTransformerProblem } from './transformer-workload.mjs';

export const ROUNDS = 7;
export const SAMPLES = 3;

const errorText = (error) => String(error?.message ?? error).slice(0, 300);

// One problem: every contender checked, then (race) the checked ones raced -> its contender entries.
async function checkAndRace({ problem, contenders, race = true, rounds, log }) {
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
      if (!entry.ok) {
        log(`  ${problem.task} ${contender.name}: WRONG (losses ${entry.losses.join(', ')}; the project's ` +
          `${problem.losses.slice(0, CHECK_STEPS).join(', ')}); no figure`);
      } else if (race) {
        await call();  // warm-up: the first calls compile and tier up
        if (problem.callMs) {  // the steps of a call of about callMs, from a warm call of 2 steps
          call.steps = 2;
          const start = performance.now();
          await call();
          call.steps = Math.max(1, Math.round(problem.callMs / ((performance.now() - start) / 2)));
        }
        call.cpu = { ms: 0, steps: 0 };
        // onceMs: a call of about callMs needs no more warm-up nor calibration from the harness
        racing.push({ name: contender.name, call, onceMs: problem.callMs });
      } else {
        log(`  ${problem.task.padEnd(9)} ${contender.name.padEnd(17)} checked: loss error ${entry.maxError.toExponential(1)}`);
      }
    } catch (error) {
      Object.assign(entry, { ok: false, error: errorText(error) });
      log(`  ${problem.task} ${contender.name}: FAILED (${entry.error}); not timed`);
    }
  }
  const timings = racing.length ? await runRace(racing, { rounds, samples: SAMPLES }) : [];
  const callOf = (name) => racing.find((r) => r.name === name).call;
  for (const entry of entries) {
    await entry.dispose?.();
    delete entry.dispose;
    const timing = timings.find((t) => t.name === entry.name);
    if (!timing) continue;
    const { cpu, steps } = callOf(entry.name);
    // CPU ms per step of the contender's thread over every timed call (and the calls that chose their number)
    const cpuMsPerStep = cpu.steps && Number.isFinite(cpu.ms) ? cpu.ms / cpu.steps : null;
    Object.assign(entry, { callsPerSample: timing.callsPerSample, medianMs: timing.medianMs, roundMs: timing.roundMs,
      stepsPerCall: steps, msPerStep: timing.medianMs / steps, cpuMsPerStep });
    log(`  ${problem.task.padEnd(9)} ${entry.name.padEnd(17)} ${String(steps).padStart(3)} steps a call ${entry.msPerStep.toFixed(4).padStart(9)} ms/step ` +
      `${(1000 / entry.msPerStep).toFixed(0).padStart(7)} steps/s  ${cpuMsPerStep?.toFixed(4).padStart(9) ?? '        -'} CPU ms/step` +
      `   loss error ${entry.maxError.toExponential(1)}`);
  }
  return entries;
}

// contenders: ./contenders.mjs trainingContenders; engine: a testing engine of the learning module (the problem's source).
export async function runTrainingRace({ contenders, engine, tasks = TASKS, rounds = ROUNDS, log = () => {} }) {
  const result = { workload: 'training', stepsPerCall: STEPS_PER_CALL, checkSteps: CHECK_STEPS, tolerance: TOLERANCE,
    rounds, samplesPerRound: SAMPLES, tasks: [] };
  for (const task of tasks) {
    const problem = makeProblem(engine, task);
    const entries = await checkAndRace({ problem, contenders, rounds, log });
    const { heads, dModel, batchSize, learningRate, weightDecay, S, T, Vs, Vt, parameterCount } = problem;
    result.tasks.push({ task, heads, dModel, batchSize, learningRate, weightDecay, S, T, Vs, Vt, parameterCount,
      contenders: entries });
  }
  return result;
}

// contenders: ./contenders.mjs transformerContenders -> { workload: 'transformer', ..., problems: [{ task, race,
// options, S, T, batchSize, mlp, parameterCount, contenders }] } (the raced problem first).
export async function runTransformerRace({ contenders, engine, rounds = ROUNDS, log = () => {} }) {
  const result = { workload: 'transformer', callMs: CALL_MS, checkSteps: CHECK_STEPS, tolerance: TOLERANCE,
    rounds, samplesPerRound: SAMPLES, problems: [] };
  for (const spec of [RACED, CHECKED_ONLY]) {
    const problem = makeTransformerProblem(engine, spec);
    const entries = await checkAndRace({ problem, contenders, race: spec.race, rounds, log });
    const { task, race, trainerOptions, options, S, T, batchSize, mlp, parameterCount } = problem;
    result.problems.push({ task, race, trainerOptions, options, S, T, batchSize, mlp, parameterCount, contenders: entries });
  }
  return result;
}
