// What the page needs to know of a trainer (engine.createTrainer): plain data,
// so that it crosses postMessage. The training host sends it with 'started';
// the page computes it for the untrained model (sections/learning/state.js).
export function describeTrainer(trainer) {
  return {
    options: { ...trainer.options },
    vocabulary: trainer.vocabulary,
    alignment: [...trainer.alignment],
    sourceLength: trainer.sourceLength,
    targetLength: trainer.targetLength,
    heldOut: trainer.heldOut,
  };
}
