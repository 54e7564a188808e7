// Runs of a side-by-side section trained for real in Node through the measured
// runs (src/training/measured-runs.js: the training pool on the page, as where
// no worker starts), each measured at its end as the sections' panel does
// (evaluate on every held-out example, the probe), followed into a record
// (src/training/side-by-side.js). For tests/js/mask-reason.test.js and
// positions-trained.test.js.
import { openWorker } from '../../web/src/worker/bridge.js';
import { trainingPool } from '../../web/src/training/training-pool.js';
import { measuredRuns } from '../../web/src/training/measured-runs.js';
import { applyEvent, emptyRecord, measure } from '../../web/src/training/side-by-side.js';

const open = (service, options) => openWorker(service, { ...options, createWorker: () => { throw new Error('no worker in Node'); } });

export function trainSideBySide(engine, runs) {
  const record = emptyRecord(runs.map((r) => r.id));
  return new Promise((resolve, reject) => {
    measuredRuns({
      engine,
      pool: (options) => trainingPool({ ...options, open }),
      finish: measure,
      onEvent: (event) => {
        applyEvent(record, event);
        if (event.type === 'error') reject(new Error(event.message));
        else if (event.type === 'finished') resolve(record);
      },
    }).start(runs);
  });
}
