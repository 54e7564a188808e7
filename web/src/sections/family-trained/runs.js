// Section "family-trained", the runs: the variants the reader chose (./state.js
// runsOf) spread over two workers (src/training/measured-runs.js), each trained
// until its target or MAX_STEPS, the probe sentence's reading sent with each
// batch; when one ends, its evaluation on every held-out sentence, its
// alignment agreement and its final reading of the probe. What they report
// comes to onEvent (./state.js applyEvent).
//
//   const runs = familyRuns({ engine, onEvent });   // pool: the training pool's maker (tests)
//   runs.start(settings); runs.stop();
import { measuredRuns } from '../../training/measured-runs.js';
import { AGREEMENT_EXAMPLES, runsOf } from './state.js';

export function familyRuns({ engine, onEvent, pool }) {
  const runs = measuredRuns({
    engine, onEvent, ...(pool ? { pool } : {}),
    finish: async (request) => {
      const [evaluation, agreement, probe] = await Promise.all([
        request('evaluate'), request('alignmentAgreement', { examples: AGREEMENT_EXAMPLES }), request('probe'),
      ]);
      return { evaluation, agreement, probe };
    },
  });
  return {
    start: (settings) => runs.start(runsOf(settings)),
    stop: () => runs.stop(),
    get running() { return runs.running; },
  };
}
