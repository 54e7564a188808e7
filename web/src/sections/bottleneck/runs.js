// Section "bottleneck", the sweep's runs: both models at every length
// (./state.js runsOf) spread over two workers (src/training/measured-runs.js),
// each trained until its target or the step budget, then evaluated on every
// held-out sequence. What they report comes to onEvent (./state.js applyEvent).
//
//   const sweep = bottleneckRuns({ engine, onEvent });
//   sweep.start(settings); sweep.stop();
import { measuredRuns } from '../../training/measured-runs.js';
import { runsOf } from './state.js';

export function bottleneckRuns({ engine, onEvent }) {
  const runs = measuredRuns({
    engine, onEvent,
    finish: async (request) => ({ evaluation: await request('evaluate') }),
  });
  return {
    start: (settings) => runs.start(runsOf(settings)),
    stop: () => runs.stop(),
    get running() { return runs.running; },
  };
}
