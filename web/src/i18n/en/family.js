// Section 8 text (English). HTML allowed; $...$ is TeX (MathML at build time);
// {name} is filled in at run time with a computed value.
const R = String.raw;

export default {
  title: 'The family: Bahdanau, Luong and the dot product',
  lede: R`Attention did not start with the Transformer. In 2015 it was added to an encoder–decoder translator, so that the decoder no longer had to squeeze a whole sentence into one fixed-size vector: it keeps every encoder state and, for each word it writes, mixes them anew. Attention then branched into a family that differs mainly in one place — how a decoder state and an encoder state are scored.`,
  steps: R`For every target word $t$ there are three steps, the same in every member of the family: score the decoder state against each encoder state $h_j$, turn the scores into weights with a softmax, and mix the encoder states with those weights into a context vector $c_t$. In Bahdanau’s form:`,
  luong: R`Bahdanau et al. score with a small neural network, the <em>additive</em> score $v_a^\top\tanh(W_a s_{t-1}+U_a h_j)$, learned together with the translator. Luong et al. asked whether it had to be that elaborate and compared three scores (they write $h_t$ for the decoder state and $\bar h_s$ for an encoder state; this page keeps $s_t$ and $h_j$):`,
  concatNote: R`<em>concat</em> is the additive score again: $W_a[s;h]=W_1 s+W_2 h$. <em>dot</em> has no parameters at all, so it only makes sense when both states live in the same space; <em>general</em> puts a learned matrix between them. The Transformer’s scaled dot product is Luong’s dot divided by $\sqrt{d}$.`,
  panelTitle: 'One toy translation, five scores',
  translatesTo: 'translates to',
  hint: R`Small random states from a seed: encoder states $h_1, h_2, h_3$ for <span lang="en">I</span>, <span lang="en">am</span>, <span lang="en">hungry</span>, and decoder states $s_0,\dots,s_3$. To stand in for training, each decoder state is drawn near the encoder states of the words it translates (나는 ↔ I, 배가 ↔ hungry, 고프다 ↔ am hungry). The parameters $W_a$, $U_a$, $v_a$ are random too — untrained.`,
  controls: { seed: 'Seed', newSeed: 'New seed' },
  states: {
    encoder: R`Encoder states $h_j$ (keys and values)`,
    decoder: R`Decoder states $s_t$ (queries)`,
    start: '(start)',
    uses: {
      previous: R`uses the <b>previous</b> decoder state $s_{t-1}$`,
      current: R`uses the <b>current</b> decoder state $s_t$`,
    },
  },
  methods: {
    bahdanau: { name: 'Bahdanau (additive)', caption: 'Alignment, Bahdanau additive' },
    dot: { name: 'Luong dot', caption: 'Alignment, Luong dot' },
    general: { name: 'Luong general', caption: 'Alignment, Luong general' },
    concat: { name: 'Luong concat', caption: 'Alignment, Luong concat' },
    scaledDot: { name: 'Scaled dot product', caption: 'Alignment, scaled dot product' },
  },
  best: 'Largest weight: {pairs}',
  reads: R`The parameter-free scores, dot and scaled dot, read the alignment built into the states directly: their largest weights fall where the states were drawn (나는 → I, 배가 → hungry, 고프다 → am or hungry). The others score through random, untrained parameters: what they attend to says nothing yet, which is why these parameters are learned with the translator.`,
  readsNot: R`With this seed even the parameter-free scores, dot and scaled dot, miss part of the alignment built into the states (나는 → I, 배가 → hungry, 고프다 → am or hungry): the noise drawn with the states outweighs it. The others score through random, untrained parameters: what they attend to says nothing yet, which is why these parameters are learned with the translator.`,
  shift: R`Note that concat and Bahdanau share their parameters here, so they differ only in the state they use: concat’s rows are Bahdanau’s moved up by one row (largest difference {diff}, computed).`,
  order: {
    title: 'Which decoder state: before or after',
    intro: R`The choice of state fixes where attention sits in the decoder. Bahdanau scores with the state from the step before, so the context must exist before this step’s state can be computed: attention sits inside the recurrent step. Luong first computes this step’s state and then attends, as a post-processing step outside the recurrence:`,
    bahdanau: 'Bahdanau',
    luong: 'Luong',
    after: R`Luong’s paper calls its path “simpler”. It also proposes <em>local</em> attention (look only at a window of source positions) and <em>input feeding</em> (pass $\tilde s_t$ on to the next step).`,
  },
  summaryTitle: 'The whole family in one table',
  summaryIntro: R`The Korean study note <cite>Attention, from Seq2Seq to the Transformer</cite> gathers the family into one table: every member scores, normalises with a softmax and mixes. What changes is how the score is computed and where the queries, keys and values come from.`,
  summary: {
    caption: 'Score functions and where Q, K and V come from (after the study note)',
    columns: ['Kind', 'Score', 'Queries from', 'Keys and values from', 'Paper'],
    rows: [
      ['Bahdanau (additive)', R`$v_a^\top\tanh(W_a s_{t-1}+U_a h_j)$`, 'previous decoder state', 'all encoder states', 'Bahdanau et al. (2015)'],
      ['Luong dot', R`$s_t^\top h_j$`, 'current decoder state', 'all encoder states', 'Luong et al. (2015)'],
      ['Luong general', R`$s_t^\top W_a h_j$`, 'current decoder state', 'all encoder states', 'Luong et al. (2015)'],
      ['Luong concat', R`$v_a^\top\tanh(W_a[s_t;h_j])$`, 'current decoder state', 'all encoder states', 'Luong et al. (2015)'],
      ['Encoder self-attention', R`$QK^\top/\sqrt{d_k}$`, 'previous encoder layer', 'previous encoder layer', 'Vaswani et al. (2017)'],
      ['Masked self-attention', R`$QK^\top/\sqrt{d_k}$, later positions $-\infty$`, 'previous decoder layer', 'previous decoder layer', 'Vaswani et al. (2017)'],
      ['Encoder–decoder attention', R`$QK^\top/\sqrt{d_k}$`, 'previous decoder layer', 'encoder output', 'Vaswani et al. (2017)'],
    ],
  },
  after: R`<p>The skeleton never changes: score, softmax, mix. What changes is how the score is computed, and what is looked at and what is hidden. Masking is in <a href="#masking">section {§masking}</a>; self- and cross-attention, the last three rows, in <a href="#cross-attention">section {§cross-attention}</a>.</p><p>The weights above are random. How these scores fare when a translator learns them — Bahdanau’s and Luong’s trained side by side on one task, their curves and their learned alignments — is measured on the second page, <a href="#learns">How attention learns</a>.</p>`,
};
