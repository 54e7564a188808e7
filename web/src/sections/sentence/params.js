// Section 4's inputs as text (src/lib/params.js): the five tokens' embeddings,
//   embeddings="1,0;0,1;1,1;1,1;0.5,1"   (five rows of two numbers)
import { formatMatrix, parseMatrix } from '../../lib/params.js';
import { DEFAULT_EMBEDDINGS, TOKENS } from './state.js';

export default {
  names: ['embeddings'],
  defaults: () => ({ embeddings: DEFAULT_EMBEDDINGS.map((r) => [...r]) }),
  fields: {
    embeddings: { parse: (s) => parseMatrix(s, TOKENS.length, DEFAULT_EMBEDDINGS[0].length), format: formatMatrix },
  },
  toState: (v, d) => ({ embeddings: v.embeddings ?? d.embeddings }),
  fromState: (s) => ({ embeddings: s.embeddings }),
};
