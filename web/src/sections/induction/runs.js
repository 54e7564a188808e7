// Section "induction", the training: the two-layer and the one-layer model,
// each in a worker of its own (the model host, src/training/model-host-service.js,
// over src/worker/bridge.js), trained from the same seed at once. The two-layer
// run ends at its target (./state.js trainPlan); the one-layer run follows it
// (at most LEAD steps ahead) and ends at the same step. Then each is evaluated on every
// held-out sequence, the two-layer model also with each set of its heads
// switched off (runs.two.ablations), and both read the probe; then its worker
// closes. Everything the section shows of a run goes into `runs`
// (./state.js emptyRuns) as it comes. All of the section's requests to
// workers are here: the one file to change for another training service.
//
//   const driver = inductionRuns({ engine, onUpdate, onDone, onFailed });
//   driver.start(settings, runs);        // the previous runs stop first
//   driver.stop();                       // terminates both workers
import { openWorker } from '../../worker/bridge.js';
import modelHost from '../../worker/services/model-host.js';
import { EVALUATE_EVERY, MAX_STEPS, RUNS, ablationKey, runOptions, trainPlan } from './state.js';

// How far the one-layer model may train ahead of the two-layer one.
const LEAD = EVALUATE_EVERY;

export function inductionRuns({ engine, onUpdate, onDone, onFailed, open = openWorker }) {
  let workers = null;   // { two, one }: the bridge's handles
  let current = null;   // the runs being filled
  let generation = 0;   // a start or stop overtakes every pending reply of the runs before it

  function stop() {
    generation += 1;
    if (workers) for (const w of Object.values(workers)) w.close();
    workers = null;
  }

  // The end of a run: every held-out sequence, and (two layers) with each set
  // of its heads switched off (with one head a layer: each alone and both).
  async function finish(name, worker, r, mine) {
    const heads = r.points.at(-1)?.headScores.map(({ layer, head }) => ({ layer, head })) ?? [];
    const sets = name === 'two' ? subsets(heads).filter((set) => set.length > 0) : [];
    const [evaluation, probe, ...ablated] = await Promise.all([
      worker.request('evaluate', {}),
      worker.request('probe'),
      ...sets.map((ablate) => worker.request('evaluate', { ablate })),
    ]);
    if (mine !== generation) return;
    r.probe = probe;
    r.ablations = { none: evaluation };
    sets.forEach((set, i) => { r.ablations[ablationKey(set)] = ablated[i]; });
    r.final = {
      evaluation,
      ablated: sets.filter((set) => set.length === 1).map(([head]) => ({ ...head, accuracy: r.ablations[ablationKey([head])].accuracy })),
    };
    r.done = true;
    worker.close();   // everything the section shows of this model is in `r` now
    onUpdate();
    if (RUNS.every((each) => current[each].done)) onDone();
  }

  function start(settings, runs) {
    stop();
    const mine = generation;
    current = runs;
    workers = Object.fromEntries(RUNS.map((name) => [name, open(modelHost, { engine })]));
    const failed = (err) => {
      if (mine !== generation || err?.name === 'AbortError') return;
      stop();
      onFailed(String(err?.message ?? err));
    };
    const receive = (r) => ({ step, point, probe }) => {
      if (mine !== generation) return;
      r.points.push(point);
      r.step = step;
      if (probe) r.probe = probe;
      onUpdate();
    };
    for (const name of RUNS) {
      workers[name].request('start', runOptions(settings, name)).then(({ trainer }) => {
        if (mine !== generation) return;
        runs[name].trainer = trainer;
        onUpdate();
      }, failed);
    }

    // The one-layer model trains in legs, each to at most LEAD steps past the
    // two-layer model, and ends where that one ended: as many steps, and no
    // core spent running ahead of the run that sets the length.
    let twoEndedAt = null;
    let leg = null;
    let oneEnded = false;
    const trainOne = () => {
      const r = runs.one;
      if (leg || oneEnded || mine !== generation) return;
      const until = twoEndedAt ?? Math.min(MAX_STEPS, runs.two.step + LEAD);
      if (r.step >= until) {
        if (twoEndedAt !== null) {
          oneEnded = true;
          finish('one', workers.one, r, mine).catch(failed);
        }
        return;
      }
      leg = workers.one.request('train', { ...trainPlan('one'), until }, { onProgress: receive(r) });
      leg.then(({ step }) => {
        leg = null;
        if (mine !== generation) return;
        r.step = step;
        trainOne();
      }, failed);
    };

    const two = runs.two;
    workers.two.request('train', trainPlan('two'), {
      onProgress: (progress) => {
        receive(two)(progress);
        trainOne();
      },
    }).then(({ step }) => {
      if (mine !== generation) return null;
      two.step = step;
      twoEndedAt = step;
      trainOne();
      return finish('two', workers.two, two, mine);
    }).catch(failed);
    trainOne();
  }

  return {
    start,
    stop,
    get running() { return workers !== null; },
  };
}

// Every subset of `items`, the empty one first.
export const subsets = (items) => items.reduce((all, item) => all.concat(all.map((set) => [...set, item])), [[]]);
