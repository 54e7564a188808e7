// A section's live model: its inputs, the latest good result computed from
// them, and the latest failure (null after a success): `failure` is the Error
// (an InputError of lib/input-check.js for a typing mistake), `error` its
// message. On a failure the last good result stays, so a section keeps showing
// numbers while the reader types a value that cannot be computed, and shows
// what is wrong beside them. Every section's state.js builds its model with this; plain JS,
// no DOM (Vitest runs the models in Node against the real wasm).
//
//   const model = liveModel({
//     initial: { q: [1, 0] },                      // the starting inputs (copied, kept for reset)
//     compute: (inputs) => engine.attention(...),  // may throw: the engine's Error
//     actions: { setQuery: (inputs, i, x) => { inputs.q[i] = x; } },
//     views: { norm: (result, inputs) => ... },    // read-only values derived from both
//   });
//   model.setQuery(0, 2);   // changes the inputs, recomputes, returns the model
//   model.inputs, model.result, model.error, model.failure, model.snapshot, model.norm, model.reset()
//
// An action that returns false changed nothing the result depends on (a
// selection): the model is not recomputed. An action that throws (a value the
// section can never hold, such as h = 3) throws to its caller and changes nothing.
// `snapshot` is what the section's codec (params.js) encodes: a copy of the
// inputs unless the section says otherwise.
export function liveModel({ initial, copy = structuredClone, compute, actions = {}, views = {}, snapshot = copy }) {
  let inputs = copy(initial);
  let result = null;
  let failure = null;

  function recompute() {
    try {
      result = compute(inputs);
      failure = null;
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
    }
    return model;
  }

  const model = {
    get inputs() { return inputs; },
    get result() { return result; },
    get error() { return failure?.message ?? null; },
    get failure() { return failure; },
    get snapshot() { return snapshot(inputs); },
    recompute,
    reset() {
      inputs = copy(initial);
      return recompute();
    },
  };
  for (const [name, change] of Object.entries(actions)) {
    model[name] = (...args) => (change(inputs, ...args) === false ? model : recompute());
  }
  for (const [name, view] of Object.entries(views)) {
    Object.defineProperty(model, name, { get: () => view(result, inputs), enumerable: true });
  }
  return recompute();
}
