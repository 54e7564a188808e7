// The life of a section's training as its panel drives it (sections
// "induction" and "decoding"): the status in the section's store ('idle',
// 'running', 'done', 'stopped'; kept across a language switch), the run's
// driver (the section's runs.js) loaded at the first start, and starts that
// overtake each other: a start or stop makes every pending answer of the one
// before it void.
//
//   const life = sectionRun({ state, load: () => import('./runs.js').then(...), onStatus, redraw });
//   life.start((driver) => driver.start(settings, runs));   // status 'running', then begin
//   life.stop('stopped'); life.setStatus('done'); life.fail(message); life.end();
//   life.driver                                              // null until loaded
export function sectionRun({ state, load, onStatus, redraw }) {
  let driver = null;
  let loading = null;
  let starts = 0;

  function setStatus(next) {
    state.status = next;
    onStatus(next);
  }
  function fail(message) {
    console.error(message);
    state.failure = message;
    setStatus('stopped');
    redraw();
  }
  return {
    get driver() { return driver; },
    setStatus,
    fail,
    start(begin) {
      const mine = ++starts;
      state.failure = null;
      setStatus('running');
      redraw();
      (loading ??= load().then((d) => (driver = d))).then((d) => { if (mine === starts) begin(d); },
        (err) => { loading = null; if (mine === starts) fail(String(err?.message ?? err)); });
    },
    stop(next) {
      starts += 1;
      driver?.stop();
      setStatus(next);
      redraw();
    },
    // The section's end: the run stops, its pending answers are void.
    end() {
      starts += 1;
      driver?.stop();
    },
  };
}
