// Section "gradients", the experiment's controls: d_k, the steps and the seed
// (onSet(changes)), the plan they make, and run / stop.
import { h, setHTML } from '../../lib/dom.js';
import { button } from '../../components/button.js';
import { choiceGroup } from '../../components/choice-group.js';
import { rangeSlider } from '../../components/range-slider.js';
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { STEP_CHOICES, TRAIN_DIMENSIONS } from './experiment.js';

export function experimentControls(settings, { t, onSet, onRun, onStop }) {
  const dk = rangeSlider({
    label: t('experiment.controls.dk'), values: TRAIN_DIMENSIONS, value: settings.dk, format: String,
    onChange: (v) => onSet({ dk: v }),
  });
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }),
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: settings.seed, onChange: (v) => onSet({ seed: v }),
  });
  const steps = choiceGroup({
    legend: t('experiment.controls.steps'), options: STEP_CHOICES.map((s) => ({ value: s, label: String(s) })),
    value: settings.steps, onChange: (v) => onSet({ steps: v }),
  });
  const runButton = button({ label: t('experiment.run'), icon: '\u25b6', variant: 'primary', onClick: onRun });
  runButton.el.dataset.action = 'run';
  const stopButton = button({ label: t('experiment.stop'), icon: '\u25a0', onClick: onStop });
  stopButton.el.dataset.action = 'stop';
  const plan = h('p', { class: 'gr-plan' });

  return {
    settingsRow: h('div', { class: 'controls-row gr-controls' }, dk.el, steps.el, seed.el),
    plan,
    buttonsRow: h('div', { class: 'controls-row gr-buttons' }, runButton.el, stopButton.el),
    showPlan: (text) => setHTML(plan, text),
    setRunning(running) {
      runButton.el.disabled = running;
      stopButton.el.disabled = !running;
    },
  };
}
