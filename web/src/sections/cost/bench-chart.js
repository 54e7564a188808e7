// Section 10, the benchmark's chart: milliseconds per call against n, both
// axes logarithmic, one line per series (./bench.js SERIES) with a bar over
// the middle half of each point's samples, and a dashed line growing as n^2
// through the last point of the SIMD build (or of the build without SIMD).
import { lineChart } from '../../components/line-chart.js';
import { formatNumber } from '../../lib/format.js';
import { SERIES } from './bench.js';

const STYLE = {
  simd: { color: 'var(--c-simd)', marker: 'circle' },
  simdTiled: { color: 'var(--c-simd)', marker: 'square', dash: '6 4' },
  baseline: { color: 'var(--c-baseline)', marker: 'diamond' },
  plainJs: { color: 'var(--c-js)', marker: 'triangle' },
};

// Milliseconds on a log axis: 0.01, 0.1, 1, 10, 100, 1,000.
const tickMs = (v) => (v >= 1 ? Math.round(v).toLocaleString('en-US') : String(Number(v.toPrecision(2))));
export const formatMs = (ms) => (ms >= 100 ? formatNumber(ms, 0) : ms >= 10 ? formatNumber(ms, 1) : ms >= 1 ? formatNumber(ms, 2) : formatNumber(ms, 3));

export function benchChart({ t, xAxis }) {
  const chart = lineChart({
    title: t('bench.chartTitle'),
    description: t('bench.chartDescription'),
    caption: t('bench.chartCaption'),
    x: xAxis,
    y: { label: t('bench.yLabel'), scale: 'log', format: tickMs, formatFull: (ms) => `${formatMs(ms)} ms`, emptyDomain: [0.01, 10000] },
    height: 300,
    series: SERIES.map((s) => ({ id: s.id, label: t(`bench.series.${s.id}`), plainLabel: t(`bench.series.${s.id}`), ...STYLE[s.id] })),
    table: { summary: t('table.show'), caption: t('bench.chartTitle'), xHeader: 'n' },
    className: 'co-chart',
  });

  return {
    el: chart.el,
    // Each point: the median, with a bar over the middle half of the samples.
    show(results) {
      const series = {};
      for (const s of SERIES) {
        series[s.id] = results.filter((r) => r.series === s.id && !r.skipped).map((r) => [r.n, r.ms, r.low ?? r.ms, r.high ?? r.ms]);
      }
      const anchor = series.simd.length ? series.simd : series.baseline;
      const references = [];
      if (anchor.length >= 1) {
        const [nMax, tMax] = anchor[anchor.length - 1];
        const ns = [...new Set(results.map((r) => r.n))].sort((a, b) => a - b);
        references.push({ label: t('bench.reference'), points: ns.map((n) => [n, tMax * (n / nMax) ** 2]) });
      }
      chart.update({ series, references });
    },
    destroy: () => chart.destroy(),
  };
}
