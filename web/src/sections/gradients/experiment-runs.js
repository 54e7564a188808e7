// Section "gradients", the experiment's two runs (./experiment.js RUNS), each
// a training run in a worker of its own (src/training/training-run.js): the
// same model from the same seed, scaled and not, trained to `steps` with a
// held-out point every evaluateEvery(steps) steps. Their points and steps go
// into `runs` (./experiment.js emptyRuns) as they come.
//
//   const runs = experimentRuns({ engine, onUpdate, onDone, onFailed });
//   runs.start(settings, state.runs);   // the previous runs stop first
//   runs.stop();                         // terminates both workers
import { trainingRun } from '../../training/training-run.js';
import { RUNS, evaluateEvery, runOptions } from './experiment.js';

export function experimentRuns({ engine, onUpdate, onDone, onFailed }) {
  const workers = {};

  function stop() {
    for (const name of Object.keys(workers)) {
      workers[name].stop();
      delete workers[name];
    }
  }

  function start(settings, runs) {
    stop();
    for (const name of RUNS) {
      const onMessage = (message) => {
        if (workers[name] !== run) return;
        const r = runs[name];
        if (message.type === 'started' || message.type === 'progress') {
          r.points.push(...message.points);
          r.step = message.step;
          onUpdate();
        } else if (message.type === 'paused' && message.reason === 'until') {
          r.done = true;
          run.stop();
          delete workers[name];
          if (RUNS.every((each) => runs[each].done)) onDone();
        } else if (message.type === 'error') {
          stop();
          onFailed(message.message);
        }
      };
      const run = trainingRun({ engine, onMessage });
      workers[name] = run;
      run.start(runOptions(settings, name));
      run.play({ until: settings.steps, evaluateEvery: evaluateEvery(settings.steps), probe: false });
    }
  }

  return { start, stop };
}
