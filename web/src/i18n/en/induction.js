// Section "induction" text (English). HTML allowed; $...$ is TeX (MathML at
// build time); {name} is filled in at run time with a computed value;
// {§id} is the number of section `id`.
const R = String.raw;

export default {
  title: 'Heads that specialise: the induction head',
  lede: R`The articles say that each head scores by a criterion of its own and that a layer reads its queries, keys and values from the layer below (<a href="#multi-head">section {§multi-head}</a>). Here is both, learned: two heads of a small model, trained in your browser, divide one job between them, and the second head only works because it reads what the first one wrote. Olsson et al. (2022, “In-context Learning and Induction Heads”) found this pair, the <i>induction head</i>, in language models of every size.`,
  task: R`The task: 32 random letters in which a segment of 6 letters appears twice, at a distance that changes from sequence to sequence. Once the second copy has begun, its next letter is the one that followed the same letter the first time; nothing else predicts it. Only those five letters are scored.`,
  model: R`The model has attention and nothing else: embeddings with positions, then layers that each add their one head’s output to the running sum, then a read-out. No MLP, no LayerNorm: whatever it learns is in the attention weights. One model has two layers, the other one.`,
  scores: R`Two numbers describe what a head does, from its weights $A$ on held-out sequences: how much it looks at the token just before (a <i>previous-token head</i>), and how much it looks at the token that came after an earlier occurrence of the current one (<i>prefix matching</i>, what an induction head does):`,
  controls: { seed: 'Seed', newSeed: 'New seed' },
  buttons: { train: 'Train both', stop: 'Stop' },
  training: {
    title: 'Two layers against one, trained side by side',
    intro: 'Both models train at once, each in a background thread, from the same seed: d_model = 16, one head a layer, batches of 32, learning rate 0.01. Every 25 steps each is scored on 128 held-out sequences. The two-layer model stops when its accuracy on the repeat reaches 98%; the one-layer model once it has trained at least as many steps. At the end both are scored on all 512.',
  },
  status: {
    idle: 'Not trained yet. Press “Train both”.',
    running: 'Training… two layers: step {two}; one layer: step {one}.',
    done: 'Done in {seconds} s: two layers {two} steps, one layer {one} steps.',
    stopped: 'Stopped. “Train both” starts again from step 0.',
    failed: 'Training failed: {message}',
  },
  counters: {
    two: 'two layers: step {step}, loss {loss}, accuracy {accuracy}',
    one: 'one layer: step {step}, loss {loss}, accuracy {accuracy}',
  },
  runs: { two: 'two layers', one: 'one layer' },
  heads: {
    'two-0': 'two layers, layer 1 head',
    'two-1': 'two layers, layer 2 head',
    'one-0': 'one layer, its head',
  },
  charts: {
    xLabel: 'training step',
    step: 'step',
    chance: 'chance ({chance})',
    loss: {
      title: 'Training loss against step',
      description: 'Mean cross-entropy on the scored letters of the training batches since the previous point, on a log scale, for both models.',
      caption: 'Training loss on the repeat (log scale)',
    },
    accuracy: {
      title: 'Accuracy on the repeat against step',
      description: 'Share of the scored letters of 128 held-out sequences that each model predicts right, with chance (one letter in 24) as a dashed line.',
      caption: 'Held-out accuracy on the repeat',
    },
    previousToken: {
      title: 'Previous-token score of each head against step',
      description: 'Mean weight each head puts on the token just before, on held-out sequences.',
      caption: 'Previous-token score',
    },
    prefixMatch: {
      title: 'Prefix-match score of each head against step',
      description: 'Mean weight each head puts on the tokens that followed earlier occurrences of the current token, on held-out sequences.',
      caption: 'Prefix-match score',
    },
  },
  maps: {
    title: 'What each head looks at',
    intro: 'The attention weights of every layer and head on one held-out sequence, redrawn as the models train. Each row is a position reading (its letter on the left), each column a position it may look at; darker is more weight. The outlined cells are where a previous-token head (layer 1) or an induction head would look.',
    sequence: 'The sequence, its repeated segment marked:',
    sep: '·',
    caption: 'Layer {layer}, head {head}',
    rowAxis: 'reading ↓',
    colAxis: 'looked at →',
    expected: {
      previousToken: 'Outlined: the previous token.',
      prefixMatch: 'Outlined: on the second copy, the letter after the same letter’s first occurrence.',
    },
    scores: 'At step {step}: previous token {previous}, prefix match {prefix}.',
    empty: 'The maps appear when training starts.',
  },
  ablation: {
    title: 'Switch a head off',
    intro: 'Switching a head off sets its output to zero, so the layers above get nothing from it. The trained two-layer model is scored again on all 512 held-out sequences with each choice below.',
    waiting: 'Train the models first: the switches appear when both are done.',
    switch: 'Switch off layer {layer}, head {head}',
    head: 'layer {layer}, head {head}',
    none: 'All heads on: accuracy on the repeat {full} (chance {chance}). The bar shows the accuracy, the solid tick the whole model’s, the dashed tick chance.',
    off: 'Without {heads}: accuracy on the repeat {accuracy}, against {full} with all heads on (chance {chance}).',
  },
  summary: {
    drop: {
      sharp: R`For {plateau} steps the accuracy on the repeat stayed below {from0} (step 0: {startAccuracy}); then it passed {to0} by step {to}, only {width} steps later: the drop in the loss curve. At step {steps}: loss {endLoss}, accuracy {endAccuracy}.`,
      gradual: R`The accuracy on the repeat passed {from0} at step {from} and {to0} at step {to}: a climb over {width} steps rather than a sudden drop. At step {steps}: loss {endLoss}, accuracy {endAccuracy}.`,
      partial: R`The accuracy on the repeat passed {from0} at step {from} but not {to0} in {steps} steps (last: {endAccuracy}).`,
      none: R`In {steps} steps the accuracy on the repeat never passed {from0} (last: {endAccuracy}): this run did not find the solution. Another seed may.`,
    },
    timing: {
      together: R`The layer-2 head’s prefix-match score rose at the same moment: it passed {middle} at step {prefixStep}, the accuracy at step {accuracyStep}. The drop is the induction head forming.`,
      prefixFirst: R`The layer-2 head’s prefix-match score passed {middle} at step {prefixStep}, before the accuracy did (step {accuracyStep}).`,
      accuracyFirst: R`The layer-2 head’s prefix-match score passed {middle} only at step {prefixStep}, after the accuracy did (step {accuracyStep}).`,
    },
    heads: {
      circuit: R`The two heads divided the job. The layer-1 head puts {previous} of its weight on the previous token (step 0: {previous0}): a previous-token head. The layer-2 head puts {prefix} on the letter that followed an earlier occurrence of the current one (step 0: {prefix0}): an induction head. It can only find that letter because layer 1 wrote into each position which letter came before it. Neither does the other’s job: prefix match of layer 1 {firstPrefix}, previous token of layer 2 {secondPrevious}.`,
      inductionOnly: R`The layer-2 head became an induction head (prefix match {prefix}; step 0: {prefix0}), but the layer-1 head’s previous-token score is only {previous} (step 0: {previous0}): this run carried the previous letter up some other way.`,
      previousOnly: R`The layer-1 head became a previous-token head ({previous}; step 0: {previous0}), but no induction head formed: the layer-2 head’s prefix match is {prefix} (step 0: {prefix0}).`,
      neither: R`Neither head specialised: the layer-1 head’s previous-token score is {previous} (step 0: {previous0}), the layer-2 head’s prefix match {prefix} (step 0: {prefix0}).`,
    },
    ablation: {
      toChance: R`Switch off the head of layer {layer} and the accuracy falls from {full} to {ablated}, no better than twice chance ({chance}): the model cannot do without it.`,
      falls: R`Switching off the head of layer {layer} takes the accuracy from {full} to {ablated}.`,
      little: R`Switching off the head of layer {layer} changes little: {full} to {ablated}.`,
    },
    one: {
      stays: R`With one layer no head can read what another wrote: after {oneSteps} steps (the two-layer model needed {twoSteps}) the one-layer model’s accuracy is {one}, {times} times chance, against {two} with two layers.`,
      learns: R`The one-layer model learned it too: {one} after {oneSteps} steps, against {two} with two layers after {twoSteps}.`,
      partial: R`The one-layer model reached {one} after {oneSteps} steps, against {two} with two layers after {twoSteps}.`,
    },
  },
  after: R`<p>An induction head copies: it finds where the current token was before and predicts what came next. Olsson et al. argue that heads like these are much of what lets a language model learn from its prompt, and that they appear in a sudden phase of training, as the drop above does. Section {§decoding} shows the other half of a decoder’s life: generating one token at a time.</p>`,
};
