// Section 9 view: attention is blind to order. Shuffle article 003's six tokens
// (a chosen permutation or a random one) and the outputs shuffle exactly the
// same way, row by row; switch on sinusoidal positional encodings and they no
// longer do. State: ./state.js.
import { h, html, setHTML, setText, uid } from '../../components/dom.js';
import { formula } from '../../components/formula.js';
import { heatmap } from '../../components/heatmap.js';
import { button } from '../../components/button.js';
import { toggleSwitch } from '../../components/toggle-switch.js';
import { formatScientific } from '../../components/sci-format.js';
import { formatFull, formatNumber, formatVector } from '../../lib/format.js';
import {
  TOKENS, createOrder, formatPermutation, parsePermutation, randomPermutation,
} from './state.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import '../../components/number-input.css';
import '../../components/matrix.css';
import './order.css';

export default { mount, params };

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createOrder(engine, initial ?? params.defaults()));
  const n = TOKENS.length;
  const d = model.result.d;
  root.classList.add('or-root');

  // ---- controls ---------------------------------------------------------------
  const permId = uid('perm');
  const permHelpId = uid('perm-help');
  const permInput = h('input', {
    id: permId, class: 'number-input or-perm-input', type: 'text', inputmode: 'numeric', autocomplete: 'off',
    spellcheck: 'false', 'aria-describedby': permHelpId, '.value': formatPermutation(model.perm),
  });
  const permError = h('p', { class: 'input-error', role: 'status', 'aria-live': 'polite' });
  permInput.addEventListener('input', () => {
    const parsed = parsePermutation(permInput.value, n);
    permInput.setAttribute('aria-invalid', String(Boolean(parsed.error)));
    if (parsed.error) {
      setText(permError, t(`perm.errors.${parsed.error}`, { n, last: n - 1, count: parsed.count, value: parsed.value }));
      return;
    }
    setText(permError, '');
    model.setPermutation(parsed.perm);
    refresh({ from: 'input' });
  });
  const shuffle = button({
    label: t('perm.shuffle'), icon: '\u21c4',
    onClick: () => {
      let next;
      do next = randomPermutation(n); while (next.every((p, i) => p === model.perm[i]));
      model.setPermutation(next);
      refresh();
    },
  });
  shuffle.el.dataset.action = 'shuffle';
  const reset = button({ label: t('perm.reset'), icon: '\u21ba', onClick: () => { model.reset(); refresh(); } });
  const peSwitch = toggleSwitch({
    label: t('pe.toggle'), checked: model.positional,
    onChange: (on) => { model.setPositional(on); refresh(); },
  });
  peSwitch.el.id = 'order-pe-toggle';

  // ---- results -------------------------------------------------------------------
  const sequence = h('ol', { class: 'or-sequence', 'aria-label': t('perm.sequenceLabel') });
  const bigLabel = h('span', { class: 'or-big-label' });
  const bigValue = h('strong', { class: 'or-big-number', id: 'order-max-diff' });
  const verdict = h('p', { class: 'or-verdict', 'aria-live': 'polite' });
  const pathNote = h('p', { class: 'or-note' });
  const rowsBody = h('tbody');
  const columnNames = Object.fromEntries(['position', 'token', 'shuffled', 'original', 'difference']
    .map((c) => [c, t(`rows.columns.${c}`).replace(/<[^>]+>/g, '')]));
  const rowsTable = h('table', { class: 'matrix or-rows' },
    html('caption', {}, t('rows.caption')),
    h('thead', {}, h('tr', {}, ...['position', 'token', 'shuffled', 'original', 'difference']
      .map((c) => html('th', { scope: 'col' }, t(`rows.columns.${c}`))))),
    rowsBody);

  const originalMap = heatmap({
    rows: n, cols: n, rowLabels: TOKENS, colLabels: TOKENS, compact: true, digits: 2,
    caption: t('heatmaps.original'), tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'),
  });
  const shuffledSlot = h('div', { class: 'or-heatmap-slot' });
  let shuffledMap = null;
  let shuffledFor = '';

  const peMap = heatmap({
    rows: n, cols: d, rowLabels: Array.from({ length: n }, (_, p) => t('pe.position', { p })),
    colLabels: Array.from({ length: d }, (_, i) => t('pe.dimension', { i })),
    rowRole: 'm', colRole: 'm', diverging: true, digits: 2,
    caption: t('pe.caption'), tableSummary: t('table.show'),
  });
  peMap.el.classList.add('or-pe-map');

  const mainPanel = h('div', { class: 'panel or-panel', id: 'order-panel' },
    h('p', { class: 'panel-title', html: t('panelTitle') }),
    html('p', { class: 'or-hint' }, t('hint')),
    h('div', { class: 'or-controls' },
      h('div', { class: 'or-perm-field' },
        h('label', { for: permId, class: 'or-perm-label', html: t('perm.label') }),
        permInput,
        html('p', { id: permHelpId, class: 'or-help' }, t('perm.help'))),
      h('div', { class: 'controls-row or-buttons' }, shuffle.el, reset.el, peSwitch.el)),
    permError,
    sequence,
    h('div', { class: 'or-result' },
      h('p', { class: 'or-big' }, bigLabel, ' ', bigValue),
      verdict,
      pathNote),
    h('div', { class: 'matrix-scroll' }, rowsTable),
    h('div', { class: 'or-heatmaps' }, originalMap.el, shuffledSlot));

  root.append(
    h('div', { class: 'prose' }, html('p', { class: 'section-lede' }, t('lede'))),
    h('div', { class: 'prose' }, html('p', {}, t('why')), formula(formulas.equivariance).el, html('p', {}, t('whyAfter'))),
    mainPanel,
    h('div', { class: 'prose' }, html('h3', {}, t('pe.title')), html('p', {}, t('pe.intro')), formula(formulas.encoding).el),
    h('div', { class: 'panel or-panel' },
      h('p', { class: 'panel-title', html: t('pe.panelTitle') }),
      peMap.el,
      html('p', { class: 'or-note' }, t('pe.note'))),
    html('div', { class: 'prose' }, t('after')));

  function refresh({ from } = {}) {
    const r = model.result;
    const changed = from !== 'mount';   // the host keeps links and attributes in step
    if (from !== 'input') {
      permInput.value = formatPermutation(model.perm);
      permInput.setAttribute('aria-invalid', 'false');
      setText(permError, '');
    }
    peSwitch.set(r.positional);
    mainPanel.classList.toggle('has-positions', r.positional);

    sequence.replaceChildren(...r.perm.map((from, pos) => h('li', { class: ['or-slot', from === pos && 'is-fixed'] },
      h('span', { class: 'or-slot-pos', text: t('perm.slot', { p: pos }) }),
      h('span', { class: 'or-slot-token', text: TOKENS[from] }))));

    setHTML(bigLabel, t('result.label'));
    setText(bigValue, formatScientific(r.maxDiff));
    bigValue.dataset.value = String(r.maxDiff);
    bigValue.classList.toggle('is-zero', r.maxDiff === 0);
    const fixed = r.perm.filter((p, i) => p === i).map((p) => TOKENS[p]);
    let verdictKey = 'result.nonzero';
    if (r.maxDiff === 0) verdictKey = r.positional ? 'result.identity' : 'result.zero';
    else if (fixed.length > 0) verdictKey = 'result.nonzeroFixed';
    setHTML(verdict, t(verdictKey, { fixed: fixed.join(', ') }));
    setHTML(pathNote, t('result.paths', { fast: formatScientific(r.fastMaxDiff) }));

    rowsBody.replaceChildren(...r.perm.map((from, pos) => {
      const shuffledRow = r.shuffled.output.subarray(pos * d, (pos + 1) * d);
      const originalRow = r.original.output.subarray(from * d, (from + 1) * d);
      const diff = r.rowDiffs[pos];
      const label = (c) => ({ label: columnNames[c] });
      return h('tr', { class: [diff === 0 ? 'is-same' : 'is-different'] },
        h('th', { scope: 'row', text: String(pos), dataset: label('position') }),
        h('td', { class: 'or-token', text: TOKENS[from], dataset: label('token') }),
        h('td', { class: 'num role-text-o', text: formatVector(shuffledRow, 3), title: Array.from(shuffledRow, formatFull).join(', '), dataset: label('shuffled') }),
        h('td', { class: 'num role-text-o', text: formatVector(originalRow, 3), title: Array.from(originalRow, formatFull).join(', '), dataset: label('original') }),
        h('td', { class: 'num or-diff', text: formatScientific(diff), title: formatFull(diff), dataset: label('difference') }));
    }));

    originalMap.update(r.original.weights);
    const key = r.perm.join(',');
    if (key !== shuffledFor) {
      const labels = r.perm.map((p) => TOKENS[p]);
      shuffledMap = heatmap({
        rows: n, cols: n, rowLabels: labels, colLabels: labels, compact: true, digits: 2,
        caption: t('heatmaps.shuffled'), tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'),
      });
      shuffledSlot.replaceChildren(shuffledMap.el);
      shuffledFor = key;
    }
    shuffledMap.update(r.shuffled.weights);
    peMap.update(r.pe);
    mainPanel.dataset.run = String(Number(mainPanel.dataset.run ?? 0) + 1);
    if (changed) onChange?.({ perm: [...model.perm], positional: model.positional });
  }

  refresh({ from: 'mount' });
  return {};
}
