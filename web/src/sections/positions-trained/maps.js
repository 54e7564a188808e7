// Section "positions-trained", where each decoder looks in the source: the
// cross-attention on the probe sequence (heads averaged) of both runs, the
// source digit each target digit copies outlined (the anti-diagonal), and the
// weight on it (./state.js onReversal).
import { escapeHTML } from '../../lib/dom.js';
import { sideBySideMaps } from '../side-by-side-maps.js';
import { RUNS, SOURCE_LENGTH, crossMapOf, onReversal } from './state.js';
import { formatPercent } from '../../lib/format.js';

const token = (text) => `<span lang="zxx">${escapeHTML(text)}</span>`;

export function positionMaps({ t }) {
  return sideBySideMaps({
    t, ids: RUNS, id: 'positions-trained-maps', className: 'pt-maps',
    mapOf: (run) => {
      const map = crossMapOf(run.probe);
      if (!map) return null;
      const on = onReversal(map);
      // The rows: the target digits, then the end of the sequence.
      const rowLabels = [...run.probe.target.map(token), t('maps.end')].slice(0, map.rows);
      return {
        ...map, rowLabels, colLabels: run.probe.source.map(token),
        outlined: Array.from({ length: SOURCE_LENGTH }, (_, k) => [k, SOURCE_LENGTH - 1 - k]),
        note: t('maps.reading', { on: formatPercent(on), even: formatPercent(1 / SOURCE_LENGTH) }),
        dataset: { on: String(on) },
      };
    },
  });
}
