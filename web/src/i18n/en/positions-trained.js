// Section "positions-trained" text (English). HTML allowed; $...$ is TeX (MathML at
// build time); {name} is filled in at run time with a computed value;
// {§id} is the number of section `id`.
const R = String.raw;

export default {
  title: 'Attention without order: positions, trained',
  lede: R`Attention weighs every token by its content alone: shuffle the tokens and each one’s output is the same, only shuffled with them (<a href="#order">section {§order} of the walkthrough</a> computes this for one permutation). The articles conclude that a transformer must be told where each token stands. Here is what that means for learning: one model, trained in your browser on a task that is about nothing but order, once without positions and once with them.`,
  task: R`The task is to write {length} random digits backwards. Every digit of the answer is in the source; the only question is which one comes when, and that is a question of position. The model is a small transformer: an encoder reads the source, a decoder writes the answer one digit at a time, reading the source through cross-attention. With positions, each token’s embedding gets a vector that says where it stands:`,
  formula: R`Without them ($p_i = 0$), the encoder sees the source as a bag of digits: which digits, how many of each, not in what order.`,
  controls: { seed: 'Seed', newSeed: 'New seed', positions: 'Positions of the second model' },
  positions: { sinusoidal: 'sinusoidal', learned: 'learned' },
  buttons: { train: 'Train both', stop: 'Stop' },
  training: {
    title: 'Without positions and with them, trained side by side',
    intro: R`Both models start from the same seed and train at once, each in a background thread: $d_{\text{model}} = 16$, 2 heads, 1 layer, batches of 32. Every 25 steps each writes 64 held-out sequences freely and is scored. Each stops once it writes 99% of the digits right (or after 500 steps); then both are scored on all 512 held-out sequences.`,
  },
  status: {
    idle: 'Not trained yet. Press “Train both”.',
    running: 'Training… without positions: step {none}; with them: step {positioned}.',
    done: 'Done in {seconds} s: without positions {none} steps, with them {positioned}.',
    stopped: 'Stopped. “Train both” starts again from step 0.',
    failed: 'Training failed: {message}',
  },
  counters: {
    none: 'Without positions: step {step}, loss {loss}, written freely {generated}',
    positioned: 'With positions: step {step}, loss {loss}, written freely {generated}',
  },
  runs: { none: 'without positions', positioned: 'with positions' },
  charts: {
    xLabel: 'training step',
    step: 'step',
    chance: 'guessing the commonest digit ({guess})',
    loss: {
      title: 'Training loss against step',
      description: 'Mean cross-entropy of the training batches’ target digits at each point, log scale, for both models.',
      caption: 'Training loss (log scale)',
    },
    accuracy: {
      title: 'Held-out accuracy written freely against step',
      description: 'Share of the digits of 64 held-out sequences each model writes right, with the score of guessing the commonest source digit at every position as a dashed line.',
      caption: 'Held-out accuracy, written freely',
    },
  },
  table: { show: 'Show the numbers as a table', rowSum: 'row sum' },
  maps: {
    title: 'Where each model’s decoder looks in the source',
    intro: 'The cross-attention weights of each model on one held-out sequence (its two heads averaged), redrawn as the models train. Each row is a digit being written (the last row: the end of the sequence), each column a source digit; darker is more weight. The outlined cells are the source digit each target digit copies: the anti-diagonal.',
    caption: '{run}',
    end: 'end',
    rowAxis: 'writing ↓',
    colAxis: 'source →',
    reading: 'On the digit to copy: {on} of the weight on average (spread evenly: {even}).',
    empty: 'The maps appear when training starts.',
  },
  summary: {
    none: {
      guesses: R`Without positions the model writes {generated} of the digits right after {steps} steps. A blind guess gets {chance}; guessing at every position the digit that occurs most often in the source gets {guess}: about what a model can do that knows which digits there are but not where they stand.`,
      between: R`Without positions the model writes {generated} of the digits right after {steps} steps: more than guessing the commonest source digit everywhere ({guess}; a blind guess {chance}), far from reversing.`,
      learns: R`Without positions the model writes {generated} of the digits right after {steps} steps: it found order somewhere else, which the attention alone cannot give it.`,
      forced: R`With the right digits so far in view (teacher forcing) it scores {accuracy}, close to the {remembering} of the best guess that leaves out the digits already written: the bag of digits, used as well as it can be.`,
    },
    positioned: {
      learns: R`With {positions} positions the same model writes {generated} of the digits right after {steps} steps ({sequences} of the sequences whole).`,
      short: R`With {positions} positions the model writes only {generated} right after {steps} steps: it did not learn the task within the budget.`,
    },
    maps: {
      aligned: R`The maps show how: with positions each digit being written puts on average {positioned} of its weight on the source digit it copies, the anti-diagonal; without, {none}, about as much as weight spread evenly ({even}).`,
      other: R`On the source digit each one copies, the model with positions puts {positioned} of its weight, the one without {none} (spread evenly: {even}).`,
    },
    verdict: {
      order: R`Nothing else differs between the two models: the positions are what turned a bag of digits into a sequence.`,
      not: R`This run did not come out as the articles say; another seed may.`,
    },
  },
  after: R`<p>Sinusoidal positions are fixed functions of the position; learned ones are vectors trained like the embeddings. Both tell attention where each token stands, and on this task either is enough. The walkthrough’s <a href="#order">section {§order}</a> shows the permutation that attention without positions cannot see.</p>`,
};
