// Section "learning", what a run shows as it trains: the counters (step, loss,
// accuracy), the curves, the probe's weights and the sentences under them
// (./state.js progressSummary). draw(run, { details: false }) updates only
// the averaged weights and the counters (cheap: ten times a second while the
// run plays); details adds the rest.
import { h, setText } from '../../lib/dom.js';
import { liveText } from '../../lib/live-text.js';
import { trainingCurves } from '../../components/training-curves.js';
import { formatNumber } from '../../lib/format.js';
import { alignmentOf, progressSummary } from './state.js';

const LINE = { color: 'var(--ink-soft)', marker: 'none' };
const shown = (x, digits = 3) => (x === null || x === undefined ? '\u2014' : formatNumber(x, digits));

// panel: the element whose data attributes carry the step, accuracy and alignment (for tests).
export function progressView({ t, panel, maps }) {
  const curves = trainingCurves({
    t, prefix: 'charts', height: 200, className: 'le-chart',
    series: {
      loss: [{ id: 'loss', label: t('charts.loss.series'), plainLabel: t('charts.loss.series'), ...LINE }],
      accuracy: [{ id: 'accuracy', label: t('charts.accuracy.series'), plainLabel: t('charts.accuracy.series'), ...LINE }],
    },
  });
  const counters = h('p', { class: 'le-counters' });
  const summary = liveText(h('p', { class: 'le-summary' }));

  return {
    counters,
    plots: h('div', { class: 'le-plots' }, curves.loss.el, curves.accuracy.el),
    summary: summary.el,
    draw(run, task, { details }) {
      const point = run.points[run.points.length - 1];
      maps.update(run.probe, { details });
      setText(counters, t('training.counters', { step: run.step, loss: shown(point?.loss), accuracy: shown(point?.accuracy) }));
      const { aligned, total } = alignmentOf(run.probe, run.trainer.alignment);
      Object.assign(panel.dataset, { step: String(run.step), accuracy: String(point?.accuracy ?? ''), aligned: String(aligned), total: String(total) });
      if (!details) return;
      curves.update({
        loss: { loss: run.points.filter((p) => p.loss !== null).map((p) => [p.step, p.loss]) },
        accuracy: { accuracy: run.points.map((p) => [p.step, p.accuracy]) },
      });
      const parts = progressSummary(run, task);
      // The parts' numbers merged first, then formatted once (formatting each
      // part alone let a later part without a loss blank out the first's).
      const params = Object.assign({}, ...parts.map((part) => part.params));
      summary.set(parts.map(({ key }) => t(key)).join(' '), {
        ...params, loss: shown(params.loss), accuracy: shown(params.accuracy),
        target: `${formatNumber(100 * (params.target ?? 0), 0)}%`,
      });
    },
    destroy: () => curves.destroy(),
  };
}
