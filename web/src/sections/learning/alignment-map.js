// Section "learning": one reading of the model (the probe sentence, or the
// reader's): the head-averaged attention weights as a heatmap (target words
// as rows, source words as columns), the cell each row should look at
// outlined, the model's output under it, and each head's weights as a small
// map when there is more than one. Built for one task's shape (a task change
// builds a new one); setHeads(h) shows the heads' maps of h (built once per h).
import { escapeHTML, h, html, setHTML } from '../../lib/dom.js';
import { heatmap } from '../../components/heatmap.js';
import { prerender, stow } from '../../lib/stowed.js';

const word = (text, lang) => `<span lang="${lang}">${escapeHTML(text)}</span>`;

// reading: { source, target, predicted, weights, headWeights, strongestSources } (engine.trainer.probe()).
// expected: alignment[t] (outlined), or null (the reader's sentence: no reference).
export function alignmentMap({ t, reading, heads, expected, caption, languages, id }) {
  const [sourceLang, targetLang] = languages;
  const rows = reading.target.length;
  const cols = reading.source.length;
  const rowLabels = (r) => (expected ? r.target : r.predicted).map((w) => word(w, targetLang));
  const map = heatmap({
    rows, cols, rowLabels: rowLabels(reading), colLabels: reading.source.map((w) => word(w, sourceLang)),
    rowRole: 'q', colRole: 'k', digits: 2, compact: cols > 6,
    caption, rowAxis: t('map.rowAxis'), colAxis: t('map.colAxis'),
    tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'),
  });
  if (expected) expected.forEach((s, r) => map.cells[r * cols + s].classList.add('is-expected'));
  const output = h('p', { class: 'le-output' });
  // The heads' maps: one set per h, built the first time that h is asked for
  // and kept, stowed while another h is shown (lib/stowed.js).
  const headsSlot = h('div', { class: 'le-heads' });
  const headSets = new Map();   // h -> { el, maps }
  let headMaps = [];
  function headSet(count) {
    let set = headSets.get(count);
    if (!set) {
      const maps = Array.from({ length: count }, (_, i) => heatmap({
        rows, cols, rowLabels: Array.from({ length: rows }, (_, r) => String(r + 1)),
        colLabels: Array.from({ length: cols }, (_, c) => String(c + 1)), tiny: true, showNumbers: false,
        caption: t('map.head', { head: i + 1 }), tableSummary: t('table.show'),
        tableColLabels: reading.source.map((w) => word(w, sourceLang)),
      }));
      const el = h('div', { class: 'le-head-set is-stowed' }, html('p', { class: 'le-heads-title' }, t('map.heads')), maps.map((m) => m.el));
      headsSlot.append(el);
      set = { el, maps };
      headSets.set(count, set);
    }
    return set;
  }
  function setHeads(count) {
    const shown = count > 1 ? headSet(count) : null;
    for (const set of headSets.values()) stow(set.el, set !== shown);
    headMaps = shown?.maps ?? [];
  }
  setHeads(heads);
  const el = h('div', { class: 'le-map heatmap-words', id }, map.el, output, headsSlot);

  // `details: false` redraws the averaged weights only (the heads and the
  // output line wait for the next full update).
  function update(next, { details = true } = {}) {
    map.update(next.weights);
    el.dataset.strongest = next.strongestSources.join(',');
    if (!details) return;
    next.headWeights.forEach((w, i) => headMaps[i]?.update(w));
    const words = next.predicted.map((w, r) => {
      const right = !expected || w === next.target[r];
      return right ? `<span class="le-word">${word(w, targetLang)}</span>`
        : `<span class="le-word is-wrong">${word(w, targetLang)}<span class="visually-hidden"> (${t('map.wrong')})</span></span>`;
    }).join(' ');
    setHTML(output, `${t('map.output')} ${words}`);
  }
  update(reading);
  return {
    el,
    update,
    cells: map.cells,
    get heads() { return Math.max(1, headMaps.length); },
    setHeads(count, next) {
      setHeads(count);
      update(next);
    },
    // Builds and lays out the maps of h heads now (while idle), so that
    // choosing h later fills and shows them (the model of that h gives the numbers).
    prepareHeads(count) {
      if (count < 2 || headSets.has(count)) return;
      prerender([headSet(count).el]);
    },
  };
}
