// Section "family-trained", what each variant learned to look at: one small
// heatmap per variant of the same probe sentence (output words as rows,
// source words as columns), the reference's cell of each row outlined, and
// for Luong's local-p the window drawn around its predicted position p_t:
// the cells within D of p_t underlined, a tick at p_t itself (a table lists
// p_t for each row). Built when a run sends its first reading; redrawn as
// it trains.
import { escapeHTML, h, html, setText } from '../../lib/dom.js';
import { heatmap } from '../../components/heatmap.js';
import { formatNumber } from '../../lib/format.js';
import { WINDOW_HALF_WIDTH, positionsOf, probeAlignment, variantName } from './state.js';

const LANGUAGES = { translate: ['en', 'ko'], reverse: ['zxx', 'zxx'] };
const word = (text, lang) => `<span lang="${lang}">${escapeHTML(text)}</span>`;

// One variant's map. reading: the probe (trainer.probe()).
function variantMap({ t, variant, reading, task }) {
  const [sourceLang, targetLang] = LANGUAGES[task];
  const rows = reading.target.length;
  const cols = reading.source.length;
  const name = variantName(t, variant);
  const map = heatmap({
    rows, cols, rowLabels: reading.target.map((w) => word(w, targetLang)), colLabels: reading.source.map((w) => word(w, sourceLang)),
    rowRole: 'q', colRole: 'k', tiny: true, showNumbers: false, caption: name,
    tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'),
  });
  reading.reference.forEach((s, r) => { if (s >= 0) map.cells[r * cols + s].classList.add('is-expected'); });
  const note = h('p', { class: 'ft-map-note' });
  const local = variant.window === 'local';
  // The predicted positions as a table (the window's only other form is drawn).
  let positionCells = null;
  let windowTable = null;
  if (local) {
    positionCells = reading.target.map(() => h('td', { class: 'num' }));
    windowTable = h('details', { class: 'table-alt' },
      html('summary', {}, t('maps.positionsTable')),
      h('div', { class: 'matrix-scroll' }, h('table', { class: 'matrix ft-positions' },
        h('thead', {}, h('tr', {}, html('th', { scope: 'col' }, t('maps.output')), html('th', { scope: 'col' }, t('maps.position')), html('th', { scope: 'col' }, t('maps.reference')))),
        h('tbody', {}, reading.target.map((w, r) => h('tr', {},
          html('th', { scope: 'row' }, word(w, targetLang)),
          positionCells[r],
          h('td', { class: 'num', text: reading.reference[r] >= 0 ? String(reading.reference[r] + 1) : '\u2014' })))))));
  }
  const el = h('div', { class: 'ft-map', dataset: { variant: variant.id } }, map.el, note, windowTable);

  function update(next) {
    map.update(next.weights);
    const positions = positionsOf(next);
    const a = probeAlignment(next, positions);
    el.dataset.on = String(a.on);
    el.dataset.aligned = String(a.aligned);
    el.dataset.right = String(a.right);
    el.dataset.left = String(a.left);
    if (positions) el.dataset.inside = String(a.inWindow);
    let text = t('maps.on', { on: a.on, aligned: a.aligned });
    if (a.right > 0 || a.left > 0) text += ` ${t('maps.off', { right: a.right, left: a.left })}`;
    if (positions) {
      // The window: cells within D of p_t; the tick at p_t (cell j spans j - 0.5 to j + 0.5).
      for (let r = 0; r < rows; r++) {
        const p = positions[r];
        const centre = Math.min(cols - 1, Math.max(0, Math.round(p)));
        for (let c = 0; c < cols; c++) {
          const cell = map.cells[r * cols + c];
          cell.classList.toggle('in-window', Math.abs(c - p) <= WINDOW_HALF_WIDTH);
          cell.classList.toggle('window-centre', c === centre);
          if (c === centre) cell.style.setProperty('--at', String(Math.min(1, Math.max(0, p - c + 0.5))));
        }
        setText(positionCells[r], formatNumber(p + 1, 2));
      }
      text += ` ${t('maps.window', { inside: a.inWindow, aligned: a.aligned, half: WINDOW_HALF_WIDTH })}`;
    }
    setText(note, text);
  }
  update(reading);
  return { el, update };
}

export function alignmentMaps({ t }) {
  const el = h('div', { class: 'ft-maps', id: 'family-trained-maps' });
  let maps = new Map();   // variant id -> its map
  return {
    el,
    // A new set of runs: the maps are built as their first readings come.
    reset() {
      maps = new Map();
      el.replaceChildren();
    },
    // Each run's latest reading (state: ./state.js emptyRuns' shape).
    draw(state) {
      for (const id of state.order) {
        const run = state.runs[id];
        if (!run.probe) continue;
        let map = maps.get(id);
        if (!map) {
          map = variantMap({ t, variant: run.variant, reading: run.probe, task: state.settings.task });
          maps.set(id, map);
          // In the variants' order, whichever run reported first.
          const next = state.order.slice(state.order.indexOf(id) + 1).map((other) => maps.get(other)).find(Boolean);
          el.insertBefore(map.el, next?.el ?? null);
        } else {
          map.update(run.probe);
        }
      }
    },
  };
}
