// Section "mask-reason" view: a decoder trained without the causal mask and
// with it, side by side in two workers (../side-by-side-panel.js): the loss
// and both accuracies as they train, the two numbers of each finished model
// and the probe written both ways (./results.js), each model's self-attention
// map (./maps.js), and what the runs showed (sentences chosen by ./state.js).
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { sideBySidePanel } from '../side-by-side-panel.js';
import { measure } from '../../training/side-by-side.js';
import { sideBySideSummary } from '../side-by-side-summary.js';
import { layOut, sectionSettings } from '../side-by-side-section.js';
import { RUNS, SOURCE_LENGTH, describe, runsOf, summarize } from './state.js';
import { maskMaps } from './maps.js';
import { resultsView } from './results.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import '../../components/matrix.css';
import '../side-by-side.css';

export default { mount, params };

// Teacher-forced solid, writing freely dashed; a colour per run.
const COLOR = { unmasked: 'var(--c-raw)', masked: 'var(--c-scaled)' };
const LINES = {
  loss: RUNS.map((run) => ({ id: run, run, metric: 'loss', color: COLOR[run], marker: 'none', dash: run === 'unmasked' ? '6 3' : undefined })),
  accuracy: RUNS.flatMap((run) => [
    { id: `${run}-forced`, run, metric: 'accuracy', color: COLOR[run], marker: 'none' },
    { id: `${run}-free`, run, metric: 'generatedAccuracy', color: COLOR[run], marker: 'circle', dash: '6 3' },
  ]),
};

// The probe written freely, with the rest of what measure() reads.
const finish = async (request) => ({ ...(await measure(request)), generation: await request('generate') });

function mount(root, { engine, t, store, initial, onChange }) {
  const model = sectionSettings(store, initial ?? params.defaults());
  root.classList.add('mr-root');
  const label = (line) => ({ ...line, label: t(`${line.metric === 'loss' ? 'runs' : 'lines'}.${line.id}`), plainLabel: t(`${line.metric === 'loss' ? 'runs' : 'lines'}.${line.id}`) });
  const maps = maskMaps({ t });
  const results = resultsView({ t });
  const summary = sideBySideSummary({ t, id: 'mask-reason-summary', summarize, describe });
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }),
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: model.settings.seed,
    onChange: (v) => { model.set({ seed: v }); onChange?.(model.snapshot); panel.reset(); },
  });
  const panel = sideBySidePanel({
    t, engine, store, ids: RUNS, id: 'mask-reason-training', className: 'mr-training',
    plan: () => runsOf(model.settings), finish, controls: [seed.el],
    lines: { loss: LINES.loss.map(label), accuracy: LINES.accuracy.map(label) },
    onRecord: (record, status) => {
      maps.update(record);
      results.update(record);
      summary.update(record, status);
    },
  });

  layOut(root, { t, tex: formulas.mask, length: SOURCE_LENGTH, panels: [panel.el, results.el, summary.el, maps.el] });

  return {
    destroy() { panel.destroy(); },
  };
}
