// Section 9, the main panel: a permutation (typed, shuffled at random, or
// reset) and the positional switch; the new order, the largest difference
// between the shuffled outputs and the original ones moved with their tokens,
// row by row, and the two weight heatmaps.
import { h, html, setHTML, setText, uid } from '../../lib/dom.js';
import { heatmap } from '../../components/heatmap.js';
import { button } from '../../components/button.js';
import { toggleSwitch } from '../../components/toggle-switch.js';
import { formatScientific } from '../../lib/format.js';
import { formatFull, formatVector } from '../../lib/format.js';
import { setFullValue } from '../../lib/full-value.js';
import { TOKENS, formatPermutation, parsePermutation, randomPermutation } from './state.js';

const COLUMNS = ['position', 'token', 'shuffled', 'original', 'difference'];

export function shufflePanel(model, { t, changed }) {
  const n = TOKENS.length;
  const d = model.result.d;

  // ---- controls ---------------------------------------------------------------
  const permId = uid('perm');
  const permHelpId = uid('perm-help');
  const permInput = h('input', {
    id: permId, class: 'number-input or-perm-input', type: 'text', inputmode: 'text', autocomplete: 'off', autocapitalize: 'off',
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
    changed('input');
  });
  const shuffle = button({
    label: t('perm.shuffle'), icon: '\u21c4',
    onClick: () => {
      let next;
      do next = randomPermutation(n); while (next.every((p, i) => p === model.perm[i]));
      model.setPermutation(next);
      changed();
    },
  });
  shuffle.el.dataset.action = 'shuffle';
  const reset = button({ label: t('perm.reset'), icon: '\u21ba', onClick: () => { model.reset(); changed(); } });
  const peSwitch = toggleSwitch({
    label: t('pe.toggle'), checked: model.positional,
    onChange: (on) => { model.setPositional(on); changed(); },
  });
  peSwitch.el.id = 'order-pe-toggle';

  // ---- results -------------------------------------------------------------------
  const sequence = h('ol', { class: 'or-sequence', 'aria-label': t('perm.sequenceLabel') });
  const bigValue = h('strong', { class: 'or-big-number', id: 'order-max-diff' });
  const verdict = h('p', { class: 'or-verdict', 'aria-live': 'polite' });
  const pathNote = h('p', { class: 'or-note' });
  const rowsBody = h('tbody');
  const columnNames = Object.fromEntries(COLUMNS.map((c) => [c, t(`rows.columns.${c}`).replace(/<[^>]+>/g, '')]));
  const rowsTable = h('table', { class: 'matrix or-rows' },
    html('caption', {}, t('rows.caption')),
    h('thead', {}, h('tr', {}, ...COLUMNS.map((c) => html('th', { scope: 'col' }, t(`rows.columns.${c}`))))),
    rowsBody);
  const weightsMap = (labels, caption) => heatmap({
    rows: n, cols: n, rowLabels: labels, colLabels: labels, compact: true, digits: 2,
    caption, tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'),
  });
  const originalMap = weightsMap(TOKENS, t('heatmaps.original'));
  const shuffledMap = weightsMap(TOKENS, t('heatmaps.shuffled'));   // relabelled for each order
  const shuffledSlot = h('div', { class: 'or-heatmap-slot' }, shuffledMap.el);
  let shuffledFor = TOKENS.map((_, i) => i).join(',');

  const el = h('div', { class: 'panel or-panel', id: 'order-panel' },
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
      h('p', { class: 'or-big' }, html('span', { class: 'or-big-label' }, t('result.label')), ' ', bigValue),
      verdict,
      pathNote),
    h('div', { class: 'matrix-scroll is-wide' }, rowsTable),
    h('div', { class: 'or-heatmaps' }, originalMap.el, shuffledSlot));

  // The rows and the sequence are built once and rewritten in place: a shuffle
  // changes their text, not their structure (rebuilding them was a third of
  // the shuffle's style and layout).
  const label = (c) => ({ label: columnNames[c] });
  const rows = Array.from({ length: n }, (_, pos) => {
    const cells = {
      token: h('td', { class: 'or-token', dataset: label('token') }),
      shuffled: h('td', { class: 'num role-text-o', dataset: label('shuffled') }),
      original: h('td', { class: 'num role-text-o', dataset: label('original') }),
      difference: h('td', { class: 'num or-diff', dataset: label('difference') }),
    };
    const tr = h('tr', {}, h('th', { scope: 'row', text: String(pos), dataset: label('position') }), Object.values(cells));
    rowsBody.append(tr);
    return { tr, cells };
  });
  function showRows(r) {
    r.perm.forEach((from, pos) => {
      const shuffledRow = r.shuffled.output.subarray(pos * d, (pos + 1) * d);
      const originalRow = r.original.output.subarray(from * d, (from + 1) * d);
      const diff = r.rowDiffs[pos];
      const { tr, cells } = rows[pos];
      tr.classList.toggle('is-same', diff === 0);
      tr.classList.toggle('is-different', diff !== 0);
      setText(cells.token, TOKENS[from]);
      setText(cells.shuffled, formatVector(shuffledRow, 3));
      setFullValue(cells.shuffled, Array.from(shuffledRow, formatFull).join(', '));
      setText(cells.original, formatVector(originalRow, 3));
      setFullValue(cells.original, Array.from(originalRow, formatFull).join(', '));
      setText(cells.difference, formatScientific(diff));
      setFullValue(cells.difference, formatFull(diff));
    });
  }

  const slots = Array.from({ length: n }, (_, pos) => {
    const token = h('span', { class: 'or-slot-token' });
    const li = h('li', { class: 'or-slot' }, h('span', { class: 'or-slot-pos', text: t('perm.slot', { p: pos }) }), token);
    sequence.append(li);
    return { li, token };
  });
  function showSequence(perm) {
    perm.forEach((token, pos) => {
      slots[pos].li.classList.toggle('is-fixed', token === pos);
      setText(slots[pos].token, TOKENS[token]);
    });
  }

  function showHeatmaps(r) {
    originalMap.update(r.original.weights);
    const key = r.perm.join(',');
    if (key !== shuffledFor) {
      const labels = r.perm.map((p) => TOKENS[p]);
      shuffledMap.setLabels({ rowLabels: labels, colLabels: labels });
      shuffledFor = key;
    }
    shuffledMap.update(r.shuffled.weights);
  }

  return {
    el,
    update(from) {
      const r = model.result;
      if (from !== 'input') {
        permInput.value = formatPermutation(model.perm);
        permInput.setAttribute('aria-invalid', 'false');
        setText(permError, '');
      }
      peSwitch.set(r.positional);
      el.classList.toggle('has-positions', r.positional);
      showSequence(r.perm);

      setText(bigValue, formatScientific(r.maxDiff));
      bigValue.dataset.value = String(r.maxDiff);
      bigValue.classList.toggle('is-zero', r.maxDiff === 0);
      const fixed = r.perm.filter((p, i) => p === i).map((p) => TOKENS[p]);
      let verdictKey = 'result.nonzero';
      if (r.maxDiff === 0) verdictKey = r.positional ? 'result.identity' : 'result.zero';
      else if (fixed.length > 0) verdictKey = 'result.nonzeroFixed';
      setHTML(verdict, t(verdictKey, { fixed: fixed.join(', ') }));
      setHTML(pathNote, t('result.paths', { fast: formatScientific(r.fastMaxDiff) }));
      showRows(r);
      showHeatmaps(r);
      el.dataset.run = String(Number(el.dataset.run ?? 0) + 1);
    },
  };
}
