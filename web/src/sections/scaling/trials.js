// Section 2, experiment 2: d_k = 64, eight keys, thousands of trials (a Korean
// study note's setting): the averages, raw against scaled. Runs in a
// background worker whenever a setting changes.
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { rangeSlider } from '../../components/range-slider.js';
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { weightBar } from '../../components/weight-bar.js';
import { formatFull, formatNumber, formatInteger } from '../../lib/format.js';
import { setFullValue } from '../../lib/full-value.js';
import { DIMENSIONS, TRIAL_COUNTS } from './state.js';
import { formatShare } from './format.js';
import { experimentTiming } from './experiment-timing.js';
import { trialsIntro } from './intros.js';
import { liveText } from '../../lib/live-text.js';

const ROWS = ['maxWeight', 'saturatedShare', 'gradient', 'entropy'];

export function trialsPanel(model, { t, lang, changed, rerun, timingContext }) {
  const e2 = model.settings.trials;
  const fmtInt = (x) => formatInteger(x, lang);
  const cells = {};
  const body = h('tbody', {}, ROWS.map((stat) => {
    cells[stat] = ['raw', 'scaled'].map((kind) => {
      const value = h('span', { class: 'sc-cell-value' });
      const bar = weightBar({ role: kind });
      return { td: h('td', { class: `num sc-cell sc-cell-${kind}` }, value, bar.el), value, bar };
    });
    return h('tr', {}, html('th', { scope: 'row' }, t(`trials.rows.${stat}`)), cells[stat].map((c) => c.td));
  }));
  const caption = h('caption');
  const timing = experimentTiming('trials', timingContext);
  const summary = h('p', { class: 'sc-summary sc-result', 'aria-live': 'polite' });
  const intro = liveText(h('p', { class: 'sc-intro' }));
  const showIntro = () => intro.set(t('trials.intro'), trialsIntro(model.settings.trials, lang));
  const set = (changes) => { model.set('trials', changes); showIntro(); run(); changed(); };
  const dk = rangeSlider({ label: t('controls.dk'), values: DIMENSIONS, value: e2.dk, format: String, onChange: (v) => set({ dk: v }) });
  const trials = rangeSlider({ label: t('controls.trials'), values: TRIAL_COUNTS, value: e2.trials, format: fmtInt, onChange: (v) => set({ trials: v }) });
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }), label: t('controls.seed'), newLabel: t('controls.newSeed'), value: e2.seed, onChange: (v) => set({ seed: v }) });
  seed.button.dataset.action = 'rerun';

  const el = h('div', { class: 'panel sc-panel', id: 'scaling-trials', dataset: { experiment: 'trials' } },
    h('p', { class: 'panel-title', html: t('trials.title') }),
    intro.el,
    h('div', { class: 'controls-row sc-controls' }, dk.el, trials.el, seed.el),
    h('div', { class: 'matrix-scroll is-wide sc-result' },
      h('table', { class: 'matrix sc-table sc-trials-table' }, caption,
        h('thead', {}, h('tr', {}, h('td'),
          html('th', { scope: 'col', class: 'sc-head-raw' }, t('columns.raw')),
          html('th', { scope: 'col', class: 'sc-head-scaled' }, t('columns.scaled')))),
        body)),
    summary,
    html('p', { class: 'sc-cite' }, t('trials.cite')),
    timing.el);

  const shown = {
    maxWeight: (x) => formatNumber(x, 3),
    saturatedShare: (x) => formatShare(x),
    gradient: (x) => formatNumber(x, 3),
    entropy: (x) => formatNumber(x, 3),
  };

  function show() {
    const r = model.results.trials;
    setHTML(caption, t('trials.caption', { dk: r.dk, keys: r.keys, trials: fmtInt(r.trials), seed: r.seed }));
    const barOf = { maxWeight: (x) => x, saturatedShare: (x) => x, gradient: (x) => x, entropy: (x) => x / Math.log(r.keys) };
    for (const stat of ROWS) {
      ['raw', 'scaled'].forEach((kind, i) => {
        const x = r[stat][kind];
        const cell = cells[stat][i];
        setText(cell.value, shown[stat](x));
        setFullValue(cell.td, formatFull(x));
        cell.bar.update(barOf[stat](x));
      });
    }
    setHTML(summary, t('trials.summary', {
      share: formatShare(r.saturatedShare.raw), ratio: formatNumber(r.gradient.scaled / r.gradient.raw, 1),
    }));
    timing.update(r);
  }
  const run = () => rerun('trials', el, show);

  showIntro();
  return { el, show: () => (model.results.trials ? show() : run()) };
}
