// Runs a generator of small steps (a sweep: one trial per step) on the main
// thread in slices of about `sliceMs`, one task each, so that the page paints
// and answers input between them (no long task). Resolves to the generator's
// return value; `cancelled()` true before a slice: stops, resolves to null.
//
//   const result = await runInSlices(sweepSteps(engine, settings), { cancelled: () => stale });
export const SLICE_MS = 6;

export function runInSlices(steps, { sliceMs = SLICE_MS, cancelled = () => false, now = () => performance.now(), later = (fn) => setTimeout(fn, 0) } = {}) {
  return new Promise((resolve, reject) => {
    const slice = () => {
      if (cancelled()) {
        resolve(null);
        return;
      }
      const started = now();
      try {
        for (;;) {
          const { done, value } = steps.next();
          if (done) {
            resolve(value);
            return;
          }
          if (now() - started >= sliceMs) break;
        }
      } catch (err) {
        reject(err);
        return;
      }
      later(slice);
    };
    later(slice);
  });
}
