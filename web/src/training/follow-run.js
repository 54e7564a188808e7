// One run of a section's state followed through the events of its measured
// runs (./measured-runs.js; the sections' state.js applyEvent; plain JS, no
// DOM): status 'waiting' -> 'training' ('started') -> 'evaluating' ('done') ->
// 'done' ('final'); `step`; `reachedAt`, the first
// step after 0 whose point's generated accuracy reaches `target` (step 0 is
// the untrained model). keep(run, point): what the section keeps of each
// point; finish(run, event): of the final measurement.
export function followRun(run, event, { target, keep = () => {}, finish = () => {} }) {
  const take = (points) => {
    for (const p of points ?? []) {
      keep(run, p);
      if (run.reachedAt === null && p.step > 0 && p.generatedAccuracy >= target) run.reachedAt = p.step;
    }
  };
  switch (event.type) {
    case 'started':
      run.status = 'training';
      take(event.points);
      break;
    case 'progress':
      take(event.points);
      run.step = event.step;
      break;
    case 'done':
      run.status = 'evaluating';
      run.step = event.step;
      break;
    case 'final':
      run.status = 'done';
      finish(run, event);
      break;
    default:
      break;
  }
  return run;
}
