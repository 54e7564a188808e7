// Section 7 text (English). HTML allowed; $...$ is TeX; {name} filled at run time.
const R = String.raw;
const prev = 'the encoder’s previous layer';
const decPrev = 'the decoder’s previous layer';

export default {
  title: 'Self, cross, and the three places of attention',
  lede: R`So far every token attended to tokens of its own sequence: self-attention. In <b>cross-attention</b> the queries come from one sequence and the keys and values from another: a translating decoder asks, for each word it writes, which words of the source to look at. The computation is exactly the same; only the inputs change — and with them the shape. $n$ queries against $m$ keys give an $n \times m$ weight matrix, not a square one.`,
  example: R`Here the encoder has read “I am very hungry” ($m = 4$ tokens) and the decoder is writing “나는 배가 고프다” ($n = 3$). Each token has three hand-made features (roughly “who”, “being”, “hunger”), and the projections are the identity, so $Q = X_{\mathrm{dec}}$ and $K = V = X_{\mathrm{enc}}$.`,
  panelTitle: 'Decoder queries, encoder keys and values',
  inputs: {
    encoder: R`Encoder tokens $X_{\mathrm{enc}}$ (keys, values)`,
    decoder: R`Decoder tokens $X_{\mathrm{dec}}$ (queries)`,
    cell: '“{token}”, feature {c}',
    error: '{message} The numbers shown are from the last valid input.',
  },
  cross: {
    caption: 'Cross-attention weights: decoder queries × encoder keys',
    rowAxis: 'decoder query ↓',
    colAxis: 'encoder key →',
    output: 'Output, one row per decoder token',
    reading: 'Each of the {n} decoder rows is a distribution over the {m} encoder tokens, summing to 1. Strongest links: {pairs}.',
  },
  compare: {
    title: 'Self versus cross',
    text: R`The Korean article <cite>The attention mechanism of the Transformer: self-attention, cross-attention, multi-head</cite> sums up the difference in one table: the formula is the same, only the sources of $Q$, $K$ and $V$ change.`,
    self: 'Self-attention',
    cross: 'Cross-attention',
    qSelf: R`$X$`,
    kSelf: R`$X$`,
    vSelf: R`$X$`,
    qCross: R`$X_{\mathrm{dec}}$ (decoder)`,
    kCross: R`$X_{\mathrm{enc}}$ (encoder)`,
    vCross: R`$X_{\mathrm{enc}}$ (encoder)`,
  },
  places: {
    title: 'Three places in a Transformer',
    intro: R`The Transformer uses the same multi-head attention in three places. The calculation is identical; what differs is where $Q$, $K$ and $V$ come from, and whether a mask is applied. The maps below are computed from the example above, as the sketch wires them: map 1 from the encoder tokens, map 2 from the decoder tokens, and map 3 from their outputs — its queries from the output of 2, its keys and values from the encoder’s output, the output of 1. (A real Transformer also adds each sublayer’s input back, normalises, and stacks several layers; that is left out here.)`,
    sketch: `<div class="sketch">
<div class="sketch-stack"><p class="sketch-name">Encoder</p><div class="sketch-box">Feed-forward</div><div class="sketch-box is-attention"><b>1</b>Self-attention</div><div class="sketch-box">Input: I am very hungry</div></div>
<div class="sketch-stack"><p class="sketch-name">Decoder</p><div class="sketch-box">Feed-forward</div><div class="sketch-box is-attention"><b>3</b>Encoder–decoder attention</div><div class="sketch-box is-attention"><b>2</b>Masked self-attention</div><div class="sketch-box">Input: 나는 배가 …</div></div>
<p class="sketch-arrow">The encoder’s output (the output of 1) becomes K and V of 3; the output of 2 becomes its Q.</p></div>`,
    encoderSelf: {
      title: 'Encoder self-attention',
      q: prev, k: prev, v: prev,
      text: 'Every source token looks at every source token. No mask.',
      mapCaption: 'Encoder self-attention weights',
    },
    decoderSelf: {
      title: 'Masked decoder self-attention',
      q: decPrev, k: decPrev, v: decPrev,
      text: 'Each target token looks only at itself and the tokens before it: a causal mask (<a href="#masking">section {§masking}</a>).',
      mapCaption: 'Masked decoder self-attention weights',
    },
    cross: {
      title: 'Encoder–decoder attention',
      q: 'the output of 2 (masked self-attention)', k: 'the encoder’s output (the output of 1)', v: 'the encoder’s output (the output of 1)',
      text: 'Each target token looks at the source — the job that Bahdanau’s and Luong’s attention did in recurrent translation models.',
      mapCaption: 'Encoder–decoder attention weights',
    },
  },
  after: R`<p>Because the computation never assumes $n = m$, one implementation serves all three places: here the same C++ function computes all three maps. The decoder’s causal mask is needed in training, when the whole target sentence is fed in at once; when generating, the future tokens simply do not exist yet.</p>`,
};
