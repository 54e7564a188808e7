// The two curves of a training run (sections "gradients" and "learning"): a
// loss on a log axis and the held-out accuracy from 0 to 1, against the step,
// one line per series. Their words are the section's, under `prefix`:
// <prefix>.loss.{title, description, caption}, <prefix>.accuracy.{...},
// <prefix>.xLabel, <prefix>.step.
//
//   const curves = trainingCurves({ t, prefix: 'charts', series: [{ id: 'loss', label, ... }], height: 200, className });
//   curves.loss.el, curves.accuracy.el
//   curves.update({ loss: { id: [[step, loss], ...] }, accuracy: { id: [[step, accuracy], ...] } });
import { lineChart } from './line-chart.js';
import { formatLogTick } from '../lib/format.js';

const Y_AXES = {
  loss: { label: '', scale: 'log', format: formatLogTick, emptyDomain: [0.01, 10] },
  accuracy: { label: '', scale: 'linear', min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1], emptyDomain: [0, 1] },
};

// series: { loss, accuracy } of the line-chart series of each curve, or one list for both.
export function trainingCurves({ t, prefix, series, height, className }) {
  const x = { label: t(`${prefix}.xLabel`), scale: 'linear', format: (v) => String(Math.round(v)) };
  const chart = (name) => lineChart({
    title: t(`${prefix}.${name}.title`), description: t(`${prefix}.${name}.description`), caption: t(`${prefix}.${name}.caption`),
    x, y: Y_AXES[name], height, series: Array.isArray(series) ? series : series[name],
    table: { summary: t('table.show'), caption: t(`${prefix}.${name}.title`), xHeader: t(`${prefix}.step`) }, className,
  });
  const loss = chart('loss');
  const accuracy = chart('accuracy');
  return {
    loss,
    accuracy,
    update(points) {
      loss.update({ series: points.loss });
      accuracy.update({ series: points.accuracy });
    },
    destroy() {
      loss.destroy();
      accuracy.destroy();
    },
  };
}
