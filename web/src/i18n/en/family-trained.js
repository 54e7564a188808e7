// Section "family-trained" text (English). HTML allowed; $...$ is TeX (MathML
// at build time); {name} is filled in at run time with a computed value;
// {§id} is the number of section `id`.
const R = String.raw;

export default {
  title: 'The family, trained',
  lede: R`<a href="#family">Section {§family}</a> computed Bahdanau’s and Luong’s scores with random weights. In a translator those weights are learned: the alignment model is, in Bahdanau et al.’s words, “jointly trained with all the other components”. Here each variant learns the same task from the same seed, side by side in your browser: how fast it learns, and where it learns to look.`,
  models: {
    bahdanau: R`Bahdanau’s model scores the encoder states against the decoder’s <em>previous</em> state $s_{t-1}$, and the context goes into the step that makes $s_t$:`,
    luong: R`Luong’s model first makes the current state $h_t$, then scores against it, and puts the context into the output $\tilde h_t$ afterwards: “our computation path is simpler”, as the paper says. Its encoder here is one GRU read left to right. Three scores:`,
    local: R`A <b>global</b> window scores every source position. A <b>local-p</b> window predicts where to look, $p_t$, and weighs each position by a Gaussian around it ($D$ = {half}); the weights are not renormalised, as in the paper:`,
    feeding: R`With <b>input feeding</b>, the output of the step before, $\tilde h_{t-1}$, goes into the next step with the previous word, so that the model knows where it has already looked:`,
    tasks: R`Every variant is a GRU translator of width $d_{\text{model}}$ = {dModel}, trained on batches of {batch} sentences until it writes {target} of the words right on held-out sentences, writing freely (on the first {examples}, every {every} steps), or until {steps} steps; then it is measured on all of them. <b>Translate</b>: a toy English that becomes Korean word order with particles, with optional adjectives, adverbs, places and times, so the alignment moves from sentence to sentence. <b>Reverse</b>: {length} digits written backwards, where the reference alignment is the anti-diagonal. Up to {max} variants train at once, two at a time in background threads.`,
  },
  controls: {
    task: 'Task',
    tasks: { translate: 'English → Korean', reverse: 'Reverse {length} digits' },
    seed: 'Seed',
    newSeed: 'New seed',
    modelsLegend: 'Models',
    models: { bahdanau: 'Bahdanau (additive)', dot: 'Luong dot', general: 'Luong general', concat: 'Luong concat' },
    window: 'Luong’s window',
    windows: { global: 'global', local: 'local-p', both: 'both' },
    feeding: 'Input feeding',
    feedings: { on: 'on', off: 'off', both: 'both' },
    count: '{count} variants to train.',
    none: 'Choose at least one model.',
    tooMany: 'That makes {count} variants; at most {max} train at once here. Turn off a model, or choose one window or one feeding.',
  },
  buttons: { play: 'Train them', stop: 'Stop' },
  variants: {
    bahdanau: 'Bahdanau',
    luong: 'Luong {score} · {window} · {feeding}',
    scores: { dot: 'dot', general: 'general', concat: 'concat' },
    windows: { global: 'global', local: 'local-p' },
    feeding: { on: 'feeding', off: 'no feeding' },
  },
  training: {
    title: 'The variants, trained side by side',
    intro: 'Each variant starts from the same seed and sees the same kind of sentences. Its curve ends where it reaches the target.',
  },
  status: {
    idle: 'Press “Train them”.',
    running: 'Training… {done} of {count} variants done.',
    done: 'Done: {count} variants in {seconds} s in this browser.',
    stopped: 'Stopped with {done} of {count} variants done. Training again starts every variant afresh.',
    failed: 'Training failed: {message}',
  },
  charts: {
    xLabel: 'training step',
    step: 'step',
    loss: {
      title: 'Training loss against step',
      description: 'Cross-entropy of the batch of each evaluated step, one line per variant, on a log scale.',
      caption: 'Training loss (cross-entropy, log scale)',
    },
    accuracy: {
      title: 'Held-out accuracy against step',
      description: 'Share of the words of the first 64 held-out sentences each variant writes right, writing freely, one line per variant.',
      caption: 'Held-out accuracy (words written right, first 64 held-out sentences)',
    },
  },
  results: {
    caption: 'Steps to {target} on the held-out part; at the end, accuracy on every held-out example, and how often the largest attention weight sat on the reference’s token ({examples} held-out examples).',
    variant: 'Variant',
    steps: 'Steps to {target}',
    accuracy: 'Held-out accuracy',
    agreement: 'Alignment agreement',
    waiting: 'waiting',
    training: 'step {step}: {accuracy}',
    notReached: 'not within {steps}',
  },
  maps: {
    intro: 'What each variant learned to look at in the same probe example (rows: the tokens it writes; columns: the source; darker: more weight). Dashed: the source token the reference points to in each row. For local-p, the line under the cells is its window, the tick its predicted position $p_t$.',
    on: 'Largest weight where the reference points: {on} of {aligned} rows.',
    off: 'One position right of it: {right}; one left: {left}.',
    window: 'Window centred within {half} positions of that: {inside} of {aligned}.',
    positionsTable: 'Show the predicted positions as a table',
    output: 'Output word',
    position: 'Predicted position $p_t$ (from 1)',
    reference: 'Reference position (from 1)',
  },
  summary: {
    and: ', ',
    separator: '; ',
    pair: '{score} {a} against {b}',
    notReached: 'not within {steps}',
    reach: {
      all: 'All {count} variants reached {target} on the held-out part: {fastest} first, at step {fastestSteps}; {slowest} last, at step {slowestSteps}.',
      one: '{variant} reached {target} on the held-out part at step {steps}.',
      some: '{reached} of {count} variants reached {target} on the held-out part within {steps} steps; {missed} did not (the lowest held-out accuracy among them: {lowest}).',
      none: 'None of the {count} variants reached {target} on the held-out part within {steps} steps (the lowest held-out accuracy: {lowest}).',
    },
    alignment: {
      translate: 'Where they look: over {examples} held-out sentences, the largest weight of a content word sat on its English source word for {low} ({lowVariant}) to {high} ({highVariant}) of them.',
      reverse: 'Where they look: over {examples} held-out sequences, the largest weight of an output digit sat on the digit it copies for {low} ({lowVariant}) to {high} ({highVariant}) of them.',
      one: {
        translate: 'Where it looks: over {examples} held-out sentences, the largest weight of a content word sat on its English source word for {share} of them.',
        reverse: 'Where it looks: over {examples} held-out sequences, the largest weight of an output digit sat on the digit it copies for {share} of them.',
      },
    },
    elsewhere: 'Right without looking where the reference does: {variants} wrote at least {well} of the output right while their largest weight sat on the reference’s source position for less than half of it. The peak of the attention is not the only way to the right output.',
    probe: {
      translate: 'In the probe’s maps, over all {count} variants, the largest weight of a content word sits on its source word in {on} of {aligned} rows, one word right of it in {right}, one word left in {left}.',
      reverse: 'In the probe’s maps, over all {count} variants, the largest weight sits on the digit being copied (the anti-diagonal) in {on} of {aligned} rows, one position right of it (the digit written just before) in {right}, one left in {left}.',
      one: {
        translate: 'In the probe’s map, the largest weight of a content word sits on its source word in {on} of {aligned} rows, one word right of it in {right}, one word left in {left}.',
        reverse: 'In the probe’s map, the largest weight sits on the digit being copied (the anti-diagonal) in {on} of {aligned} rows, one position right of it (the digit written just before) in {right}, one left in {left}.',
      },
    },
    shifted: {
      reverse: 'In the probe, most of the largest weights of {variants} sit one position right of the reference: on the source digit the model has just written. The decoder finds that digit by its content, and reads its neighbour, the digit to write next, from the encoder state there.',
      translate: 'In the probe, most of the largest weights of {variants} sit one word right of the reference’s word.',
    },
    local: {
      translate: 'The local-p window of {variants} was centred within {half} positions of the reference’s word for {inside} of {total} words of the probe.',
      reverse: 'The local-p window of {variants} was centred within {half} positions of the digit being copied for {inside} of {total} digits of the probe.',
    },
    pairs: {
      feeding: 'Steps to {target}, with input feeding against without: {list}.',
      window: 'Steps to {target}, global against local-p: {list}.',
    },
  },
  after: R`<p>The score is the smaller choice. What changes more is where the attention sits in the step (before the state, Bahdanau; after it, Luong), whether the model is told where to look (local-p), and what it carries from one step to the next (input feeding). <a href="#bottleneck">Section {§bottleneck}</a> shows what any of them gains over no attention at all.</p>`,
};
