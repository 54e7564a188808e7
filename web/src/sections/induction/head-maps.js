// Section "induction", what each head reads: the probe sequence (its repeated
// segment marked) and the attention map of every layer and head of both
// models on it (probe().layers), rows the token read, columns the tokens it
// may look at. The cells a previous-token head (layer 1) or an induction head
// (the others) would look at are outlined (./state.js expectedCells), and
// each map's caption gives its head's scores from the run's last point.
// Built when the first probe arrives (its shape is the task's), then updated.
import { escapeHTML, h, html, setHTML } from '../../lib/dom.js';
import { heatmap } from '../../components/heatmap.js';
import { formatNumber } from '../../lib/format.js';
import { RUNS, expectedCells, repeatOf, tokensOf } from './state.js';

const letter = (text) => `<span lang="zxx">${escapeHTML(text)}</span>`;

export function headMaps({ t }) {
  const sequence = h('p', { class: 'in-sequence' });
  const slot = h('div', { class: 'in-maps' });
  const el = h('div', { class: 'panel in-panel', id: 'induction-maps' },
    h('p', { class: 'panel-title', html: t('maps.title') }),
    html('p', { class: 'in-intro' }, t('maps.intro')),
    sequence, slot);
  let built = null;   // { key, maps: [{ run, layer, head, map, caption }] }

  function showSequence(letters) {
    const repeat = repeatOf(letters);
    const inRepeat = (i) => repeat && ((i >= repeat.first && i < repeat.first + repeat.length) || (i >= repeat.second && i < repeat.second + repeat.length));
    setHTML(sequence, `${t('maps.sequence')} ${letters.map((x, i) => (inRepeat(i)
      ? `<mark class="in-repeat">${letter(x)}</mark>` : letter(x))).join('')}`);
  }

  function build(runs) {
    const letters = runs.two.probe.target;
    const tokens = tokensOf(runs.two.probe, t('maps.sep'));
    const labels = tokens.map(letter);
    const maps = [];
    const groups = RUNS.filter((run) => runs[run].probe).map((run) => {
      const group = h('div', { class: 'in-map-group' }, h('p', { class: 'in-map-title', html: t(`runs.${run}`) }));
      for (const layer of runs[run].probe.layers) {
        layer.heads.forEach((_, head) => {
          const kind = layer.layer === 0 && run === 'two' ? 'previousToken' : 'prefixMatch';
          const map = heatmap({
            rows: layer.rows, cols: layer.cols, rowLabels: labels, colLabels: labels,
            tiny: true, showNumbers: false, rowRole: 'q', colRole: 'k',
            caption: t('maps.caption', { layer: layer.layer + 1, head: head + 1 }),
            rowAxis: t('maps.rowAxis'), colAxis: t('maps.colAxis'),
            tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'),
          });
          for (const [r, c] of expectedCells(letters, kind)) map.cells[r * layer.cols + c]?.classList.add('is-expected');
          const scores = h('p', { class: 'in-map-scores' });
          group.append(h('div', { class: 'in-map' }, map.el, html('p', { class: 'in-map-note' }, t(`maps.expected.${kind}`)), scores));
          maps.push({ run, layer: layer.layer, head, map, scores });
        });
      }
      return group;
    });
    slot.replaceChildren(...groups);
    showSequence(letters);
    return { key: `${letters.join('')}|${RUNS.map((run) => Boolean(runs[run].probe)).join()}`, maps };
  }

  return {
    el,
    update(runs) {
      if (!runs?.two.probe) {
        built = null;
        slot.replaceChildren(html('p', { class: 'in-empty' }, t('maps.empty')));
        setHTML(sequence, '');
        return;
      }
      const key = `${runs.two.probe.target.join('')}|${RUNS.map((run) => Boolean(runs[run].probe)).join()}`;
      if (built?.key !== key) built = build(runs);
      for (const m of built.maps) {
        const probe = runs[m.run].probe;
        m.map.update(probe.layers.find((l) => l.layer === m.layer).heads[m.head]);
        const score = runs[m.run].points.at(-1)?.headScores?.find((s) => s.layer === m.layer && s.head === m.head);
        setHTML(m.scores, score ? t('maps.scores', {
          step: runs[m.run].step, previous: formatNumber(score.previousToken, 2), prefix: formatNumber(score.prefixMatch, 2),
        }) : '');
      }
    },
  };
}
