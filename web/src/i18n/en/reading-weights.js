// Section 3 text (English). HTML allowed; $...$ is TeX (MathML at build time);
// {name} is filled in at run time with a computed value.
const R = String.raw;

export default {
  title: 'Reading a weight matrix',
  lede: R`Attention is a weighted average, and what is unusual about it is that the weights are not learned constants: they are computed afresh from every input. They never appear in the output, but they can be taken out and drawn. The Korean article <cite>Taking the attention weights out</cite> does this with six tokens in three topics.`,
  setup: R`To see what comes from the structure rather than from training, the projections are left out: $Q = K = V = X$. The six embeddings $x_0,\dots,x_5$ are the rows of $X = c\,M$ with $c$ = {factor}; $t_0$ and $t_3$ share a topic (●), so do $t_1$ and $t_4$ (■), and $t_2$ and $t_5$ (▲).`,
  panelTitle: 'Six tokens, three topics',
  inputs: {
    hint: R`Edit any entry of $M$, or the factor $c$: the weights follow at once.`,
    factor: 'Scale factor c',
    factorShort: R` with $c$ =`,
    caption: R`The matrix $M$ (a row per token, $d = 4$)`,
    cell: 'M, token {token}, component {i}',
    error: '{message} The numbers shown are from the last valid input.',
  },
  heatmap: {
    caption: R`The weights $A$: row $i$ is where token $t_i$ looks`,
    rowAxis: 'query token ↓',
    colAxis: 'key token →',
  },
  gaze: {
    picker: 'Whose gaze? (or hover a row)',
    title: 'The gaze of {token}',
    self: 'itself',
    pair: 'its topic pair',
    summarySelf: R`{token} gives <b>{self}</b> to itself and <b>{pairWeight}</b> to {pair}, its topic pair: together {topTwo}. The other four tokens share {rest} (each between {restMin} and {restMax}); the pair gets {ratio} times as much as the least of them.`,
    summaryPair: R`{token} gives <b>{pairWeight}</b> to {pair}, its topic pair — <em>more</em> than the <b>{self}</b> it gives itself. Together {topTwo}; the other four share {rest} (each between {restMin} and {restMax}).`,
  },
  why: {
    title: 'Why a token can look at its pair more than at itself',
    intro: R`Attention has no rule that a token looks at itself. The one rule is similarity, and the dot product measures similarity together with length:`,
    self: R`For {token}, itself wins: $x\cdot x$ = {selfDot} against {pairDot} with {pair}. Its own length ‖{token}‖ = {selfNorm} is at least that of {pair} (‖{pair}‖ = {pairNorm}), and no other vector points the same way more closely than itself (cos θ = 1).`,
    pair: R`For {token}, the pair wins: {token} · {pair} = <b>{pairDot}</b> is larger than {token} · {token} = ‖{token}‖² = <b>{selfDot}</b>. The two point almost the same way (cos θ = {cos}), and {pair} is the longer one: ‖{pair}‖ = {pairNorm} against ‖{token}‖ = {selfNorm}. Length enters the dot product, so the longer neighbour outscores the token itself.`,
    selfAligned: R`For {token}, itself wins, although {pair} is longer (‖{pair}‖ = {pairNorm} against ‖{token}‖ = {selfNorm}): the two point apart (cos θ = {cos}), so {token} · {pair} = {pairDot} stays below {token} · {token} = ‖{token}‖² = {selfDot}.`,
    tableCaption: R`Dot products and norms of the selected token (from the engine’s logits $L = XX^\top$)`,
    columnsPlain: { dot: 'x_i · x_j', norm: 'length of x_j', cos: 'cos θ_ij', weight: 'weight A_ij' },
    columns: {
      dot: R`$x_i\cdot x_j$`,
      norm: R`$\lVert x_j\rVert$`,
      cos: R`$\cos\theta_{ij}$`,
      weight: R`$A_{ij}$`,
    },
  },
  controls: {
    seed: R`Seed of $W_Q$, $W_K$`,
    newSeed: 'New seed',
  },
  symmetry: {
    title: R`The price of $Q = K$: symmetric logits`,
    intro: R`With $Q = K = X$ the logit matrix $L = XX^\top$ is symmetric, exactly: how much $t_0$ looks at $t_3$ and how much $t_3$ looks at $t_0$ are forced to be equal before the softmax. A real Transformer uses separate projections $W_Q$ and $W_K$, and then they are not.`,
    panelTitle: 'Symmetric by construction, and not',
    sameTitle: R`$Q = K = X$`,
    separateTitle: R`Separate random $W_Q$, $W_K$`,
    measuredMax: R`Computed: $\max_{ij}\lvert L_{ij}-L_{ji}\rvert$ =`,
    measuredMedian: R`Computed: median of $\lVert L-L^\top\rVert_F/\lVert L\rVert_F$ =`,
    paths: 'Computed on the engine’s reference path, which adds each dot product in double precision in one fixed order. The SIMD path, which may add the same four products in another order, gives {fast}.',
    rowsDiffer: R`The weights are still not symmetric, because each row is normalised on its own: $L_{03}$ = {l03} = $L_{30}$ = {l30}, yet $A_{03}$ = {a03} and $A_{30}$ = {a30}.`,
    range: R`Over {pairs} random pairs ($d\times d$ entries from $\mathcal N(0, 1/d)$, seed {seed}): from {min} to {max}. In the first pair, the largest $\lvert L_{ij}-L_{ji}\rvert$ is {example}. ($0$ would mean symmetric; $2$ antisymmetric.)`,
    diffSymmetric: R`$L - L^\top$ with $Q = K = X$`,
    diffRandom: R`$L - L^\top$ with the first random $W_Q$, $W_K$`,
  },
  after: R`<p>So separate $W_Q$ and $W_K$ do more than choose which similarity to measure: they give looking a direction, so that $t_i$ can score $t_j$ highly while $t_j$ scores $t_i$ low. With $Q = K$ the two scores are always equal; only the normalisation of each row makes $A_{ij}$ and $A_{ji}$ differ, as the panel above shows.</p><p>Every row sums to 1: attention distributes, it does not select. Nothing here was learned; similar embeddings have large dot products, and large dot products get large shares. Where the tokens sit in the sequence played no part at all — which is the subject of <a href="#order">section {§order}</a>.</p>`,
};
