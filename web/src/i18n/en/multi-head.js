// Section 6 text (English). HTML allowed; $...$ is TeX; {name} filled at run time.
const R = String.raw;

export default {
  title: 'Multi-head attention',
  lede: R`One attention over all $d_{\mathrm{model}}$ dimensions gives one way of looking at the sequence. Multi-head attention splits it into $h$ heads of $d_k = d_{\mathrm{model}}/h$ dimensions each. Every head has its own projections, so every head scores the tokens by its own criterion; their outputs are concatenated and mixed back together by $W^O$.`,
  random: R`Below, six tokens with $d_{\mathrm{model}} = 8$. Their embeddings and the projections $W^Q, W^K, W^V, W^O$ are random numbers from the engine’s seeded generator — a trained model would have learned them — so the patterns carry no linguistic meaning. What they show is the mechanism: the same projections, split into more heads, give several different weight patterns.`,
  tokens: ['the', 'hungry', 'student', 'soon', 'ate', 'it'],
  panelTitle: R`Six tokens, $h$ heads`,
  controls: {
    heads: 'Number of heads',
    redraw: 'Draw new projections',
    seed: 'seed {seed}',
  },
  summary: '<i>h</i> = {h} heads of <i>d<sub>k</sub></i> = {dk} dimensions each; every head computes its own weights:',
  summaryOne: 'One head of <i>d<sub>k</sub></i> = {d} dimensions: plain attention over the full width.',
  headCaption: 'Head {i} · <i>d<sub>k</sub></i> = {dk}',
  combine: {
    title: R`Concatenate, then mix with $W^O$`,
    text: R`Each head outputs $n \times d_k$ numbers. Side by side they make an $n \times d_{\mathrm{model}}$ matrix again, one band per head, and $W^O$ mixes the bands so that every output dimension can draw on every head. Colours: blue for positive, brown for negative, more vivid the larger the value; the numbers are in the tables.`,
    concat: 'Concat(head<sub>1</sub>, …, head<sub><i>h</i></sub>)',
    wo: R`Output projection $\roleo{W^O}$`,
    output: 'Output',
  },
  cost: {
    title: 'The same cost as one wide head',
    text: R`Do more heads cost more? No. Each head multiplies matrices $d_k$ wide, and $h$ heads of $d_k = d_{\mathrm{model}}/h$ do exactly the work of one head of full width:`,
    caption: R`Floating-point operations for $n = 6$, $d_{\mathrm{model}} = 8$ (a multiply-add counts as 2)`,
    columns: {
      h: R`heads $h$`,
      dk: R`head size $d_k$`,
      scores: R`$QK^\top$, all heads`,
      mix: R`weights × $V$, all heads`,
      attention: 'attention products',
      projections: R`projections $W^Q, W^K, W^V, W^O$`,
      exps: 'softmax exponentials',
    },
    note: R`With $h$ = {h}: {attention} FLOPs in the attention products — the same for every $h$ ($4n^2 d_{\mathrm{model}}$ with $n$ = {n}, $d_{\mathrm{model}}$ = {d}). Only the softmax grows with $h$ ({exps} exponentials, one per score of every head), and it is small next to the products.`,
  },
  after: R`<p>The original Transformer uses $d_{\mathrm{model}} = 512$ and $h = 8$, so each head works in $d_k = 64$ dimensions. Heads are free to specialise: in trained models some follow syntax, some track the previous token, some find long-range links. Here, with random projections, they merely differ — the precondition for specialising.</p>`,
};
