// Section 2 view: why the scores are divided by sqrt(d_k). The variance
// argument as formulas, then three experiments that the engine runs from a
// seed, each raw against scaled and each rerunnable. State: ./state.js. The
// experiments: ./ten-keys.js, ./trials.js, ./sweep.js.
import { h, html } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { createScaling } from './state.js';
import { createExperimentPool } from './experiment-pool.js';
import { tenKeysPanel } from './ten-keys.js';
import { trialsPanel } from './trials.js';
import { sweepPanel } from './sweep.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import '../../components/matrix.css';
import './scaling.css';

export default { mount, params };

// One pool of background workers per page, shared by every mount (a language
// switch mounts the section again).
let pool = null;
function experimentPool(engine) {
  pool ??= createExperimentPool({ engine, size: 2 });
  return pool;
}

function mount(root, { engine, t, lang, store, initial, onChange }) {
  const model = (store.model ??= createScaling(engine, initial ?? params.defaults()));
  root.classList.add('sc-root');
  const pools = experimentPool(engine);

  // Experiments 2 and 3 run in the background; a newer request wins.
  const requests = { trials: 0, sweep: 0 };
  let destroyed = false;
  async function rerun(name, panel, show) {
    const mine = ++requests[name];
    panel.setAttribute('aria-busy', 'true');
    panel.classList.add('is-running');
    try {
      const result = await pools.run(name, { ...model.settings[name] });
      if (destroyed || mine !== requests[name]) return;
      model.setResult(name, result);
      show();
      panel.dataset.run = String(Number(panel.dataset.run ?? 0) + 1);
    } catch (err) {
      console.error(err);
    } finally {
      if (!destroyed && mine === requests[name]) {
        panel.removeAttribute('aria-busy');
        panel.classList.remove('is-running');
      }
    }
  }

  const context = {
    t, lang, rerun,
    changed: () => onChange?.(model.snapshot),   // the host keeps links and widget attributes in step
    timingContext: { t, engine, inBackground: () => pools.inBackground },
  };
  const tenKeys = tenKeysPanel(model, context);
  const trials = trialsPanel(model, context);
  const sweep = sweepPanel(model, context);

  root.append(
    h('div', { class: 'prose' }, html('p', { class: 'section-lede' }, t('lede'))),
    h('div', { class: 'prose' },
      html('p', {}, t('argument.intro')),
      formula(formulas.mean).el,
      html('p', {}, t('argument.variance')),
      formula(formulas.variance).el,
      html('p', {}, t('argument.scaled')),
      formula(formulas.scaled).el,
      html('p', {}, t('argument.experiments'))),
    tenKeys.el,
    trials.el,
    h('div', { class: 'prose' },
      html('h3', {}, t('gradient.title')),
      html('p', {}, t('gradient.text')),
      formula(formulas.jacobian).el,
      html('p', {}, t('gradient.entropy')),
      formula(formulas.entropy).el),
    sweep.el,
    html('div', { class: 'prose' }, t('after')));

  // Results are kept across a language switch: only missing ones are run.
  tenKeys.show();
  trials.show();
  sweep.show();

  return {
    destroy() {
      destroyed = true;
      sweep.destroy();
    },
  };
}
