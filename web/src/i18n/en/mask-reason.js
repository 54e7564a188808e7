// Section "mask-reason" text (English). HTML allowed; $...$ is TeX (MathML at
// build time); {name} is filled in at run time with a computed value;
// {§id} is the number of section `id`.
const R = String.raw;

export default {
  title: 'Why the decoder is masked: a model that cheats',
  lede: R`Article 002 says the decoder’s self-attention must be masked so that position $i$ cannot see the tokens after it (<a href="#masking">section {§masking} of the walkthrough</a> shows the mask itself). Why it must is easiest to see by leaving the mask out and training anyway. Here one small model is trained twice in your browser, once without the mask and once with it, and both are scored the two ways a decoder can be scored.`,
  task: R`The model is a decoder only: it reads one sequence, the {length} source digits, a separator, then the digits reversed, and at every position predicts the next token. Trained with <i>teacher forcing</i>, it sees the whole correct sequence at once and is scored on every next token in one pass. When it <i>writes freely</i>, there are no correct answers to see: it writes one digit, reads it back, writes the next. The mask is what makes the two the same:`,
  formula: R`Without it ($M = 0$), row $i$ may look at column $i + 1$, and in training that column holds exactly the token row $i$ must predict.`,
  controls: { seed: 'Seed', newSeed: 'New seed' },
  buttons: { train: 'Train both', stop: 'Stop' },
  training: {
    title: 'Without the mask and with it, trained side by side',
    intro: R`Both models start from the same seed and train at once, each in a background thread: $d_{\text{model}} = 16$, 2 heads, 1 layer, batches of 32. Every 25 steps each is scored on 64 held-out sequences, with teacher forcing and writing freely. Each stops once its teacher-forced loss on them falls to 0.02, about zero (or after 1,000 steps); then both are scored on all 512 held-out sequences.`,
  },
  status: {
    idle: 'Not trained yet. Press “Train both”.',
    running: 'Training… without the mask: step {unmasked}; with it: step {masked}.',
    done: 'Done in {seconds} s: without the mask {unmasked} steps, with it {masked}.',
    stopped: 'Stopped. “Train both” starts again from step 0.',
    failed: 'Training failed: {message}',
  },
  counters: {
    unmasked: 'Without the mask: step {step}, loss {loss}, teacher-forced {accuracy}, writing freely {generated}',
    masked: 'With the mask: step {step}, loss {loss}, teacher-forced {accuracy}, writing freely {generated}',
  },
  runs: { unmasked: 'without the mask', masked: 'with the mask' },
  lines: {
    'unmasked-forced': 'without mask, teacher-forced',
    'unmasked-free': 'without mask, writing freely',
    'masked-forced': 'with mask, teacher-forced',
    'masked-free': 'with mask, writing freely',
  },
  charts: {
    xLabel: 'training step',
    step: 'step',
    loss: {
      title: 'Training loss against step',
      description: 'Mean cross-entropy of the training batches’ target digits at each point, log scale, for both models.',
      caption: 'Training loss (log scale)',
    },
    accuracy: {
      title: 'Held-out accuracy against step, two ways',
      description: 'Share of the target digits of 64 held-out sequences each model gets right with teacher forcing (solid) and writing freely (dashed).',
      caption: 'Held-out accuracy: teacher-forced and writing freely',
    },
  },
  table: { show: 'Show the numbers as a table', rowSum: 'row sum' },
  results: {
    title: 'The two numbers, side by side',
    caption: 'Both models on all 512 held-out sequences',
    figure: 'figure',
    steps: 'steps',
    loss: 'training loss',
    forced: 'teacher-forced accuracy',
    free: 'accuracy writing freely',
    sequences: 'whole sequences right',
    empty: 'The numbers appear when both models are done.',
  },
  maps: {
    title: 'Where each model looks',
    intro: 'The self-attention weights of each model on one held-out sequence (its two heads averaged), with teacher forcing, redrawn as the models train. Each row is a position reading (its token on the left), each column a token it may look at; darker is more weight. Cells above the diagonal are later tokens; the outlined cells are the token each row must predict.',
    sep: '|',
    caption: '{run}',
    rowAxis: 'reading ↓',
    colAxis: 'looked at →',
    reading: 'Above the diagonal: {future} of the weight. On the token to predict: {next}; on the source digit to copy: {source}.',
    empty: 'The maps appear when training starts.',
  },
  probe: {
    source: 'The sequence’s source:',
    target: 'reversed:',
    forced: '{run}, teacher-forced:',
    free: '{run}, writing freely:',
    right: '({right} of {total} right)',
  },
  summary: {
    unmasked: {
      fails: R`Without the mask the model reached {accuracy} teacher-forced accuracy in {steps} steps (training loss {loss}), but writing freely it gets only {generated} of the digits right ({sequences} of the sequences whole).`,
      generates: R`Without the mask the model reached {accuracy} teacher-forced accuracy in {steps} steps (training loss {loss}), and writing freely it still gets {generated} right ({sequences} of the sequences whole): this time it did not come to depend on the answers in view.`,
      short: R`Without the mask the model reached only {accuracy} teacher-forced accuracy in {steps} steps (training loss {loss}); writing freely, {generated}.`,
    },
    map: {
      ahead: R`Its map shows why: {future} of its weight lies above the diagonal, on tokens that come later, {next} of it on the very token each row must predict (against {source} on the source digit the answer copies). With the mask that share is {masked}.`,
      aheadAnyway: R`Its map still puts {future} of its weight above the diagonal, {next} on the very token each row must predict, but {source} on the source digit the answer copies: enough to write without the answers in view. With the mask the share above the diagonal is {masked}.`,
      plain: R`Its map puts {future} of its weight above the diagonal ({next} on the token to predict, {source} on the source digit the answer copies); with the mask, {masked}.`,
      behind: R`Its map puts only {future} of its weight above the diagonal ({next} on the token to predict, {source} on the source digit the answer copies); with the mask, {masked}.`,
    },
    masked: {
      generates: R`With the mask the model reached {accuracy} teacher-forced in {steps} steps (training loss {loss}) and {generated} writing freely ({sequences} of the sequences whole): the two numbers agree, because training showed it only what it will have when it writes.`,
      fails: R`With the mask the model reached {accuracy} teacher-forced in {steps} steps but only {generated} writing freely: unexpected for a model that never saw the answers.`,
      short: R`With the mask the model reached only {accuracy} teacher-forced accuracy in {steps} steps; writing freely, {generated}.`,
    },
    lesson: {
      cheat: R`Without the mask the low training loss measured how well the model copies an answer it can see, not how well it writes one: a gap of {gap} between the two scores.`,
      luck: R`With this seed the unmasked model happened to learn to read the source as well, and the mask made little difference. Other seeds need not: nothing in its training asked it to, and the mask is what guarantees it.`,
      mixed: R`This run did not come out as the article says; another seed may.`,
    },
  },
  after: R`<p>The mask costs nothing at generation time (generation is causal anyway: the future is not written yet). What it buys is that training measures the task the model will face. <a href="#positions-trained">Section {§positions-trained}</a> takes away something else the transformer needs: the order of the tokens.</p>`,
};
