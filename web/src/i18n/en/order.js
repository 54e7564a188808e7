// Section 9 text (English). HTML allowed; $...$ is TeX (MathML at build time);
// {name} is filled in at run time with a computed value.
const R = String.raw;

export default {
  title: 'Order: attention does not see it',
  lede: R`The weight matrix of <a href="#reading-weights">section {§reading-weights}</a> was made from the tokens’ contents alone. Their positions went in nowhere. So what happens if the sentence is shuffled?`,
  why: R`Write the shuffle as a permutation matrix $P$: row $r$ of $PX$ is token $\pi(r)$. Then $PXX^\top P^\top$ is the old logit matrix with its rows and columns moved, the softmax of each row does not care where its entries stand, and $P^\top P = I$:`,
  whyAfter: R`Shuffle the input and the output is shuffled the same way: no value changes, only places. For attention there is no “before” and “after”.`,
  panelTitle: 'Shuffle the six tokens',
  hint: R`The six tokens of section {§reading-weights}, with $Q = K = V$. Choose a permutation or shuffle at random; each output row of the shuffled sequence is compared with the output its token had before.`,
  perm: {
    label: 'Permutation π',
    help: R`Six numbers, each of 0 to 5 once: position $r$ gets token $t_{\pi(r)}$. The article of section {§reading-weights} uses 3, 1, 5, 0, 4, 2.`,
    shuffle: 'Shuffle',
    reset: 'Back to 3, 1, 5, 0, 4, 2',
    sequenceLabel: 'The shuffled sequence, position by position',
    slot: 'pos {p}',
    errors: {
      count: 'Give {n} numbers (there are {count}).',
      range: 'Use whole numbers from 0 to {last} (“{value}” is not one).',
      repeat: 'Each number once: {value} appears twice.',
    },
  },
  result: {
    label: R`Largest difference between $\operatorname{Attention}(PX)$ and $P\,\operatorname{Attention}(X)$:`,
    zero: 'Exactly 0: every token’s output moved with the token, bit for bit. Attention cannot tell the two orders apart.',
    identity: 'Exactly 0 — but nothing was moved: this permutation keeps every token in its place.',
    nonzero: 'With positional encodings, a token’s output depends on where it stands: the outputs no longer just move with the tokens.',
    nonzeroFixed: 'With positional encodings, a token’s output depends on where it stands. Even the tokens that kept their position ({fixed}) change a little, because the others moved around them.',
    paths: 'Computed on the engine’s reference path, which accumulates in double precision. The SIMD path adds in single precision, where another order of the same terms can change the last bit: there the largest difference is {fast}.',
  },
  rows: {
    caption: 'Row by row: the output at each position of the shuffled sequence, against the output its token had in the original order',
    columns: {
      position: 'position',
      token: 'token',
      shuffled: 'output, shuffled input',
      original: 'output, original order',
      difference: 'largest |difference|',
    },
  },
  heatmaps: {
    original: 'Weights, original order',
    shuffled: 'Weights, shuffled order',
  },
  pe: {
    toggle: 'Add positional encodings',
    title: 'Positional encodings',
    intro: R`In a sentence, order is meaning, so the Transformer adds the position to each token before the first layer: $x_{pos} + \mathrm{PE}_{pos}$, with the sinusoids of Vaswani et al. Each dimension is a wave of its own wavelength, so every position gets a distinct pattern.`,
    panelTitle: R`The encodings for six positions, $d = 4$`,
    caption: R`$\mathrm{PE}$: a row per position, a column per dimension (computed by the engine)`,
    position: 'pos {p}',
    dimension: 'dim {i}',
    note: R`With $d = 4$, dimensions 0 and 1 turn once every $2\pi$ positions and dimensions 2 and 3 a hundred times slower. Switch the encodings on above: the same token now enters attention differently at different places, and the largest difference is no longer 0.`,
  },
  after: R`<p>Without positional information a Transformer could not tell “dog bites man” from “man bites dog”. Positional encodings are not decoration: they supply exactly the information that attention, by its construction, leaves out.</p>`,
};
