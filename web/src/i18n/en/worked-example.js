// Section 1 text (English). HTML allowed; $...$ is TeX (MathML at build time);
// {name} is filled in at run time with a computed value.
const R = String.raw;

export default {
  title: 'Score, softmax, mix',
  lede: R`Attention takes three steps. A <span class="chip chip-q">query</span> is compared with every <span class="chip chip-k">key</span> by a dot product; a softmax turns those scores into weights that are positive and sum to 1; and the <span class="chip chip-v">values</span> are mixed with those weights into the <span class="chip chip-o">output</span>. Here is the whole computation for one query and three keys in two dimensions ($d_k = 2$), the example that the Korean write-up of a Quanta Magazine column on attention works through by hand.`,
  perKeyIntro: R`Stacked into matrices, all queries are handled at once. For a single query $q$, key by key, the same formula reads:`,
  panelTitle: 'Try it: one query, three keys',
  hint: R`Drag the query <b class="role-text-q"><i>q</i></b> in the first plot (or reach it with Tab and use the arrow keys), edit any number, or switch the scaling off. The engine recomputes every value below at once.`,
  plots: {
    keysTitle: 'The query and the keys',
    keysDescription: 'The query q and the keys k1 to k3 as arrows from the origin. Each key is labelled with its weight and drawn thicker the more weight it gets.',
    keysCaption: R`A key pointing the way <i>q</i> points gets a larger score. Each key is labelled with its weight.`,
    handle: 'Query q: drag, or use the arrow keys',
    valuesTitle: 'The values and the output',
    valuesDescription: 'The values v1 to v3 and the output o. The output is a weighted average of the values, so it never leaves the shape they span, drawn dashed.',
    valuesCaption: R`The output <i>o</i> is a weighted average of the values, so it never leaves the shape they span (dashed). In the starting example the three values lie on one line, and so does <i>o</i>.`,
  },
  inputs: {
    query: 'Query',
    keys: 'Keys',
    values: 'Values',
    queryCell: 'q, component {i}',
    keyCell: 'key {j}, component {i}',
    valueCell: 'value {j}, component {i}',
    error: '{message} The numbers shown are from the last valid input.',
  },
  controls: {
    scalingName: 'Divide by the square root of d_k',
    scaling: R`Divide by $\sqrt{d_k}$`,
  },
  steps: {
    caption: 'Every intermediate number',
    captionColumns: 'Every intermediate number, a row per key (Kᵀq holds a column per query)',
    total: 'sum',
    dot: '1 · dot product',
    scaled: '2 · scale',
    exp: '3 · exponentiate',
    weight: '4 · normalise',
    mix: '5 · mix',
    scaleTitle: 'scale factor 1/√d_k = {scale}',
    stable: R`Here $e^{s_j}$ would leave the range of the engine’s single-precision numbers (too large, or too small to keep its digits), so row 3 shows $e^{s_j - \max s}$, as the engine computes it: every term divided by the same $e^{\max s}$, the weights unchanged.`,
  },
  convention: {
    legend: 'Write it',
    rows: R`in rows: $\mathrm{softmax}(QK^\top)\,V$`,
    columns: R`in columns: $V\,\mathrm{Softmax}(K^\top Q)$`,
    note: R`The Korean article <cite>Scaled dot-product attention</cite> stacks the tokens as columns: $Q$ is $d_k\times n$, $K$ is $d_k\times m$, $V$ is $d_v\times m$. Then $K^\top Q/\sqrt{d_k}$ is $m\times n$, one column per query; $\mathrm{Softmax}$ normalises each column, and $V$ times it is $d_v\times n$. It is the row form transposed, $K^\top Q = (QK^\top)^\top$, so no number changes: the table above is the row table turned on its side, and $o = Vw$ is $o = \sum_j w_j v_j$ written as a product.`,
    same: R`Computed by the engine itself with the keys as the queries, $K^\top q$ = ({scores}): the row $qK^\top$, all {m} numbers equal.`,
    differs: R`Computed by the engine itself with the keys as the queries, $K^\top q$ = ({scores}): the row $qK^\top$ up to {difference}, float rounding in another order.`,
  },
  compare: {
    withoutScaling: R`Dividing by $\sqrt{d_k}$ = {divisor} flattens the weights. Without it, the same scores would give the weights {weights}.`,
    withScaling: R`The scaling is off, so the weights are sharper. Divided by $\sqrt{d_k}$ = {divisor}, the scores would give the weights {weights}.`,
    same: R`Here dividing by $\sqrt{d_k}$ = {divisor} changes no weight as shown: with or without it they are {weights}.`,
  },
  after: R`<p>In the starting example, keys 1 and 3 point along $q$ equally ($q\cdot k_1 = q\cdot k_3$), so they get the same weight. Key 2 is orthogonal to $q$ and scores 0 — yet its weight is not 0, because $e^0 = 1$. In exact arithmetic a softmax never gives a weight of exactly zero (in single precision a weight below about $10^{-45}$ rounds to 0, as with $q = (1010, 0)$); a mask gives it on purpose (<a href="#masking">section {§masking}</a>).</p>
<p>The output is a weighted average of the values, pulled towards the values whose keys match the query: attention is a soft, differentiable lookup. Why the scores are divided by $\sqrt{d_k}$ is the subject of <a href="#scaling">section {§scaling}</a>.</p>`,
};
