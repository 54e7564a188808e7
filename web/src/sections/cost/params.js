// Section 10's input as text, for links and widget attributes (src/lib/params.js):
//   n="1024"   the largest n of the benchmark (it still runs only on request)
import { parseChoice } from '../../lib/params.js';
import { DEFAULT_LARGEST, LARGEST_CHOICES } from './bench.js';

export default {
  names: ['n'],
  defaults: () => ({ largest: DEFAULT_LARGEST }),
  fields: { n: { parse: (s) => Number(parseChoice(s, LARGEST_CHOICES.map(String))), format: String } },
  toState: (v, d) => ({ largest: v.n ?? d.largest }),
  fromState: (s) => ({ n: s.largest }),
};
