// Section 3 view: reading a weight matrix. Article 003's six tokens in three
// topics with Q = K = V = X; each row of the heatmap is one token's gaze (hover
// a row, or pick the token); why a token can look at its pair more than at
// itself; exact symmetry of the logits when Q = K, and its loss with separate
// W_Q, W_K. State: ./state.js.
import { h, html, setHTML, setText } from '../../components/dom.js';
import { formula } from '../../components/formula.js';
import { heatmap } from '../../components/heatmap.js';
import { matrixInput } from '../../components/matrix-input.js';
import { numberInput } from '../../components/number-input.js';
import { button } from '../../components/button.js';
import { choiceGroup } from '../../components/choice-group.js';
import { weightBar } from '../../components/weight-bar.js';
import { seedControl } from '../../components/seed-control.js';
import { formatScientific } from '../../components/sci-format.js';
import { mathLabel } from '../../components/math-label.js';
import { formatFull, formatNumber } from '../../lib/format.js';
import { TOKENS, TOPIC_OF, createReading } from './state.js';
import params from './params.js';
import formulas, { inline } from './formulas.tex.js';
import './reading-weights.css';

export default { mount, params };

const TOPIC_GLYPHS = ['\u25cf', '\u25a0', '\u25b2'];  // ● ■ ▲
const tokenLabel = (i) =>
  `<span class="rw-topic rw-topic-${TOPIC_OF[i]}" aria-hidden="true">${TOPIC_GLYPHS[TOPIC_OF[i]]}</span>${TOKENS[i]}`;

