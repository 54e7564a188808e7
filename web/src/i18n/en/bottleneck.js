// Section "bottleneck" text (English). HTML allowed; $...$ is TeX (MathML at
// build time); {name} is filled in at run time with a computed value;
// {§id} is the number of section `id`.
const R = String.raw;

export default {
  title: 'The bottleneck: one vector for a whole sentence',
  lede: R`Article 002 starts from a doubt about Seq2Seq. The encoder reads the input in order and leaves one context vector $c$; the decoder writes its output from $c$ alone. Four words or forty, $c$ has the same size. The article quotes the paper that first named the problem and fixed it:`,
  quote: {
    lang: 'en',
    text: 'A potential issue with this encoder–decoder approach is that a neural network needs to be able to compress all the necessary information of a source sentence into a fixed-length vector. This may make it difficult for the neural network to cope with long sentences.',
    source: R`— Bahdanau, Cho and Bengio, <cite>Neural Machine Translation by Jointly Learning to Align and Translate</cite> (2015)`,
    gloss: R`Their Figure 2 showed it on English–French translation: the plain encoder–decoder’s BLEU score falls as the sentences grow longer, while their model with attention holds up. Here the same comparison is trained in your browser, at toy scale, and the numbers below are this page’s, not the paper’s.`,
  },
  model: {
    plain: R`Both models read the source with GRUs of width $d_{\text{model}} = 32$ and write their output one token at a time, each step reading the token written before. The plain model (the encoder–decoder of Sutskever et al. and Cho et al., 2014) starts its decoder from the encoder’s last state and gets nothing else:`,
    attentive: R`Bahdanau’s model keeps every encoder state $h_j$ (from a bidirectional GRU, so $h_j$ knows what lies on both sides of position $j$). At each step it scores them all against the decoder’s previous state $s_{t-1}$, mixes them into a context $c_t$, and feeds that to the step:`,
    task: R`The task is to write a sequence of random digits backwards. It needs no grammar, only memory: the first digit to write is the last one read, and the last to write is the first read, which the plain model has carried through every step of its encoder. Each model trains on fresh sequences, 32 at a time, until it writes at least {target} of the digits right on sequences it has never seen, writing freely (each digit it writes is the input of its next step), or until its step budget runs out; then it is evaluated on every held-out sequence. Guessing would get about one digit in ten. Sources of {lengths} digits: {count} runs, two at a time, one in each of two background threads.`,
  },
  controls: {
    steps: 'Steps per run (at most)',
    seed: 'Seed',
    newSeed: 'New seed',
  },
  buttons: { play: 'Train the sweep', stop: 'Stop' },
  models: {
    rnn: { short: 'Plain encoder–decoder' },
    bahdanau: { short: 'Bahdanau (attention)' },
  },
  sweep: {
    title: 'Accuracy against length, trained here',
    intro: 'Both models at every length, from the same seed, with the same step budget. Each point appears when its run has finished and been evaluated.',
  },
  status: {
    idle: 'Press “Train the sweep”: {count} runs, two at a time.',
    running: 'Training… {done} of {count} runs done.',
    done: 'Done: {count} runs in {seconds} s in this browser.',
    stopped: 'Stopped with {done} of {count} runs done. Training again starts every run afresh.',
    failed: 'The sweep failed: {message}',
  },
  chart: {
    title: 'Held-out accuracy against source length',
    description: 'For each model, the share of held-out digits it writes right, writing freely, against the number of digits in the source.',
    caption: 'Held-out accuracy (digits written right) against the length of the source',
    xLabel: 'source length (digits)',
    yLabel: 'held-out accuracy',
  },
  runs: {
    caption: 'Each run: while it trains, its accuracy on the first {part} held-out sequences; when it ends, on all of them.',
    length: 'Digits',
    waiting: 'waiting',
    starting: 'starting…',
    training: 'step {step}: {accuracy}',
    evaluating: 'step {step}: evaluating…',
    reached: '{accuracy} ({target} by step {step})',
    budget: '{accuracy} (after {steps} steps)',
  },
  summary: {
    plain: {
      falls: 'The plain model fell with the length: {from} at {first} digits, {to} at {last}.',
      holds: 'The plain model held up at every length this time: {lowest} or more, {to} at {last} digits.',
      flat: 'The plain model did not fall much with the length this time: {from} at {first} digits, {to} at {last}.',
      upTo: 'It stayed at {holds} or more up to {length} digits; at {next} it got {accuracy}.',
      never: 'It stayed below {holds} even at {first} digits ({accuracy}).',
    },
    attentive: {
      holds: 'The attentive model held at every length: {lowest} or more.',
      falls: 'The attentive model fell below {holds} too, at {lengths} digits (lowest {worst}, at {at} digits).',
    },
    verdict: {
      figure: 'That is the shape of Bahdanau et al.’s Figure 2, measured here: the one vector loses the long sequences, attention does not.',
      not: 'So this sweep did not come out in the shape of the paper’s Figure 2. Another seed or a larger step budget shows whether that holds.',
    },
    budget: {
      all: 'Within {steps} steps the attentive model reached {target} on the held-out part at every length, by step {slowest} at the latest; the plain model at {plainReached} of {count} lengths.',
      some: 'Within {steps} steps the attentive model reached {target} on the held-out part at {attentiveReached} of {count} lengths, the plain model at {plainReached}.',
    },
  },
  after: R`<p>The attentive model is not simply bigger: its decoder has the same width. What it has is a way around the bottleneck. At each step its attention reads the encoder state it needs, so the source no longer has to fit into one vector. <a href="#family-trained">Section {§family-trained}</a> trains Bahdanau’s model beside Luong’s variants and shows where each of them learned to look.</p>`,
};
