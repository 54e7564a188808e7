// Section 10 text (English). HTML allowed; $...$ is TeX (MathML at build time);
// {name} is filled in at run time with a computed value.
const R = String.raw;

export default {
  title: R`Cost: why attention is $O(n^2)$`,
  lede: R`Every token looks at every other token. That is what makes attention powerful, and what makes it expensive: for a sequence of $n$ tokens there are $n^2$ scores to compute, to store and to mix.`,
  complexityIntro: R`Article 002 reproduces the comparison of <cite>Attention Is All You Need</cite> for one layer, with $n$ the sequence length, $d$ the width of the representation and $k$ the kernel width of a convolution:`,
  complexity: {
    caption: 'One layer: total work, operations that must run one after another, and the longest path between two positions',
    columns: ['Layer type', 'Complexity per layer', 'Sequential operations', 'Maximum path length'],
    rows: [
      ['Self-attention', R`$O(n^2\cdot d)$`, R`$O(1)$`, R`$O(1)$`],
      ['Recurrent', R`$O(n\cdot d^2)$`, R`$O(n)$`, R`$O(n)$`],
      ['Convolutional', R`$O(k\cdot n\cdot d^2)$`, R`$O(1)$`, R`$O(\log_k n)$`],
    ],
  },
  whyQuadratic: R`Where the $n^2 d$ comes from: the score matrix $QK^\top$ has $n\times n$ entries, each a dot product of length $d$; the softmax touches each of them once; and each of the $n\times d$ outputs is a weighted sum over all $n$ values.`,
  tradeoff: R`In return, every pair of positions is one step apart and nothing has to wait for the previous token: a recurrent layer needs $n$ steps in a row to carry the first word to the last. That long path is the bottleneck attention was invented to remove. The bill is the $n^2$: double the sequence and the work quadruples. Measure it below.`,
  bench: {
    title: 'Measured in your browser',
    intro: R`Self-attention of $n$ random tokens with $d = d_k = d_v = 64$, timed here and now on this device, in a background thread: the engine’s WebAssembly SIMD build (through the full $n\times n$ matrix, and by the tiled path that never holds it), the same C++ compiled without SIMD, and a plain JavaScript triple loop. Each time is the median of repeated calls. It runs only when you ask; the largest size can take many seconds.`,
    largest: 'Largest n',
    run: 'Run the benchmark',
    cancel: 'Cancel',
    plan: 'Sizes: n = {sizes}, with d = {d}. Four implementations at each size.',
    idle: 'Not run yet.',
    starting: 'Starting: loading both builds of the engine in a background thread…',
    measuring: 'Measuring n = {n}: {series} · {percent}% done',
    done: 'Done.',
    cancelled: 'Cancelled; {count} measurements kept.',
    failed: 'The benchmark failed: {message}',
    noWorker: 'The benchmark needs a Web Worker, and this browser refused to start one (a page opened from disk cannot start module workers). Serve the page over http to run it.',
    notRun: 'Press “Run the benchmark” to measure.',
    series: {
      simd: 'wasm SIMD (full matrix)',
      simdTiled: 'wasm SIMD (tiled)',
      baseline: 'wasm without SIMD',
      plainJs: 'plain JavaScript',
    },
    chartTitle: 'Time per attention call against n (log–log)',
    chartDescription: 'Milliseconds per call for each implementation at each n, both axes logarithmic, with a dashed line growing as n squared. The numbers are in the table below the chart.',
    chartCaption: R`Time per call against $n$, both axes logarithmic`,
    xLabel: R`sequence length $n$ (log scale)`,
    yLabel: 'milliseconds per call (log scale)',
    reference: R`$\propto n^2$`,
    summary: R`At $n$ = {n}: <b>{simd} ms</b> with SIMD, {baseline} ms without, {js} ms in plain JavaScript — {speedup} times slower than the fastest build. From $n/2$ to $n$ the SIMD time grew <b>{ratio}</b> times; $n^2$ predicts 4. On a log–log plot, $n^2$ is a line of slope 2: the measured lines bend towards it as $n$ grows and fixed overheads stop mattering.`,
  },
  memory: {
    title: 'Memory: the n × n matrix',
    intro: R`Time is one cost; memory is the other. The full path holds the whole $n\times n$ score matrix, and the trace that the walkthrough shows holds four of them (scores, scaled, masked, weights). The tiled path (FlashAttention’s online softmax) streams the keys past in blocks of $64$ and keeps one $64\times 64$ block at a time, a running maximum and a running sum per row: its memory grows like $n$, not $n^2$, and its output is the same within rounding.`,
    chartTitle: 'Memory of attention against n (log–log), by shape',
    chartDescription: 'Bytes held by the full trace, by the one score matrix of the full path, and by the tiled path, for n from 64 to 4096 with d = 64. Computed from the shapes; the numbers are in the table below the chart.',
    chartCaption: R`Bytes held besides $Q$, $K$, $V$ ($d = 64$, 4 bytes a number), computed from the shapes`,
    yLabel: 'bytes (log scale)',
    series: {
      trace: 'full trace (4 n × n + output)',
      scoreMatrix: 'one n × n score matrix',
      tiled: 'tiled path (one block + output)',
    },
    note: R`At $n$ = {n}: one score matrix is <b>{matrix}</b>, the full trace {trace}, the tiled path <b>{tiled}</b> — {ratio} times less than the matrix alone.`,
  },
  after: R`<p>This is why long contexts are hard. Tiling, as in FlashAttention, removes the $n^2$ <em>memory</em> but not the $n^2$ <em>work</em>; sparse and linear variants of attention trade exactness for less of both.</p>`,
};
