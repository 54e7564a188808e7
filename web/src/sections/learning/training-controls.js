// Section "learning", the training's controls: the model's settings (task, h,
// learning rate, scaling, seed) and play / pause / one step / reset. A
// setting changed calls onSet(changes); the buttons follow the run's status.
import { h } from '../../lib/dom.js';
import { button } from '../../components/button.js';
import { choiceGroup } from '../../components/choice-group.js';
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { toggleSwitch } from '../../components/toggle-switch.js';
import { HEAD_CHOICES, LEARNING_RATES, TASKS } from './state.js';

// actions: { play, pause, step, reset } -> what each button does.
export function trainingControls(settings, { t, onSet, actions }) {
  const choices = (id, legend, values, label, key) => {
    const group = choiceGroup({
      legend: t(legend), options: values.map((v) => ({ value: v, label: label(v) })),
      value: settings[key], onChange: (v) => onSet({ [key]: v }),
    });
    group.el.id = id;
    return group;
  };
  const task = choices('learning-task', 'controls.task', TASKS, (v) => t(`tasks.${v}.name`), 'task');
  const heads = choices('learning-heads', 'controls.heads', HEAD_CHOICES, String, 'heads');
  const rate = choices('learning-rate', 'controls.learningRate', LEARNING_RATES, String, 'learningRate');
  const scaling = toggleSwitch({
    label: t('controls.scaling'), ariaLabel: t('controls.scalingPlain'), checked: settings.scale, onChange: (v) => onSet({ scale: v }),
  });
  scaling.el.id = 'learning-scaling';
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }), label: t('controls.seed'), newLabel: t('controls.newSeed'), value: settings.seed, onChange: (v) => onSet({ seed: v }) });

  const buttons = {
    play: button({ label: t('buttons.play'), icon: '\u25b6', variant: 'primary', onClick: actions.play }),
    pause: button({ label: t('buttons.pause'), icon: '\u275a\u275a', onClick: actions.pause }),
    step: button({ label: t('buttons.step'), icon: '+1', onClick: actions.step }),
    reset: button({ label: t('buttons.reset'), icon: '\u21ba', onClick: actions.reset }),
  };
  for (const [name, b] of Object.entries(buttons)) b.el.dataset.action = name;

  return {
    rows: [
      h('div', { class: 'controls-row le-controls' }, task.el, heads.el, rate.el),
      h('div', { class: 'controls-row le-controls' }, scaling.el, seed.el),
      h('div', { class: 'controls-row le-buttons' }, ...Object.values(buttons).map((b) => b.el)),
    ],
    // status: 'idle', 'playing', 'paused' or 'stopped'; atLimit: the run is at its last step.
    setStatus(status, atLimit) {
      buttons.play.el.disabled = status === 'playing' || atLimit;
      buttons.pause.el.disabled = status !== 'playing';
      buttons.step.el.disabled = atLimit;
      buttons.reset.el.disabled = status === 'idle';
    },
  };
}
