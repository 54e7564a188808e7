// Section "positions-trained" view: a transformer trained on reversal without
// positions and with them, side by side in two workers (../side-by-side-panel.js):
// the loss and the accuracy written freely as they train, against the score
// of guessing the commonest source digit; each decoder's cross-attention on
// the probe (./maps.js); and what the runs showed (sentences chosen by ./state.js).
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { choiceGroup } from '../../components/choice-group.js';
import { sideBySidePanel } from '../side-by-side-panel.js';
import { sideBySideSummary } from '../side-by-side-summary.js';
import { layOut, sectionSettings } from '../side-by-side-section.js';
import { POSITIONS, RUNS, SOURCE_LENGTH, commonestGuess, describe, runsOf, summarize } from './state.js';
import { positionMaps } from './maps.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import '../../components/matrix.css';
import '../side-by-side.css';
import { formatPercent } from '../../lib/format.js';

export default { mount, params };

const COLOR = { none: 'var(--c-raw)', positioned: 'var(--c-scaled)' };
const lines = (metric) => RUNS.map((run) => ({ id: run, run, metric, color: COLOR[run], marker: 'none', dash: run === 'none' ? '6 3' : undefined }));

function mount(root, { engine, t, store, initial, onChange }) {
  const model = sectionSettings(store, initial ?? params.defaults());
  root.classList.add('pt-root');
  const changed = (changes) => { model.set(changes); onChange?.(model.snapshot); panel.reset(); };
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }), label: t('controls.seed'), newLabel: t('controls.newSeed'), value: model.settings.seed, onChange: (v) => changed({ seed: v }) });
  const positions = choiceGroup({
    legend: t('controls.positions'), options: POSITIONS.map((p) => ({ value: p, label: t(`positions.${p}`) })),
    value: model.settings.positions, onChange: (v) => changed({ positions: v }),
  });
  const labelled = (list) => list.map((line) => ({ ...line, label: t(`runs.${line.run}`), plainLabel: t(`runs.${line.run}`) }));
  const guess = commonestGuess(SOURCE_LENGTH);
  const maps = positionMaps({ t });
  const summary = sideBySideSummary({ t, id: 'positions-trained-summary', summarize, describe });
  const panel = sideBySidePanel({
    t, engine, store, ids: RUNS, id: 'positions-trained-training', className: 'pt-training',
    plan: () => runsOf(model.settings), controls: [positions.el, seed.el],
    lines: { loss: labelled(lines('loss')), accuracy: labelled(lines('generatedAccuracy')) },
    references: (record) => {
      const last = Math.max(1, ...RUNS.map((run) => record.runs[run].step));
      return [{ label: t('charts.chance', { guess: formatPercent(guess) }), points: [[0, guess], [last, guess]] }];
    },
    onRecord: (record, status) => {
      maps.update(record);
      summary.update(record, status);
    },
  });

  layOut(root, { t, tex: formulas.input, length: SOURCE_LENGTH, panels: [panel.el, summary.el, maps.el] });

  return {
    destroy() { panel.destroy(); },
  };
}
