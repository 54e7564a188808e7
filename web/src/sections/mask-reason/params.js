// Section "mask-reason"'s inputs as text, for links and widget attributes: the seed of both runs.
import { seedParams } from '../seed-params.js';
import { DEFAULTS } from './state.js';

export default seedParams(DEFAULTS);
