// Section 1, the two plots: the query and the keys (q can be dragged, each key
// labelled with its weight), and the values with the output inside their hull.
import { h, html } from '../../lib/dom.js';
import { vectorPlot, pointText } from '../../components/vector-plot.js';
import { formatNumber, subscript } from '../../lib/format.js';

export function plotsPanel(model, { t, changed }) {
  const keysPlot = vectorPlot({
    title: t('plots.keysTitle'),
    description: t('plots.keysDescription'),
    handleLabel: t('plots.handle'),
    valueText: (x, y) => `q = ${pointText(x, y)}`,
    onMove: (_, x, y) => { model.setQueryVector(x, y); changed('drag'); },
  });
  const valuesPlot = vectorPlot({
    title: t('plots.valuesTitle'),
    description: t('plots.valuesDescription'),
    hull: true,
  });
  return {
    el: h('div', { class: 'we-plots' },
      h('figure', { class: 'we-plot' }, keysPlot.el, html('figcaption', {}, t('plots.keysCaption'))),
      h('figure', { class: 'we-plot' }, valuesPlot.el, html('figcaption', {}, t('plots.valuesCaption')))),
    update() {
      const r = model.result;
      if (!r) return;
      keysPlot.update([
        ...r.keys.map((v, j) => ({ id: `k${j}`, role: 'k', x: v[0], y: v[1], weight: r.weights[j],
          label: `k${subscript(j + 1)} ${formatNumber(r.weights[j], 2)}` })),
        { id: 'q', role: 'q', x: r.q[0], y: r.q[1], label: 'q', draggable: true },
      ]);
      valuesPlot.update([
        ...r.values.map((v, j) => ({ id: `v${j}`, role: 'v', x: v[0], y: v[1], weight: r.weights[j], label: `v${subscript(j + 1)}` })),
        { id: 'o', role: 'o', x: r.output[0], y: r.output[1], label: 'o' },
      ]);
    },
  };
}
