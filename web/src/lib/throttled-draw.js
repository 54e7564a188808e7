// Redrawing what a training run reports (its charts, counters): at most once
// every `ms` while `busy()` (a run sends progress many times a second), on the
// next frame otherwise. Sections "induction" and "decoding".
//
//   const drawing = throttledDraw(draw, { ms: 250, busy: () => state.status === 'running' });
//   drawing.request();   // soon; several requests before it, one draw
//   drawing.now();       // at once
//   drawing.cancel();    // a pending draw never comes (the section is gone)
export function throttledDraw(draw, { ms, busy }) {
  let timer = 0;
  let drawnAt = -Infinity;
  const now = () => {
    clearTimeout(timer);
    timer = 0;
    drawnAt = performance.now();
    draw();
  };
  return {
    now,
    request() {
      if (timer) return;
      const wait = busy() ? Math.max(0, drawnAt + ms - performance.now()) : 0;
      timer = setTimeout(() => requestAnimationFrame(now), wait);
    },
    cancel() { clearTimeout(timer); },
  };
}
