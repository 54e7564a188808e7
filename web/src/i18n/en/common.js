// Text shared by the whole page (English). HTML allowed; $...$ is TeX, turned
// into MathML at build time (web/vite-plugins/prerender-math.js).
export default {
  skip: 'Skip to content',
  site: { mark: 'Attention, computed' },
  // The two pages (src/sections/pages.js): `name` in the links between them.
  pages: {
    walkthrough: {
      name: 'Attention, computed',
      meta: {
        title: 'Attention, computed',
        description: 'An interactive explainer of the attention mechanism. Every number is computed in your browser by a C++ attention core compiled to WebAssembly.',
      },
      title: 'Attention, computed',
      lede: 'How a Transformer decides what to look at — score, softmax, mix — worked through with numbers you can change.',
      how: 'Every number on this page is computed live, in your browser, by a C++ attention core compiled to WebAssembly. Edit any input and every intermediate value follows. Nothing is copied from a textbook. How the weights come to be learned, from Seq2Seq to the Transformer, is the second page: <a href="#learns">How attention learns</a>.',
    },
    learns: {
      name: 'How attention learns',
      meta: {
        title: 'How attention learns — Attention, computed',
        description: 'From Seq2Seq to the Transformer, retold by training: small models trained in your browser, in seconds, by a C++ core compiled to WebAssembly.',
      },
      title: 'How attention learns',
      lede: 'From Seq2Seq to the Transformer, retold by training: each step of the history is a small model trained in your browser, and each claim is a number it measured.',
      how: 'Every model here is trained live, in a background thread of your browser, by the same C++ core that computes <a href="#walkthrough">the walkthrough</a>, compiled to WebAssembly. The sentences that explain a result are chosen from the numbers measured on this page: when a run comes out another way, they say so.',
    },
  },
  pageLinks: { label: 'Pages' },
  seedInvalid: 'A seed is a whole number from 0 to {max}: this one is not used, the last valid seed still is.',
  lang: { label: 'Language' },
  toc: { title: 'Contents' },
  pageEmpty: 'This page has no sections yet.',
  engine: {
    loading: 'Loading the attention engine (WebAssembly)…',
    readySimd: 'Engine ready: the WebAssembly SIMD build is computing every number.',
    readyBaseline: 'Engine ready: the WebAssembly build (without SIMD) is computing every number.',
    failed: 'The attention engine could not be loaded: {message}',
    sectionLoading: 'Loading…',
    sectionFailed: 'This example needs the attention engine, which could not be loaded.',
  },
  roles: {
    legend: 'Colours used on this page',
    q: 'query', k: 'key', v: 'value', o: 'output', m: 'mask',
  },
  table: {
    show: 'Show the numbers as a table',
    rowSum: 'row sum',
    masked: '(masked)',
  },
  embed: {
    summary: 'Embed this',
    intro: 'Put this section, with its numbers as they are now, into your own web page: paste one of these into the page’s HTML. The files are served from where this page is; see the README to serve them yourself.',
    script: 'A script tag and the element (works under a strict Content-Security-Policy)',
    iframe: 'Or an iframe, for hosts that strip scripts (the lines after it size the frame to fit; without them it keeps the height given)',
    copy: 'Copy',
    copied: 'Copied to the clipboard.',
    copyFailed: 'Copying failed here: select the code and copy it.',
    unknownSection: 'Unknown section “{id}”. Use one of: {ids}.',
  },
  share: {
    invalid: 'Some starting values could not be used ({names}), so this example starts from its usual numbers.',
  },
  actions: { reset: 'Reset' },
  // Typing mistakes, in the reader's words: {field} is the box's label (counted from 1).
  errors: {
    notANumber: '{field}: not a number. Type a number such as 0.5 or −2.',
    tooLarge: '{field}: too large. The engine computes in single precision, which ends near ±3.4 × 10³⁸.',
    overflow: 'These numbers are too large: a score or an output would pass ±3.4 × 10³⁸, the largest number in single precision.',
  },
  // The engine's 'translate' task, where a reader types a sentence for one of its models (sections "learning", "decoding").
  translateTask: {
    refused: 'The engine refused this sentence: {message}',
    pattern: 'Every sentence follows this pattern (brackets: optional; capitals: a word of the group below):',
    groups: {
      ARTICLE: 'article', PREPOSITION: 'preposition', ADJECTIVE: 'ADJECTIVE', PERSON: 'PERSON', VERB: 'VERB',
      ADVERB: 'ADVERB', THING: 'THING', PLACE: 'PLACE', TIME: 'TIME',
    },
  },
  footer: 'Sources: Vaswani et al., <cite>Attention Is All You Need</cite> (2017); Bahdanau, Cho and Bengio (2015); Luong, Pham and Manning (2015); and five Korean articles on attention, whose examples are recomputed here rather than copied.',
};
