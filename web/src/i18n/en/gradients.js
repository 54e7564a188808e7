// Section "gradients" text (English). HTML allowed; $...$ is TeX (MathML at
// build time); {name} is filled in at run time with a computed value;
// {§id} is the number of section `id`.
const R = String.raw;

export default {
  title: R`The gradient itself: what $\sqrt{d_k}$ saves`,
  lede: R`<a href="#scaling">Section {§scaling}</a> measured how far the weights saturate and read the gradient off a stand-in, $\sum p(1-p)$. Here is the gradient itself: the backward pass of the engine (the same C++ core that trains the model further down) computes how much each query and each key would have to change, with and without the division by $\sqrt{d_k}$. Then the same small model is trained twice, once each way, and the two runs are compared.`,
  backward: {
    intro: R`Attention is a chain of three steps: scores, softmax, mix. With $c$ the scale:`,
    text: R`A loss downstream sends back $dO$, how it would like each output to change. The backward pass carries it through the chain in reverse (in the notation of the FlashAttention-2 paper):`,
    sweep: R`The step that matters is the middle one. Row by row, $dS$ is $P$ times something: where a row of $P$ is almost one-hot, little passes back, and $dQ$ and $dK$ inherit that. The sweep below measures it.`,
  },
  controls: { seed: 'Seed', newSeed: 'New seed' },
  columns: {
    raw: 'Raw',
    scaled: R`Divided by $\sqrt{d_k}$`,
    rawPlain: 'raw',
    scaledPlain: 'divided by √dₖ',
  },
  sweep: {
    title: R`The gradient that reaches each query and each key, against $d_k$`,
    intro: R`At each $d_k$ from 4 to 1024: 32 trials, each drawing 8 queries and 8 keys ($d_k$ wide), 8 values and an upstream gradient $dO$ ($d_v = 8$) as standard normals from the seed, the same seed at every $d_k$. For every query $i$ the size of its gradient, $\lVert\partial L/\partial q_i\rVert$; for every key, $\lVert\partial L/\partial k_j\rVert$ — 256 of each per $d_k$. The plots show the median, with a bar over the middle half.`,
    xLabel: R`$d_k$ (log scale)`,
    plotDescription: 'Median size of the gradient, raw and divided by the square root of dₖ, at dₖ = 4 to 1024, on a log scale; the numbers are in the table below.',
    plots: {
      query: { title: 'Gradient reaching each query against d_k', caption: R`$\lVert\partial L/\partial q_i\rVert$, median and middle half` },
      key: { title: 'Gradient reaching each key against d_k', caption: R`$\lVert\partial L/\partial k_j\rVert$, median and middle half` },
    },
    table: {
      query: R`Queries: $\lVert\partial L/\partial q_i\rVert$`,
      key: R`Keys: $\lVert\partial L/\partial k_j\rVert$`,
      raw: 'raw',
      scaled: R`$\div\sqrt{d_k}$`,
      vanished: R`raw $< 10^{-3}$`,
    },
    caption: 'Median (middle half) over {trials} trials of {n} queries and {m} keys, dᵥ = {dv}, seed {seed}; and the share of raw gradients below 10⁻³',
    running: 'Computing the backward passes…',
    done: 'Computed by the engine’s backward pass on this page, in short slices between frames: {ms} ms from the first to the last.',
    summary: {
      scaledSteady: R`With the division, the median query receives a gradient of {s1} at $d_k$ = {d1} and {sN} at $d_k$ = {dN}: about the same at every width.`,
      scaledChanges: R`With the division, the median query receives a gradient of {s1} at $d_k$ = {d1} and {sN} at $d_k$ = {dN}.`,
      rawVanishes: R`Without it, the median falls to <b>{rN}</b> at $d_k$ = {dN}, <b>{ratio}</b> times less, and {share} of the queries receive less than $10^{-3}$.`,
      rawSmaller: R`Without it, the median is {rN} at $d_k$ = {dN}, {ratio} times less, and {share} of the queries receive less than $10^{-3}$.`,
      rawNotSmaller: R`Without it, the median is {rN} at $d_k$ = {dN}: with this seed, not smaller than with the division.`,
      rawLargerFirst: R`Up to $d_k$ = {dCross} the raw median is the larger one ({r1} against {s1} at $d_k$ = {d1}): nothing shrinks the gradient by $1/\sqrt{d_k}$, and the weights are not yet saturated.`,
      rawConcentrated: R`A quarter of the queries still receive more than {rHigh} at $d_k$ = {dN}, against a median of {sN} with the division: without it the gradient does not shrink evenly, it reaches fewer and fewer queries — those whose weights stay spread.`,
      keys: {
        smaller: R`For the keys, at $d_k$ = {dN}: a median of {rN} without the division against {sN} with it, {ratio} times less; {share} of the keys receive less than $10^{-3}$.`,
        notSmaller: R`For the keys, at $d_k$ = {dN}: a median of {rN} without the division against {sN} with it, not smaller with this seed.`,
      },
    },
  },
  why: {
    title: 'Why: the softmax Jacobian of one row',
    text: R`Row by row, $dS$ is the softmax’s Jacobian applied to $dP$. Its entries are products of the weights: when one weight is close to 1 and the others close to 0, every entry is close to 0. $J$ is positive semi-definite, so no entry and no direction of it is larger than its trace $\sum_i p_i(1-p_i)$: the trace bounds what gets through.`,
  },
  row: {
    title: 'One row of weights and its Jacobian',
    intro: R`One query of the sweep’s first trial, at the $d_k$ and the query you choose: its eight weights, and the Jacobian of the softmax at those weights (blue positive, orange negative, one colour scale for both), raw and divided.`,
    controls: { dk: 'Dimension <i>d</i><sub>k</sub>', query: 'Query' },
    weights: { raw: 'Weights of the raw scores', scaled: R`Weights of the scores $\div\sqrt{d_k}$` },
    jacobian: { raw: R`$J$ of the raw row`, scaled: R`$J$ of the divided row` },
    barsLabel: 'Weights of keys 1 to 8: {values}',
    stats: R`largest weight <b>{max}</b> · $\operatorname{tr}J$ = {trace} · largest $\lvert J_{ij}\rvert$ = {largest} · $\lVert\partial L/\partial q\rVert$ = {gradient}`,
    summary: {
      saturated: R`Query {query} at $d_k$ = {dk}: without the division its largest weight is <b>{max}</b> and the trace of $J$ is <b>{trace}</b>, against {strace} with it ({traceRatio} times less). Whatever the loss asks of these weights, the scores of this row receive at most {trace} times as much. The query gets a gradient of {gradient}, against {sgradient} with the division.`,
      spread: R`Query {query} at $d_k$ = {dk}: without the division its largest weight is {max}, with it {smax}; the trace of $J$ is {trace} against {strace}. This row is not saturated, and the softmax still passes a gradient back: {gradient} without the division, {sgradient} with it. A larger $d_k$ or another query shows a saturated one.`,
    },
  },
  decisive: {
    title: 'The decisive experiment: train it both ways',
    text: R`A gradient that vanishes for most queries should slow learning down. To see whether it does, the small translation model of <a href="#learning">section {§learning}</a> (one attention layer; here one head, so $d_k = d_{\text{model}}$) is trained twice from the same seed — the same initial weights, the same batches — once with the scores divided by $\sqrt{d_k}$ and once without. Each run trains in its own background thread (in a page opened from a file, on the page, between frames).`,
  },
  experiment: {
    title: 'Two runs, side by side',
    intro: R`The task: English sentences of a toy grammar into Korean (section {§learning}). Every few steps both models are evaluated on held-out sentences that training never sees.`,
    controls: { dk: 'Dimension <i>d</i><sub>k</sub> = <i>d</i><sub>model</sub>', steps: 'Steps' },
    plan: R`$d_k$ = {dk}, {steps} steps of 32 sentences each, evaluated every {every} steps.`,
    run: 'Train both',
    stop: 'Stop',
    runs: { scaled: R`divided by $\sqrt{d_k}$`, raw: 'raw' },
    runsPlain: { scaled: 'divided by √dₖ', raw: 'raw' },
    xLabel: 'training step',
    step: 'step',
    loss: {
      title: 'Held-out loss against training step',
      description: 'Cross-entropy on held-out sentences, with and without the division, on a log scale.',
      caption: 'Held-out loss (cross-entropy, log scale)',
    },
    accuracy: {
      title: 'Held-out accuracy against training step',
      description: 'Share of held-out target words the model gets right, with and without the division.',
      caption: 'Held-out accuracy (share of target words right)',
    },
    idle: 'Not run yet: press “Train both”.',
    running: 'Training… step {scaled} with the division, {raw} without.',
    done: 'Both runs done: {steps} steps at dₖ = {dk}.',
    stopped: 'Stopped.',
    failed: 'The experiment failed: {message}',
    summary: {
      scaledFaster: R`With the division, held-out accuracy reached {target} after <b>{a}</b> steps; without it, after <b>{b}</b>: {times} times as many steps, for the same model on the same batches.`,
      rawFaster: R`With the division, held-out accuracy reached {target} after {a} steps; without it, after {b}: here the model without the division was {times} times faster. At this width and with this seed, the division did not help.`,
      same: R`Both reached {target} held-out accuracy after about as many steps: {a} with the division, {b} without. At this width and with this seed, the division made no clear difference.`,
      onlyScaled: R`With the division, held-out accuracy reached {target} after <b>{a}</b> steps; without it, it had not after {steps} (it ended at {accRaw}).`,
      onlyRaw: R`Without the division, held-out accuracy reached {target} after {b} steps; with it, it had not after {steps} (it ended at {accScaled}). At this width and with this seed, the division did not help.`,
      neither: R`Neither run reached {target} held-out accuracy in {steps} steps: it ended at {accScaled} with the division and {accRaw} without.`,
      loss: R`Held-out loss after {steps} steps: {lossScaled} with the division, {lossRaw} without.`,
    },
  },
  after: R`<p>Section {§scaling}’s argument, that the division keeps the scores at one spread whatever $d_k$ is, is about the forward pass. The backward pass shows what it buys: rows of weights that are not saturated, through which the gradient reaches the queries and the keys — and a model that can learn through them.</p>`,
};
