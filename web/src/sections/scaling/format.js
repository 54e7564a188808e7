// Display formatting of section 2's results. Pure functions, no DOM:
// unit-tested in Node.
import { formatNumber } from '../../lib/format.js';
import { scaledLogitStd } from './state.js';

// 0.379 -> "37.9%"
export { formatPercent as formatShare } from '../../lib/format.js';

// Milliseconds for the timing lines: "0.42", "7.3", "118".
export function formatMs(ms) {
  if (ms < 1) return formatNumber(ms, 2);
  if (ms < 10) return formatNumber(ms, 1);
  return formatNumber(ms, 0);
}

// The sweep as table rows: [d, std raw, std scaled, max raw, max scaled,
// entropy raw, entropy scaled, sum p(1-p) raw, sum p(1-p) scaled], as text.
export function sweepTableRows(sweep) {
  return sweep.rows.map((row) => [
    String(row.dk),
    formatNumber(row.logitStd, 2),
    formatNumber(scaledLogitStd(row), 3),
    formatNumber(row.maxWeight.raw, 3),
    formatNumber(row.maxWeight.scaled, 3),
    formatNumber(row.entropy.raw, 3),
    formatNumber(row.entropy.scaled, 3),
    formatNumber(row.gradient.raw, 4),
    formatNumber(row.gradient.scaled, 4),
  ]);
}

// The four plots of the sweep: for each statistic, the raw and the scaled
// series as [d, value] points.
export function sweepSeries(sweep) {
  const pick = (f) => sweep.rows.map((row) => [row.dk, f(row)]);
  return {
    logitStd: { raw: pick((r) => r.logitStd), scaled: pick(scaledLogitStd) },
    maxWeight: { raw: pick((r) => r.maxWeight.raw), scaled: pick((r) => r.maxWeight.scaled) },
    entropy: { raw: pick((r) => r.entropy.raw), scaled: pick((r) => r.entropy.scaled) },
    gradient: { raw: pick((r) => r.gradient.raw), scaled: pick((r) => r.gradient.scaled) },
  };
}

// Index and value of the largest entry.
export function argmax(values) {
  let best = 0;
  for (let j = 1; j < values.length; j++) if (values[j] > values[best]) best = j;
  return { index: best, value: values[best] };
}

export function extent(values) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) { if (v < lo) lo = v; if (v > hi) hi = v; }
  return [lo, hi];
}
