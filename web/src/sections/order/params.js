// Section 9's inputs as text, for links and widget attributes (src/lib/params.js):
//   perm="3,1,5,0,4,2"   position r gets token perm[r]
//   pe="on|off"          add the sinusoidal positional encodings
import { ParamError, parseSwitch } from '../../lib/params.js';
import { DEFAULT_PERMUTATION, TOKENS, parsePermutation } from './state.js';

export default {
  names: ['perm', 'pe'],
  defaults: () => ({ perm: [...DEFAULT_PERMUTATION], positional: false }),
  fields: {
    perm: {
      parse(s) {
        if (!/^[\d,\s]+$/.test(s)) throw new ParamError('expected numbers separated by commas');
        const { perm, error } = parsePermutation(s, TOKENS.length);
        if (error) throw new ParamError(`not a permutation of 0..${TOKENS.length - 1} (${error})`);
        return perm;
      },
      format: (perm) => perm.join(','),
    },
    pe: { parse: parseSwitch, format: (on) => (on ? 'on' : 'off') },
  },
  toState: (v, d) => ({ perm: v.perm ?? d.perm, positional: v.pe ?? d.positional }),
  fromState: (s) => ({ perm: s.perm, pe: s.positional }),
};
