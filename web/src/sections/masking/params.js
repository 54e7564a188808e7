// Section 5's inputs as text (src/lib/params.js):
//   mask="none|causal|padding"  or a 5 x 5 keep-matrix, mask="10000;11000;11100;11110;11111"
//   (1 = may attend; clicking cells makes such a mask)
//   row="1".."5"                the query whose softmax is written out
import { formatBits, parseBits, parseChoice, parseInteger } from '../../lib/params.js';
import { DEFAULT_EMBEDDINGS } from './state.js';

const N = DEFAULT_EMBEDDINGS.length;
const PRESETS = ['none', 'causal', 'padding'];

export default {
  names: ['mask', 'row'],
  defaults: () => ({ mode: 'causal', keep: null, focusRow: 2 }),
  fields: {
    mask: {
      parse: (s) => (/^[01;]+$/.test(s.trim()) ? { mode: 'custom', keep: parseBits(s.trim(), N, N) } : { mode: parseChoice(s, PRESETS), keep: null }),
      format: ({ mode, keep }) => (mode === 'custom' ? formatBits(keep, N) : mode),
    },
    row: { parse: (s) => parseInteger(s, { min: 1, max: N }) - 1, format: (i) => String(i + 1) },
  },
  toState: (v, d) => ({
    mode: v.mask?.mode ?? d.mode, keep: v.mask ? v.mask.keep : d.keep, focusRow: v.row ?? d.focusRow,
  }),
  fromState: (s) => ({ mask: { mode: s.mode, keep: s.keep }, row: s.focusRow }),
};
