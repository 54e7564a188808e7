// Section 4 text (English). HTML allowed; $...$ is TeX; {name} filled at run time.
const R = String.raw;

export default {
  title: 'Self-attention on a sentence',
  lede: R`In self-attention a sequence attends to itself: every token is at once a query, a key and a value. The Korean article <cite>The attention mechanism of the Transformer: self-attention, cross-attention, multi-head</cite> writes the Korean sentence “Karina가 가게에 간다” (Karina goes to the store) as five English tokens — <i>karina, is, to, the, store</i> — with two-dimensional embeddings, and keeps the projections out of the way ($W^Q = W^K = W^V = I$), so that $Q = K = V = X$.`,
  panelTitle: 'Five tokens, every matrix',
  embeddings: {
    caption: R`Embeddings $X$ (edit them)`,
    cell: 'embedding of “{token}”, component {c}',
    error: '{message} The matrices show the last valid input.',
  },
  matrices: {
    scores: R`Scores $\roleq{Q}\rolek{K}^\top$`,
    scaled: R`Scaled scores $A = \roleq{Q}\rolek{K}^\top/\sqrt{d_k}$`,
    weights: R`Weights $N = \mathrm{softmax}(A)$`,
    rowAxis: 'query (row) ↓',
    colAxis: 'key (column) →',
    output: R`Output $\roleo{NV}$`,
  },
  observations: {
    identical: '{a} and {b} have the same embedding, so their rows are identical in every matrix: self-attention alone cannot tell them apart (their positions could; see <a href="#order">section {§order}</a>).',
    symmetry: R`The scores are symmetric because $Q = K$; the weights are not, because each row is normalised on its own.`,
    rowSums: 'Each row of weights sums to 1 (open the table under the heatmap to see the row sums).',
    prefersOther: R`{token} gives {other} to {to}, more than the {self} it gives itself: with $Q = K$ its self-score is $\lVert x\rVert^2$ = {norm2}, and $x\cdot x_{\text{other}}$ = {dot} is larger, because the other vector is longer and points nearly the same way.`,
  },
  articleNote: {
    label: 'About the article’s numbers',
    scaledDiffers: R`<strong>A note on the source.</strong> With the article’s embeddings (the starting ones), its score matrix $QK^\top$ is what they give. Its scaled matrix $A$ divides by {divisor}, $\sqrt{d}$ rounded to two decimals ($d$ = {d}), and is right to that rounding: divided by $\sqrt{d}$ itself, as the engine divides, {count} of its {total} entries show differently to two decimals. {differences}`,
    scaledSame: R`<strong>A note on the source.</strong> With the article’s embeddings (the starting ones), its score matrix $QK^\top$ is what they give. Its scaled matrix $A$ divides by {divisor}, $\sqrt{d}$ rounded to two decimals ($d$ = {d}); to two decimals that shows the same as dividing by $\sqrt{d}$ itself, as the engine divides.`,
    difference: 'Where QKᵀ = {score} ({cells} of the {total} entries), the article’s {score}/{divisor} = {articleFull} shows as {article}, the exact {exactFull} as {exact}.',
    weights: 'Its weights and outputs do not follow from its scores: one of its printed weight rows does not even add up to 1. Every number here is computed by the engine from the embeddings above — edit them, and everything follows.',
  },
  after: R`<p>Each output row mixes all five embeddings, weighted by that token’s row of $N$. With $Q = K$ a token’s score with itself is $\lVert x_i\rVert^2$, and that need not be its largest: $x_i\cdot x_j$ exceeds it whenever $x_j$ is longer and points nearly the same way, as the notes above show when it happens. What learned projections add is direction: with $W^Q \neq W^K$ the scores are no longer symmetric, so one token can score another highly without being scored highly in return (<a href="#reading-weights">section {§reading-weights}</a>).</p>`,
};
