// The setup sentence names the factor c the control holds, as the matrices
// shown use it (the last valid one): the parameters of t('setup'). Pure (tested in Node).
import { formatTrimmed } from '../../lib/format.js';

export const setupParams = (reading) => ({ factor: formatTrimmed(reading.factor, 4) });
