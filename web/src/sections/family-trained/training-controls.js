// Section "family-trained", the controls: the task, the seed, which models
// train (a switch each: Bahdanau's, Luong's three scores), Luong's window and
// input feeding (each one, the other, or both side by side), how many variants
// that makes, and play / stop. A setting changed calls onSet(changes); play
// is refused while the settings make no variant or too many (./state.js settingsProblem).
import { h, html, setHTML } from '../../lib/dom.js';
import { button } from '../../components/button.js';
import { choiceGroup } from '../../components/choice-group.js';
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { toggleSwitch } from '../../components/toggle-switch.js';
import { FEEDINGS, REVERSE_LENGTH, SCORES, TASKS, WINDOWS, settingsProblem, variantsOf } from './state.js';

// actions: { play, stop } -> what each button does.
export function trainingControls(settings, { t, onSet, actions }) {
  const choices = (id, legend, values, key) => {
    const group = choiceGroup({
      legend: t(legend), options: values.map((v) => ({ value: v, label: t(`${legend}s.${v}`, { length: REVERSE_LENGTH }) })),
      value: settings[key], onChange: (v) => onSet({ [key]: v }),
    });
    group.el.id = id;
    return group;
  };
  const task = choices('family-trained-task', 'controls.task', TASKS, 'task');
  const window = choices('family-trained-window', 'controls.window', WINDOWS, 'window');
  const feeding = choices('family-trained-feeding', 'controls.feeding', FEEDINGS, 'feeding');
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }), label: t('controls.seed'), newLabel: t('controls.newSeed'), value: settings.seed, onChange: (v) => onSet({ seed: v }) });
  const switches = SCORES.map((score) => {
    const s = toggleSwitch({
      label: t(`controls.models.${score}`), checked: settings.scores.includes(score),
      onChange: (on) => onSet({ scores: SCORES.filter((x) => (x === score ? on : settings.scores.includes(x))) }),
    });
    s.el.dataset.score = score;
    return s;
  });
  const models = h('fieldset', { class: 'ft-models', id: 'family-trained-models' },
    html('legend', { class: 'choice-legend' }, t('controls.modelsLegend')),
    h('div', { class: 'ft-switches' }, switches.map((s) => s.el)));
  const count = h('p', { class: 'ft-count', role: 'status' });
  const buttons = {
    play: button({ label: t('buttons.play'), icon: '\u25b6', variant: 'primary', onClick: actions.play }),
    stop: button({ label: t('buttons.stop'), icon: '\u25a0', onClick: actions.stop }),
  };
  for (const [name, b] of Object.entries(buttons)) b.el.dataset.action = name;
  let status = 'idle';

  function update() {
    const problem = settingsProblem(settings);
    setHTML(count, problem ? t(problem.key, problem.params) : t('controls.count', { count: variantsOf(settings).length }));
    count.classList.toggle('is-problem', Boolean(problem));
    buttons.play.el.disabled = status === 'running' || Boolean(problem);
    buttons.stop.el.disabled = status !== 'running';
  }
  update();

  return {
    rows: [
      h('div', { class: 'controls-row ft-controls' }, task.el, seed.el),
      models,
      h('div', { class: 'controls-row ft-controls' }, window.el, feeding.el),
      count,
      h('div', { class: 'controls-row ft-buttons' }, buttons.play.el, buttons.stop.el),
    ],
    // status: 'idle', 'running', 'done', 'stopped' or 'failed'.
    setStatus(next) {
      status = next;
      update();
    },
  };
}
