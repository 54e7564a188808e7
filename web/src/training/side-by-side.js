// What a section shows of two (or more) runs of one model trained side by side
// and measured when each ends (./measured-runs.js): per run its points (the
// curves), its latest probe reading, and once measured its final evaluation
// and probe. Plain data, so it survives a language switch in the section's
// store; plain JS, tested in Node (tests/js/side-by-side.test.js).
//
//   const record = emptyRecord(['unmasked', 'masked']);
//   applyEvent(record, event);   // every event measured-runs reports
//   record.runs[id] -> { status, step, options, points, probe, reason, final }
//   record.ms       -> ms from start to the last run measured (null before)
//   record.error    -> the message of a failed request (null if none)
//
//   status: 'waiting' | 'training' | 'measuring' | 'done'
//   options: the trainer's (all of them, the defaults filled in; null before it starts)
//   reason: why its training ended ('target' or 'until'; null while it trains)
//   final:  what the section's finish returned (e.g. { evaluation, probe })

// What the sections measure when a run ends (measured-runs' `finish`): every
// held-out example, and the probe's reading with the trained weights. A
// section that needs more asks for it with request(name, payload).
export async function measure(request) {
  const [evaluation, probe] = await Promise.all([request('evaluate'), request('probe')]);
  return { evaluation, probe };
}

export function emptyRecord(ids) {
  const runs = Object.fromEntries(ids.map((id) => [id, { status: 'waiting', step: 0, options: null, points: [], probe: null, reason: null, final: null }]));
  return { runs, ms: null, error: null };
}

export function applyEvent(record, event) {
  if (event.type === 'finished') {
    record.ms = event.ms;
    return record;
  }
  if (event.type === 'error') {
    record.error = event.message;
    return record;
  }
  const run = record.runs[event.id];
  if (!run) return record;
  switch (event.type) {
    case 'started':
      run.status = 'training';
      run.options = event.trainer?.options ?? null;
      run.points.push(...(event.points ?? []));
      if (event.probe) run.probe = event.probe;
      break;
    case 'progress':
      run.points.push(...(event.points ?? []));
      run.step = event.step;
      if (event.probe) run.probe = event.probe;
      break;
    case 'done':
      run.status = 'measuring';
      run.step = event.step;
      run.reason = event.reason;
      break;
    case 'final': {
      const { type, id, ...final } = event;
      run.status = 'done';
      run.final = final;
      if (final.probe) run.probe = final.probe;
      break;
    }
    default:
      break;
  }
  return record;
}

export const allDone = (record) => Object.values(record.runs).every((run) => run.status === 'done');

// The training loss of a run's last point that has one (the steps' mean loss;
// null before its first step).
export function lastLoss(run) {
  for (let i = run.points.length - 1; i >= 0; i--) if (typeof run.points[i].loss === 'number') return run.points[i].loss;
  return null;
}

// One attention map of a reading (probe().layers[k]: { rows, cols, heads }),
// its heads averaged: rows x cols, row-major.
export function averageHeads({ rows, cols, heads }) {
  const mean = new Float64Array(rows * cols);
  for (const weights of heads) for (let i = 0; i < mean.length; i++) mean[i] += weights[i] / heads.length;
  return mean;
}

// The map of `kind` ('decoder-self', 'cross', 'encoder-self') in the last
// layer of a reading that has one, or null.
export const lastLayerOf = (reading, kind) => reading?.layers.filter((l) => l.kind === kind).at(-1) ?? null;
