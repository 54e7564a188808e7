// Section "induction"'s inputs as text, for links and widget attributes (src/lib/params.js):
//   seed="1"   both models' initial weights and batches (training starts only when the reader asks)
import { seedParams } from '../seed-params.js';
import { DEFAULTS } from './state.js';

export default seedParams(DEFAULTS);
