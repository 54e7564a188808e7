// Section 1's inputs as text, for links and widget attributes (src/lib/params.js):
//   q="1,0"  keys="1,0;0,1;1,1"  values="2,0;0,2;1,1"  scaling="on|off"  convention="rows|columns"
// Two dimensions (the vectors are drawn in the plane); 1 to 8 keys, as many values.
import { ParamError, formatMatrix, formatVector, parseChoice, parseMatrix, parseSwitch, parseVector } from '../../lib/params.js';
import { CONVENTIONS, DEFAULT_INPUTS, cloneInputs } from './state.js';

export const MAX_KEYS = 8;

const mismatch = () => Object.assign(new ParamError('keys and values: different counts'), { names: ['keys', 'values'] });

export default {
  names: ['q', 'keys', 'values', 'scaling', 'convention'],
  defaults: () => cloneInputs(DEFAULT_INPUTS),
  fields: {
    q: { parse: (s) => parseVector(s, 2), format: formatVector },
    keys: { parse: (s) => parseMatrix(s, { min: 1, max: MAX_KEYS }, 2), format: formatMatrix },
    values: { parse: (s) => parseMatrix(s, { min: 1, max: MAX_KEYS }, 2), format: formatMatrix },
    scaling: { parse: parseSwitch, format: (on) => (on ? 'on' : 'off') },
    convention: { parse: (s) => parseChoice(s, CONVENTIONS), format: String },
  },
  toState: (v, d) => ({
    q: v.q ?? d.q, keys: v.keys ?? d.keys, values: v.values ?? d.values, scaling: v.scaling ?? d.scaling,
    convention: v.convention ?? d.convention,
  }),
  check(state) {
    if (state.keys.length !== state.values.length) throw mismatch();
  },
  fromState: (s) => ({ q: s.q, keys: s.keys, values: s.values, scaling: s.scaling, convention: s.convention }),
};
