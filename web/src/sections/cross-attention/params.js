// Section 7's inputs as text (src/lib/params.js): the embeddings of the two sentences,
//   decoder="1.8,0.2,0;0,0.3,1.2;0,0.8,1.8"   (3 tokens x 3 features: the queries)
//   encoder="2,0,0;0,1.5,0;0,0.5,1;0,0,2"     (4 tokens x 3 features: keys and values)
import { formatMatrix, parseMatrix } from '../../lib/params.js';
import { DECODER_EMBEDDINGS, ENCODER_EMBEDDINGS } from './state.js';

const D = ENCODER_EMBEDDINGS[0].length;

export default {
  names: ['decoder', 'encoder'],
  defaults: () => ({ encoder: ENCODER_EMBEDDINGS.map((r) => [...r]), decoder: DECODER_EMBEDDINGS.map((r) => [...r]) }),
  fields: {
    decoder: { parse: (s) => parseMatrix(s, DECODER_EMBEDDINGS.length, D), format: formatMatrix },
    encoder: { parse: (s) => parseMatrix(s, ENCODER_EMBEDDINGS.length, D), format: formatMatrix },
  },
  toState: (v, d) => ({ encoder: v.encoder ?? d.encoder, decoder: v.decoder ?? d.decoder }),
  fromState: (s) => ({ encoder: s.encoder, decoder: s.decoder }),
};
