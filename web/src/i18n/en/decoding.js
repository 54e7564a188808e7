// Section "decoding" text (English). HTML allowed; $...$ is TeX (MathML at
// build time); {name} is filled in at run time with a computed value;
// {§id} is the number of section `id`.
const R = String.raw;

export default {
  title: 'Generating one token at a time',
  lede: R`A trained translator does not write its sentence at once. It writes one word, reads it back, and writes the next; each step attends to the source again. Here a small translator is trained in your browser, and then you can watch it work step by step, see what it keeps from one step to the next, and time what that saves.`,
  greedy: R`The task is the one of <a href="#learning">section {§learning}</a>, grown: English sentences with optional adjectives, adverbs, objects, places and times, into Korean word order with each particle as a token of its own. The model decodes <i>greedily</i>: at each step it takes its most likely next token, until it produces the end token.`,
  cache: R`A transformer’s decoder attends over every token it has read so far. Computed naively, step $t$ reads the whole prefix again: $t$ rows of keys and values, recomputed at every step. But the rows of the earlier tokens do not change, so the decoder can keep them, the <i>key/value cache</i>, and compute only the new token’s query, key and value:`,
  recurrent: R`A recurrent decoder (Bahdanau’s) keeps something else: one state vector, overwritten at every step, the same size however long the output grows. Its attention over the source is read from that state:`,
  controls: { seed: 'Seed', newSeed: 'New seed', model: 'Model' },
  models: { transformer: 'transformer (key/value cache)', bahdanau: 'Bahdanau’s GRU (recurrent state)' },
  buttons: { train: 'Train', stop: 'Stop' },
  training: {
    title: 'Train the translator',
    intro: 'The model trains in a background thread: d_model = 32 (the transformer with one layer of two heads), batches of 32, learning rate 0.01. Every 25 steps it translates 64 held-out sentences on its own, greedily; it stops when {target}% of their tokens are right. Then it is scored on all 512.',
  },
  status: {
    idle: 'Not trained yet. Press “Train”.',
    running: 'Training… step {step}.',
    decoding: 'Trained at step {step}; decoding and timing the probe sentence…',
    done: 'Done in {seconds} s: {step} steps.',
    stopped: 'Stopped. “Train” starts again from step 0.',
    failed: 'Training failed: {message}',
  },
  counters: 'step {step}, loss {loss}, generated accuracy {accuracy}',
  charts: {
    xLabel: 'training step',
    step: 'step',
    target: 'target ({target})',
    loss: {
      title: 'Training loss against step',
      description: 'Mean cross-entropy of the training batches since the previous point, on a log scale.',
      caption: 'Training loss (log scale)',
    },
    accuracy: {
      title: 'Generated accuracy against step',
      description: 'Share of the tokens of 64 held-out sentences that the model gets right when it generates on its own, greedily, with the target as a dashed line.',
      caption: 'Held-out generated accuracy',
    },
  },
  vocabulary: {
    pattern: 'Every sentence follows this pattern (brackets: optional; capitals: a word of the group below):',
    groups: {
      ARTICLE: 'article', PREPOSITION: 'preposition', ADJECTIVE: 'ADJECTIVE', PERSON: 'PERSON', VERB: 'VERB',
      ADVERB: 'ADVERB', THING: 'THING', PLACE: 'PLACE', TIME: 'TIME',
    },
  },
  steps: {
    title: 'Step by step',
    intro: 'The trained model generates the sentence below one token per step. Move the slider to see each step: the heatmap’s last row is where that step looked in the source, the rows above it the steps before.',
    waiting: 'Train the model first: its generation appears here.',
    label: 'A sentence to translate (the words and pattern above):',
    button: 'Decode',
    refused: R`The engine refused this sentence: {message}`,
    trainFirst: 'Train the model first (or again, after a change of language): it decodes in its background thread.',
    decoding: 'Decoding…',
    probe: 'A held-out sentence the model never trained on:',
    typed: 'Your sentence:',
    output: 'Output:',
    end: '⟨end⟩',
    start: '⟨start⟩',
    slider: 'Step',
    sliderValue: '{step} of {steps}',
    now: {
      transformer: R`Step {step} writes {token}. The cache now holds {rows} rows: the keys and values of the start token and of every token written before this one, in each of the {layers} decoder layer(s), {floats} numbers in all (2 × {layers} × {rows} × {dModel}). The next step adds one row.`,
      recurrent: R`Step {step} writes {token}. The decoder keeps one state of {dModel} numbers, as after every step: it has overwritten the previous one.`,
    },
    crossCaption: 'Attention over the source, steps 1 to {step} (last layer, heads averaged)',
    selfCaption: 'Self-attention over the cache, steps 1 to {step}: the last row reads {rows} rows',
    rowAxis: 'step writing ↓',
    sourceAxis: 'source word →',
    cacheAxis: 'cached token →',
    notYet: '(not yet in the cache)',
  },
  cost: {
    title: 'What the cache saves',
    intro: 'The same sentence is generated {calls} times in a row with the cache and {calls} times reading the whole prefix again at every step, alternately, in the model’s background thread; each way is timed several times. The table gives the time of one whole generation.',
    waiting: 'Train the model first: the timing appears here.',
    measuring: 'Timing…',
    caption: 'Time of one generation of {steps} steps, in ms',
    columns: { way: 'way', median: 'median', fastest: 'fastest', slowest: 'slowest', samples: 'samples' },
    cache: 'with the cache',
    recompute: 'recomputing the prefix',
    ratio: 'Recomputing takes {ratio} times as long as using the cache (medians: {recompute} ms against {cache} ms).',
    sameTokens: 'Both ways wrote the same tokens; their attention weights differ by at most {difference}.',
    otherTokens: 'The two ways wrote different tokens (weights differ by up to {difference}): they should not.',
  },
  summary: {
    training: {
      reached: R`The model reached {reached} generated accuracy on {examples} held-out sentences after {steps} steps ({seconds} s from pressing Train). On all held-out sentences: {accuracy} of the tokens right, {sequences} of the sentences entirely right.`,
      short: R`In {steps} steps the model did not reach the target {target} (last: {reached}; on all held-out sentences {accuracy}). Its steps below are those of a model that still makes mistakes.`,
    },
    cache: {
      grows: R`The cache grew by one row per step: from 1 row at the first step to {rows} at step {steps}, {firstFloats} numbers to {floats}. A longer output needs a longer cache.`,
      state: R`Whatever the step, 1 to {steps}, the recurrent decoder kept one state of {dModel} numbers: its memory does not grow with the output, and everything it keeps of what it wrote is squeezed into that state.`,
      other: R`The cache did not grow one row per step here ({rows} rows after {steps} steps).`,
    },
    cost: {
      faster: R`Measured here: recomputing the prefix took {ratio} times as long as the cache (medians of {samples} samples: {recompute} ms against {cache} ms for {steps} steps).`,
      same: R`Measured here, the two ways cost about the same (ratio {ratio}; {recompute} ms against {cache} ms): at {steps} steps and this size, the prefix is too short for the cache to save much.`,
      slower: R`Measured here, the cache was the slower way (ratio {ratio}; {recompute} ms against {cache} ms): at this size keeping the cache costs more than it saves.`,
      unmeasured: R`The cache’s generations took no measurable time here ({cache} ms), so no ratio can be given.`,
      differ: R`The two ways wrote different tokens: they should not, and their times are not compared.`,
    },
  },
  after: R`<p>The cache is why a language model answers word by word at a steady pace: each new token costs one query against the rows already kept, not a new pass over everything before it. It is also what the model must hold in memory while it writes, and it grows with every token; <a href="#cost">section {§cost}</a> counts the work of one attention layer.</p>`,
};
