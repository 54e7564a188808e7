// The intros of experiments 2 and 3 name the settings the controls hold, so
// they change when a control changes: the parameters of t('trials.intro') and
// t('sweep.intro') from an experiment's settings. Pure (tested in Node).
import { formatInteger } from '../../lib/format.js';

export const trialsIntro = (settings, lang) => ({ dk: settings.dk, trials: formatInteger(settings.trials, lang) });
export const sweepIntro = (settings, lang) => ({ trials: formatInteger(settings.trials, lang) });
