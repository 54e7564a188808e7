// Section "bottleneck", the sweep's controls: the seed and the step budget of
// every run, and play / stop. A setting changed calls onSet(changes); the
// buttons follow the sweep's status.
import { h } from '../../lib/dom.js';
import { button } from '../../components/button.js';
import { choiceGroup } from '../../components/choice-group.js';
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { STEP_BUDGETS } from './state.js';

// actions: { play, stop } -> what each button does.
export function sweepControls(settings, { t, onSet, actions }) {
  const steps = choiceGroup({
    legend: t('controls.steps'), options: STEP_BUDGETS.map((v) => ({ value: v, label: String(v) })),
    value: settings.steps, onChange: (v) => onSet({ steps: v }),
  });
  steps.el.id = 'bottleneck-steps';
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }), label: t('controls.seed'), newLabel: t('controls.newSeed'), value: settings.seed, onChange: (v) => onSet({ seed: v }) });
  const buttons = {
    play: button({ label: t('buttons.play'), icon: '\u25b6', variant: 'primary', onClick: actions.play }),
    stop: button({ label: t('buttons.stop'), icon: '\u25a0', onClick: actions.stop }),
  };
  for (const [name, b] of Object.entries(buttons)) b.el.dataset.action = name;
  return {
    rows: [
      h('div', { class: 'controls-row bn-controls' }, steps.el, seed.el),
      h('div', { class: 'controls-row bn-buttons' }, buttons.play.el, buttons.stop.el),
    ],
    // status: 'idle', 'running', 'done', 'stopped' or 'failed'.
    setStatus(status) {
      buttons.play.el.disabled = status === 'running';
      buttons.stop.el.disabled = status !== 'running';
    },
  };
}
