// Section 10, memory by shape: the full score matrix, the whole trace and the
// tiled path, in bytes, for every n of the benchmark (./memory.js), with the
// block sizes of the page's engine (`tiles`: memory.js tilesOf).
import { h, setHTML } from '../../lib/dom.js';
import { lineChart } from '../../components/line-chart.js';
import { formatNumber } from '../../lib/format.js';
import { D, SIZES } from './bench.js';
import { formatBytes, memoryOf } from './memory.js';

const STYLE = {
  trace: { color: 'var(--c-js)', marker: 'triangle' },
  scoreMatrix: { color: 'var(--c-simd)', marker: 'circle' },
  tiled: { color: 'var(--c-baseline)', marker: 'square', dash: '6 4' },
};
// Bytes on a log axis, every factor of 4: 16 KiB, 64 KiB, ..., 256 MiB.
const BYTE_TICKS = Array.from({ length: 8 }, (_, i) => 2 ** (14 + 2 * i));

export function memoryPanel({ t, xAxis, tiles }) {
  const chart = lineChart({
    title: t('memory.chartTitle'),
    description: t('memory.chartDescription'),
    caption: t('memory.chartCaption'),
    x: xAxis,
    y: { label: t('memory.yLabel'), scale: 'log', format: formatBytes, formatFull: formatBytes, ticks: BYTE_TICKS, min: 2 ** 13, max: 2 ** 29 },
    height: 280,
    series: Object.keys(STYLE).map((id) => ({ id, label: t(`memory.series.${id}`), plainLabel: t(`memory.series.${id}`), ...STYLE[id] })),
    table: { summary: t('table.show'), caption: t('memory.chartTitle'), xHeader: 'n' },
    className: 'co-chart',
  });
  const note = h('p', { class: 'co-summary' });

  const rows = SIZES.map((n) => memoryOf(n, D, { tiles }));
  chart.update({ series: Object.fromEntries(Object.keys(STYLE).map((id) => [id, rows.map((r) => [r.n, r[id]])])) });
  const big = rows[rows.length - 1];
  setHTML(note, t('memory.note', {
    n: big.n.toLocaleString('en-US'), matrix: formatBytes(big.scoreMatrix), trace: formatBytes(big.trace),
    tiled: formatBytes(big.tiled), ratio: formatNumber(big.scoreMatrix / big.tiled, 0),
  }));

  return {
    el: h('div', { class: 'panel co-panel', id: 'cost-memory', dataset: { tiles: `${tiles.queries}x${tiles.keys}` } }, chart.el, note),
    destroy: () => chart.destroy(),
  };
}
