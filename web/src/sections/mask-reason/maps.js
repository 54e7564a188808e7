// Section "mask-reason", where each model looks: the decoder's self-attention
// on the probe sequence (heads averaged) of both runs, the cell of the token
// each row must predict outlined, and what the map reads (./state.js
// readingOf: the weight above the diagonal, on the token to predict, on the
// source digit to copy).
import { escapeHTML } from '../../lib/dom.js';
import { sideBySideMaps } from '../side-by-side-maps.js';
import { RUNS, SOURCE_LENGTH, readingOf, selfMapOf, tokensOf } from './state.js';
import { formatPercent } from '../../lib/format.js';

const token = (text) => `<span lang="zxx">${escapeHTML(text)}</span>`;

export function maskMaps({ t }) {
  return sideBySideMaps({
    t, ids: RUNS, id: 'mask-reason-maps', className: 'mr-maps',
    mapOf: (run) => {
      const map = selfMapOf(run.probe);
      if (!map) return null;
      const labels = tokensOf(run.probe, t('maps.sep')).map(token);
      const reading = readingOf(map);
      return {
        ...map, rowLabels: labels, colLabels: labels,
        outlined: Array.from({ length: SOURCE_LENGTH }, (_, k) => [SOURCE_LENGTH + k, SOURCE_LENGTH + k + 1]),
        note: t('maps.reading', { future: formatPercent(reading.future), next: formatPercent(reading.next), source: formatPercent(reading.source) }),
        dataset: { future: String(reading.future), next: String(reading.next) },
      };
    },
  });
}
