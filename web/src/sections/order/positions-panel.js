// Section 9, the positional encodings: the sinusoidal table PE (n positions x
// d dimensions) that the switch adds to the embeddings.
import { h, html } from '../../lib/dom.js';
import { heatmap } from '../../components/heatmap.js';

export function positionsPanel(model, { t }) {
  const { n, d } = model.result;
  const map = heatmap({
    rows: n, cols: d, rowLabels: Array.from({ length: n }, (_, p) => t('pe.position', { p })),
    colLabels: Array.from({ length: d }, (_, i) => t('pe.dimension', { i })),
    rowRole: 'm', colRole: 'm', diverging: true, digits: 2,
    caption: t('pe.caption'), tableSummary: t('table.show'),
  });
  map.el.classList.add('or-pe-map');
  return {
    el: h('div', { class: 'panel or-panel' },
      h('p', { class: 'panel-title', html: t('pe.panelTitle') }),
      map.el,
      html('p', { class: 'or-note' }, t('pe.note'))),
    update() { map.update(model.result.pe); },
  };
}
