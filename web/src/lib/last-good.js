// The latest good result of a computation and the message of the latest
// failure (null after a success). On a failure the last good result stays, so a
// section keeps showing numbers while the reader types a value the engine
// rejects, and shows the engine's message beside it.
//
//   const computed = lastGood(() => computeSentence(engine, embeddings));
//   computed.update();   // run compute() again; never throws
//   computed.result, computed.error
export function lastGood(compute) {
  const holder = {
    result: null,
    error: null,
    update() {
      try {
        holder.result = compute();
        holder.error = null;
      } catch (err) {
        holder.error = err.message;
      }
      return holder;
    },
  };
  return holder;
}