function mount(root, { engine, t, store, initial, onChange }) {
  const start = initial ?? params.defaults();
  const model = (store.model ??= createReading(engine, {
    base: start.base, factor: start.factor, asymmetry: { seed: start.seed, pairs: 200 }, token: start.token,
  }));
  const changed = () => onChange?.(model.snapshot);   // the host keeps links and attributes in step
  const n = TOKENS.length;
  const d = model.inputs.base[0].length;
  root.classList.add('rw-root');
  const labels = TOKENS.map((_, i) => tokenLabel(i));

  // ---- the embeddings (editable) -------------------------------------------
  const errorSlot = h('p', { class: 'input-error', role: 'status', 'aria-live': 'polite' });
  const factorInput = numberInput({
    value: model.inputs.factor, label: t('inputs.factor'),
    onInput: (x) => { model.setFactor(x); refresh({ from: 'input' }); changed(); },
  });
  const baseInput = matrixInput({
    values: model.inputs.base.flat(), rows: n, cols: d,
    rowLabels: labels, colLabels: Array.from({ length: d }, (_, c) => String(c + 1)),
    caption: t('inputs.caption'),
    cellLabel: (r, c) => t('inputs.cell', { token: TOKENS[r], i: c + 1 }),
    onInput: (r, c, x) => { model.setEntry(r, c, x); refresh({ from: 'input' }); changed(); },
  });
  const reset = button({ label: t('actions.reset'), icon: '\u21ba', onClick: () => { model.reset(); refresh({ from: 'reset' }); changed(); } });
  setHTML(baseInput.el.querySelector('caption'), t('inputs.caption'));

  // ---- the weights, and one token's gaze ---------------------------------------
  const weightsMap = heatmap({
    rows: n, cols: n, rowLabels: labels, colLabels: labels,
    caption: t('heatmap.caption'), rowAxis: t('heatmap.rowAxis'), colAxis: t('heatmap.colAxis'),
    tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'), digits: 3,
  });
  weightsMap.el.classList.add('rw-heatmap');
  const gridRows = [...weightsMap.grid.querySelectorAll('.heatmap-row')].slice(1);
  weightsMap.grid.addEventListener('pointerover', (event) => {
    const row = gridRows.indexOf(event.target.closest('.heatmap-row'));
    if (row >= 0 && row !== model.selected) select(row);
  });

  const picker = choiceGroup({
    legend: t('gaze.picker'),
    options: TOKENS.map((_, i) => ({ value: i, label: labels[i] })),
    value: model.selected,
    onChange: (i) => select(i),
  });
  const gazeTitle = h('p', { class: 'rw-gaze-title' });
  const gazeBars = TOKENS.map((_, j) => {
    const bar = weightBar();
    const value = h('span', { class: 'rw-bar-value' });
    const note = h('span', { class: 'rw-bar-note' });
    const li = h('li', { class: 'rw-bar' },
      h('span', { class: 'rw-bar-key role-text-k', html: labels[j] }), bar.el, value, note);
    return { li, bar, value, note };
  });
  const gazeText = h('p', { class: 'rw-gaze-text', 'aria-live': 'polite' });
  const whyText = h('p', { class: 'rw-why-text' });
  const dotBody = h('tbody');
  const dotTable = h('table', { class: 'matrix rw-dot-table' },
    html('caption', {}, t('why.tableCaption')),
    h('thead', {}, h('tr', {}, h('td'), ...['dot', 'norm', 'cos', 'weight']
      .map((c) => h('th', { scope: 'col' }, mathLabel(t(`why.columns.${c}`), t(`why.columnsPlain.${c}`)))))),
    dotBody);

  // ---- symmetry ---------------------------------------------------------------
  const symmetryValue = h('strong', { class: 'rw-big-number', id: 'reading-weights-symmetry' });
  const rowNote = h('p', { class: 'rw-note' });
  const pathNote = h('p', { class: 'rw-note' });
  const asymValue = h('strong', { class: 'rw-big-number', id: 'reading-weights-asymmetry' });
  const asymRange = h('p', { class: 'rw-note' });
  const seed = seedControl({
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: model.settings.seed,
    onChange: (s) => { model.setSeed(s); showAsymmetry(); changed(); },
  });
  seed.button.dataset.action = 'rerun';
  const diffSymmetric = heatmap({
    rows: n, cols: n, rowLabels: labels, colLabels: labels, diverging: true, digits: 1, compact: true,
    caption: t('symmetry.diffSymmetric'), tableSummary: t('table.show'),
  });
  const diffRandom = heatmap({
    rows: n, cols: n, rowLabels: labels, colLabels: labels, diverging: true, digits: 1, compact: true,
    caption: t('symmetry.diffRandom'), tableSummary: t('table.show'),
  });
  const asymPanel = h('div', { class: 'panel rw-panel', id: 'reading-weights-asymmetry-panel' },
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

  // ---- layout --------------------------------------------------------------------
  root.append(
    h('div', { class: 'prose' }, html('p', { class: 'section-lede' }, t('lede'))),
    h('div', { class: 'prose' }, formula(formulas.weights).el, html('p', {}, t('setup'))),
    h('div', { class: 'panel rw-panel' },
      h('p', { class: 'panel-title', html: t('panelTitle') }),
      h('div', { class: 'rw-layout' },
        h('div', { class: 'rw-inputs' },
          html('p', { class: 'rw-hint' }, t('inputs.hint')),
          h('div', { class: 'rw-factor' }, html('span', { class: 'rw-factor-label' }, `${inline.embeddings}${t('inputs.factorShort')}`), factorInput.el),
          h('div', { class: 'matrix-scroll' }, baseInput.el),
          errorSlot,
          h('div', { class: 'controls-row' }, reset.el)),
        h('div', { class: 'rw-result' }, weightsMap.el)),
      h('div', { class: 'rw-gaze' },
        picker.el,
        gazeTitle,
        h('ul', { class: 'rw-bars' }, gazeBars.map((b) => b.li)),
        gazeText)),
    h('div', { class: 'prose' }, html('h3', {}, t('why.title')), html('p', {}, t('why.intro')), formula(formulas.dot).el),
    h('div', { class: 'panel rw-panel rw-why' }, whyText, h('div', { class: 'matrix-scroll' }, dotTable)),
    h('div', { class: 'prose' }, html('h3', {}, t('symmetry.title')), html('p', {}, t('symmetry.intro'))),
    asymPanel,
    html('div', { class: 'prose' }, t('after')));

  function select(i) {
    model.select(i);
    picker.set(i);
    showGaze();
    changed();
  }

  function showGaze() {
    const { reading, gaze } = model;
    if (!reading || !gaze) return;
    const i = gaze.i;
    weightsMap.cells.forEach((cell, k) => cell.classList.toggle('rw-selected', Math.floor(k / n) === i));
    gridRows.forEach((row, r) => row.classList.toggle('rw-selected-row', r === i));
    weightsMap.grid.classList.add('rw-has-selection');
    setHTML(gazeTitle, t('gaze.title', { token: labels[i] }));
    gazeBars.forEach((b, j) => {
      b.bar.update(gaze.row[j]);
      setText(b.value, formatNumber(gaze.row[j], 3));
      b.value.title = formatFull(gaze.row[j]);
      setText(b.note, j === i ? t('gaze.self') : j === gaze.pair ? t('gaze.pair') : '');
      b.li.classList.toggle('is-self', j === i);
      b.li.classList.toggle('is-pair', j === gaze.pair);
    });
    const params = {
      token: TOKENS[i], pair: TOKENS[gaze.pair],
      self: formatNumber(gaze.self, 3), pairWeight: formatNumber(gaze.pairWeight, 3),
      topTwo: formatNumber(gaze.topTwo, 3), rest: formatNumber(gaze.rest, 3),
      restMin: formatNumber(gaze.restMin, 3), restMax: formatNumber(gaze.restMax, 3),
      ratio: formatNumber(gaze.pairWeight / gaze.restMin, 0),
    };
    setHTML(gazeText, t(gaze.prefersPair ? 'gaze.summaryPair' : 'gaze.summarySelf', params));
    const whyKey = gaze.prefersPair ? 'why.pair' : gaze.selfNorm >= gaze.pairNorm ? 'why.self' : 'why.selfAligned';
    setHTML(whyText, t(whyKey, {
      ...params,
      selfDot: formatNumber(gaze.selfDot, 3), pairDot: formatNumber(gaze.pairDot, 3),
      selfNorm: formatNumber(gaze.selfNorm, 3), pairNorm: formatNumber(gaze.pairNorm, 3),
      cos: formatNumber(gaze.cos, 3),
    }));
    dotBody.replaceChildren(...TOKENS.map((_, j) => {
      const dot = reading.logits[i * n + j];
      const cos = dot / (reading.norms[i] * reading.norms[j]);
      const cells = [dot, reading.norms[j], cos, gaze.row[j]];
      return h('tr', { class: [j === i && 'is-self', j === gaze.pair && 'is-pair'] },
        h('th', { scope: 'row', html: `${TOKENS[i]} · ${labels[j]}` }),
        ...cells.map((x) => h('td', { class: 'num', text: formatNumber(x, 3), title: formatFull(x) })));
    }));
  }

  function showSymmetry() {
    const { reading } = model;
    if (!reading) return;
    setText(symmetryValue, formatScientific(reading.maxAsymmetry));
    symmetryValue.dataset.value = String(reading.maxAsymmetry);
    setHTML(pathNote, t('symmetry.paths', { fast: formatScientific(reading.fastMaxAsymmetry) }));
    const a03 = reading.weights[0 * n + 3];
    const a30 = reading.weights[3 * n + 0];
    setHTML(rowNote, t('symmetry.rowsDiffer', {
      l03: formatNumber(reading.logits[3], 3), l30: formatNumber(reading.logits[3 * n], 3),
      a03: formatNumber(a03, 3), a30: formatNumber(a30, 3),
    }));
    const zeros = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) zeros[i * n + j] = reading.logits[i * n + j] - reading.logits[j * n + i];
    diffSymmetric.update(zeros);
  }

  function showAsymmetry() {
    model.refreshAsymmetry();
    const a = model.asymmetry;
    if (!a) return;
    setText(asymValue, formatNumber(a.median, 3));
    asymValue.dataset.value = String(a.median);
    setHTML(asymRange, t('symmetry.range', {
      pairs: a.pairs, seed: a.seed, min: formatNumber(a.min, 3), max: formatNumber(a.max, 3),
      example: formatNumber(a.example.maxAsymmetry, 3),
    }));
    diffRandom.update(a.example.difference);
    asymPanel.dataset.run = String(Number(asymPanel.dataset.run ?? 0) + 1);
  }

  let asymTimer = 0;
  function refresh({ from } = {}) {
    const { reading, error, inputs } = model;
    setText(errorSlot, error ? t('inputs.error', { message: error }) : '');
    root.querySelector('.rw-result')?.classList.toggle('is-stale', Boolean(error));
    if (from !== 'input') {
      baseInput.set(inputs.base.flat());
      factorInput.set(inputs.factor);
    }
    if (!reading) return;
    weightsMap.update(reading.weights);
    showGaze();
    showSymmetry();
    // The 200 random pairs are recomputed once the reader pauses typing.
    clearTimeout(asymTimer);
    if (from === 'input') asymTimer = setTimeout(showAsymmetry, 150);
    else showAsymmetry();
  }

  refresh();
  return { destroy() { clearTimeout(asymTimer); } };
}
