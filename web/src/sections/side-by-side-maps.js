// The attention maps of runs trained side by side (sections "mask-reason" and
// "positions-trained"): one heatmap per run of the map `mapOf` picks from its
// latest probe reading, with a table alternative, the cells `mapOf` names
// outlined and a line of what the map reads (computed by the section). Built
// when the first reading arrives (its shape is the task's), then updated.
//
//   const maps = sideBySideMaps({ t, ids, mapOf, id, className });
//   mapOf(run, id) -> { rows, cols, weights, rowLabels, colLabels, outlined: [[i, j]], note, dataset } or null
//   (dataset: figures for tests, set on the map's box)
//   maps.update(record)   // src/training/side-by-side.js's record (or null)
//
// Its words are the section's: maps.{title, intro, caption ({run}), rowAxis,
// colAxis, empty}, runs.<id>, table.{show, rowSum}.
import { h, html, setHTML } from '../lib/dom.js';
import { heatmap } from '../components/heatmap.js';

export function sideBySideMaps({ t, ids, mapOf, id, className }) {
  const slot = h('div', { class: 'sbs-maps' });
  const el = h('div', { class: ['panel', 'sbs-panel', className], id },
    h('p', { class: 'panel-title', html: t('maps.title') }),
    html('p', { class: 'sbs-intro' }, t('maps.intro')),
    slot);
  let built = null;   // { key, maps: { [id]: { map, note } } }

  function build(shown, key) {
    const maps = {};
    slot.replaceChildren(...ids.filter((run) => shown[run]).map((run) => {
      const m = shown[run];
      const map = heatmap({
        rows: m.rows, cols: m.cols, rowLabels: m.rowLabels, colLabels: m.colLabels,
        tiny: true, showNumbers: false, rowRole: 'q', colRole: 'k',
        caption: t('maps.caption', { run: t(`runs.${run}`) }),
        rowAxis: t('maps.rowAxis'), colAxis: t('maps.colAxis'),
        tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'),
      });
      for (const [i, j] of m.outlined ?? []) map.cells[i * m.cols + j]?.classList.add('is-expected');
      const note = h('p', { class: 'sbs-map-note' });
      maps[run] = { map, note };
      return h('div', { class: 'sbs-map', dataset: { run } }, map.el, note);
    }));
    return { key, maps };
  }

  return {
    el,
    update(record) {
      const shown = Object.fromEntries(ids.map((run) => [run, record?.runs[run].probe ? mapOf(record.runs[run], run) : null]));
      if (!ids.some((run) => shown[run])) {
        built = null;
        slot.replaceChildren(html('p', { class: 'sbs-empty' }, t('maps.empty')));
        return;
      }
      const key = ids.map((run) => (shown[run] ? `${shown[run].rows}x${shown[run].cols}:${shown[run].rowLabels.join()}` : '-')).join('|');
      if (built?.key !== key) built = build(shown, key);
      for (const run of ids) {
        const m = shown[run];
        if (!m) continue;
        built.maps[run].map.update(m.weights);
        setHTML(built.maps[run].note, m.note ?? '');
        Object.assign(built.maps[run].note.parentElement.dataset, m.dataset ?? {});
      }
    },
  };
}
