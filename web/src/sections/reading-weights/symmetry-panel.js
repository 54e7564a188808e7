// Section 3, the price of Q = K: the logits are exactly symmetric (L - L^T = 0,
// on the engine's reference path), and with separate random W_Q, W_K they are
// not (the median relative asymmetry over 200 random pairs, from a seed).
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { heatmap } from '../../components/heatmap.js';
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { formatScientific } from '../../lib/format.js';
import { formatNumber } from '../../lib/format.js';
import { TOKENS } from './state.js';
import formulas from './formulas.tex.js';

export function symmetryPanel(model, { t, labels, changed }) {
  const n = TOKENS.length;
  const symmetryValue = h('strong', { class: 'rw-big-number', id: 'reading-weights-symmetry' });
  const rowNote = h('p', { class: 'rw-note' });
  const pathNote = h('p', { class: 'rw-note' });
  const asymValue = h('strong', { class: 'rw-big-number', id: 'reading-weights-asymmetry' });
  const asymRange = h('p', { class: 'rw-note' });
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }),
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: model.inputs.seed,
    onChange: (s) => { model.setSeed(s); showAsymmetry(); changed(); },
  });
  seed.button.dataset.action = 'rerun';
  const diffMap = (caption) => heatmap({
    rows: n, cols: n, rowLabels: labels, colLabels: labels, diverging: true, digits: 1, compact: true,
    caption, tableSummary: t('table.show'),
  });
  const diffSymmetric = diffMap(t('symmetry.diffSymmetric'));
  const diffRandom = diffMap(t('symmetry.diffRandom'));
  const el = h('div', { class: 'panel rw-panel', id: 'reading-weights-asymmetry-panel' },
    h('p', { class: 'panel-title', html: t('symmetry.panelTitle') }),
    h('div', { class: 'rw-sym-grid' },
      h('div', { class: 'rw-sym-card' },
        html('p', { class: 'rw-sym-head' }, t('symmetry.sameTitle')),
        formula(formulas.symmetric).el,
        h('p', { class: 'rw-stat' }, html('span', {}, t('symmetry.measuredMax')), ' ', symmetryValue),
        pathNote,
        rowNote),
      h('div', { class: 'rw-sym-card' },
        html('p', { class: 'rw-sym-head' }, t('symmetry.separateTitle')),
        formula(formulas.asymmetric).el,
        h('div', { class: 'controls-row' }, seed.el),
        h('p', { class: 'rw-stat' }, html('span', {}, t('symmetry.measuredMedian')), ' ', asymValue),
        asymRange)),
    h('div', { class: 'rw-diffs' }, diffSymmetric.el, diffRandom.el));

  function showSymmetry() {
    const { reading } = model;
    setText(symmetryValue, formatScientific(reading.maxAsymmetry));
    symmetryValue.dataset.value = String(reading.maxAsymmetry);
    setHTML(pathNote, t('symmetry.paths', { fast: formatScientific(reading.fastMaxAsymmetry) }));
    setHTML(rowNote, t('symmetry.rowsDiffer', {
      l03: formatNumber(reading.logits[3], 3), l30: formatNumber(reading.logits[3 * n], 3),
      a03: formatNumber(reading.weights[3], 3), a30: formatNumber(reading.weights[3 * n], 3),
    }));
    const difference = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) difference[i * n + j] = reading.logits[i * n + j] - reading.logits[j * n + i];
    diffSymmetric.update(difference);
  }

  function showAsymmetry() {
    model.refreshAsymmetry();
    const a = model.asymmetry;
    if (!a) return;
    seed.set(a.seed);
    setText(asymValue, formatNumber(a.median, 3));
    asymValue.dataset.value = String(a.median);
    setHTML(asymRange, t('symmetry.range', {
      pairs: a.pairs, seed: a.seed, min: formatNumber(a.min, 3), max: formatNumber(a.max, 3),
      example: formatNumber(a.example.maxAsymmetry, 3),
    }));
    diffRandom.update(a.example.difference);
    el.dataset.run = String(Number(el.dataset.run ?? 0) + 1);
  }

  return { el, showSymmetry, showAsymmetry };
}
