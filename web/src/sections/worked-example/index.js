// Section 1 view: the worked example of article 001, every intermediate number
// shown and editable; q can be dragged in the plane. State: ./state.js.
import { h, html, setHTML, setText } from '../../components/dom.js';
import { formula } from '../../components/formula.js';
import { matrixInput } from '../../components/matrix-input.js';
import { toggleSwitch } from '../../components/toggle-switch.js';
import { button } from '../../components/button.js';
import { vectorPlot, pointText } from '../../components/vector-plot.js';
import { columnVector } from '../../components/column-vector.js';
import { weightBar } from '../../components/weight-bar.js';
import { math, mrow, mi, mo, mn, mcolumn } from '../../components/live-math.js';
import { formatFull, formatNumber, subscript } from '../../lib/format.js';
import { createWorkedExample } from './state.js';
import params from './params.js';
import formulas, { inline } from './formulas.tex.js';
import './worked-example.css';

export default { mount, params };

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createWorkedExample(engine, initial ?? params.defaults()));
  const m = model.inputs.keys.length;
  const keyLabel = (j) => `k${subscript(j + 1)}`;
  const valueLabel = (j) => `v${subscript(j + 1)}`;

  // ---- inputs -------------------------------------------------------------
  const errorSlot = h('p', { class: 'input-error', role: 'status', 'aria-live': 'polite' });
  const qInput = matrixInput({
    values: model.inputs.q, rows: 1, cols: 2, role: 'q',
    rowLabels: ['<i>q</i>'], colLabels: ['1', '2'],
    caption: t('inputs.query'),
    cellLabel: (_, c) => t('inputs.queryCell', { i: c + 1 }),
    onInput: (_, c, x) => { model.setQuery(c, x); refresh({ from: 'input' }); },
  });
  const kInput = matrixInput({
    values: model.inputs.keys.flat(), rows: m, cols: 2, role: 'k',
    rowLabels: model.inputs.keys.map((_, j) => `<i>k</i><sub>${j + 1}</sub>`), colLabels: ['1', '2'],
    caption: t('inputs.keys'),
    cellLabel: (r, c) => t('inputs.keyCell', { j: r + 1, i: c + 1 }),
    onInput: (r, c, x) => { model.setKey(r, c, x); refresh({ from: 'input' }); },
  });
  const vInput = matrixInput({
    values: model.inputs.values.flat(), rows: m, cols: 2, role: 'v',
    rowLabels: model.inputs.values.map((_, j) => `<i>v</i><sub>${j + 1}</sub>`), colLabels: ['1', '2'],
    caption: t('inputs.values'),
    cellLabel: (r, c) => t('inputs.valueCell', { j: r + 1, i: c + 1 }),
    onInput: (r, c, x) => { model.setValue(r, c, x); refresh({ from: 'input' }); },
  });
  const scalingSwitch = toggleSwitch({
    label: t('controls.scaling'), ariaLabel: t('controls.scalingName'), checked: model.inputs.scaling,
    onChange: (on) => { model.setScaling(on); refresh(); },
  });
  const reset = button({
    label: t('actions.reset'), icon: '\u21ba',
    onClick: () => { model.reset(); refresh({ from: 'reset' }); },
  });

  // ---- plots ----------------------------------------------------------------
  const keysPlot = vectorPlot({
    title: t('plots.keysTitle'),
    description: t('plots.keysDescription'),
    handleLabel: t('plots.handle'),
    valueText: (x, y) => `q = ${pointText(x, y)}`,
    onMove: (_, x, y) => { model.setQueryVector(x, y); refresh({ from: 'drag' }); },
  });
  const valuesPlot = vectorPlot({
    title: t('plots.valuesTitle'),
    description: t('plots.valuesDescription'),
    hull: true,
  });

  // ---- the steps table ---------------------------------------------------------
  const stepRows = ['dot', 'scaled', 'exp', 'weight', 'mix'];
  const cells = {};
  const rowHeads = {};
  const sums = {};
  const bars = [];
  const mixVectors = [];
  const outputVector = columnVector({ size: 2, role: 'o' });
  const tbody = h('tbody');
  for (const step of stepRows) {
    const label = h('span', { class: 'step-math' });
    rowHeads[step] = label;
    const tr = h('tr', { class: `step-${step}` },
      h('th', { scope: 'row' }, h('span', { class: 'step-name', text: t(`steps.${step}`) }), label));
    cells[step] = [];
    for (let j = 0; j < m; j++) {
      const td = h('td', { class: 'num' });
      if (step === 'weight') {
        const value = h('span', { class: 'step-value' });
        const bar = weightBar();
        bars.push(bar);
        td.append(value, bar.el);
        cells[step].push(value);
      } else if (step === 'mix') {
        const vec = columnVector({ size: 2, role: 'v' });
        mixVectors.push(vec);
        td.append(vec.el);
        cells[step].push(null);
      } else {
        cells[step].push(td);
      }
      tr.append(td);
    }
    const sumCell = h('td', { class: 'num step-sum' });
    if (step === 'mix') sumCell.append(outputVector.el);
    sums[step] = sumCell;
    tr.append(sumCell);
    tbody.append(tr);
  }
  setHTML(rowHeads.dot, inline.dot);
  setHTML(rowHeads.exp, inline.exp);
  setHTML(rowHeads.weight, inline.weight);
  setHTML(rowHeads.mix, inline.mix);
  const table = h('table', { class: 'steps-table' },
    html('caption', {}, t('steps.caption')),
    h('thead', {}, h('tr', {},
      h('td'),
      Array.from({ length: m }, (_, j) => html('th', { scope: 'col', class: 'role-text-k' }, `<i>k</i><sub>${j + 1}</sub>`)),
      html('th', { scope: 'col' }, t('steps.total')))),
    tbody);

  // o = w1 v1 + w2 v2 + w3 v3 = o as separate pieces, so it wraps on a phone.
  const outputEq = h('div', { class: 'we-output-eq' });
  const compare = h('p', { class: 'we-compare' });

  // ---- layout ----------------------------------------------------------------
  root.append(
    html('div', { class: 'prose section-lede' }, t('lede')),
    h('div', { class: 'prose' }, formula(formulas.attention).el, html('p', {}, t('perKeyIntro')),
      formula(formulas.perKey).el),
    h('div', { class: 'panel we-panel' },
      h('p', { class: 'panel-title', text: t('panelTitle') }),
      html('p', { class: 'we-hint' }, t('hint')),
      h('div', { class: 'we-plots' },
        h('figure', { class: 'we-plot' }, keysPlot.el, html('figcaption', {}, t('plots.keysCaption'))),
        h('figure', { class: 'we-plot' }, valuesPlot.el, html('figcaption', {}, t('plots.valuesCaption')))),
      h('div', { class: 'we-work' },
        h('div', { class: 'we-inputs' },
          h('div', { class: 'we-matrices' }, qInput.el, kInput.el, vInput.el),
          errorSlot,
          h('div', { class: 'controls-row' }, scalingSwitch.el, reset.el)),
        h('div', { class: 'we-steps' }, h('div', { class: 'matrix-scroll' }, table), outputEq, compare))),
    html('div', { class: 'prose' }, t('after')));

  function refresh({ from } = {}) {
    onChange?.(model.snapshot);   // the host keeps links and attributes in step
    const { result, error, inputs, other } = model;
    setText(errorSlot, error ? t('inputs.error', { message: error }) : '');
    root.querySelector('.we-steps').classList.toggle('is-stale', Boolean(error));
    if (from !== 'input') {
      qInput.set(inputs.q);
      kInput.set(inputs.keys.flat());
      vInput.set(inputs.values.flat());
    }
    scalingSwitch.set(inputs.scaling);
    if (!result) return;

    setHTML(rowHeads.scaled, result.scaling ? inline.scaled : inline.unscaled);
    for (let j = 0; j < m; j++) {
      setCell(cells.dot[j], result.scores[j]);
      setCell(cells.scaled[j], result.scaled[j]);
      setCell(cells.exp[j], result.exps[j]);
      setCell(cells.weight[j], result.weights[j]);
      bars[j].update(result.weights[j]);
      mixVectors[j].update(result.weighted[j]);
    }
    setText(sums.dot, '');
    setText(sums.scaled, result.scaling ? `\u00d7 ${formatNumber(result.scale)}` : '');
    sums.scaled.title = result.scaling ? t('steps.scaleTitle', { scale: formatFull(result.scale) }) : '';
    setCell(sums.exp, result.sumExp);
    setCell(sums.weight, result.weightSum);
    outputVector.update(result.output);

    // o = w1 v1 + w2 v2 + w3 v3 = o, with the live numbers.
    outputEq.replaceChildren(
      math([mrow(mi('o', 'o'), mo('='))]),
      ...result.weights.map((w, j) => math([mrow(j > 0 ? mo('+') : null, mn(w), mcolumn(result.values[j], 3, 'v', { trim: true }))])),
      math([mrow(mo('='), mcolumn(result.output, 3, 'o'))]));

    setHTML(compare, t(result.scaling ? 'compare.withoutScaling' : 'compare.withScaling', {
      divisor: formatNumber(Math.sqrt(result.dk)),
      weights: other.weights.map((w) => formatNumber(w)).join(', '),
    }));

    // Plots.
    const key = (v, j) => ({ id: `k${j}`, role: 'k', x: v[0], y: v[1], weight: result.weights[j],
      label: `${keyLabel(j)} ${formatNumber(result.weights[j], 2)}` });
    keysPlot.update([
      ...result.keys.map(key),
      { id: 'q', role: 'q', x: result.q[0], y: result.q[1], label: 'q', draggable: true },
    ]);
    valuesPlot.update([
      ...result.values.map((v, j) => ({ id: `v${j}`, role: 'v', x: v[0], y: v[1], weight: result.weights[j],
        label: valueLabel(j) })),
      { id: 'o', role: 'o', x: result.output[0], y: result.output[1], label: 'o' },
    ]);
  }

  refresh();
  return {};
}

function setCell(el, x) {
  setText(el, formatNumber(x));
  el.title = formatFull(x);
}
