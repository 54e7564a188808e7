// A row of vertical bars for one softmax row (weights in [0, 1]): each bar with
// its key's label below and its weight above. The numbers are in the caller's
// table alternative; the bars are a picture of them (role="img" with a summary).
import { h, setHTML, setText } from '../lib/dom.js';
import { formatFull, formatNumber } from '../lib/format.js';
import { setFullValue } from '../lib/full-value.js';
import './weight-columns.css';

export function weightColumns({ labels, caption, label, tone = 'ink', digits = 2 }) {
  const bars = [];
  const values = [];
  const columns = labels.map((text) => {
    const fill = h('span', { class: 'wc-fill' });
    const value = h('span', { class: 'wc-value' });
    bars.push(fill);
    values.push(value);
    return h('div', { class: 'wc-col' },
      value, h('span', { class: 'wc-track' }, fill), h('span', { class: 'wc-label', html: text }));
  });
  const chart = h('div', { class: 'wc-chart', role: 'img', 'aria-label': label ?? '' }, columns);
  const captionEl = h('figcaption', { class: 'wc-caption', html: caption ?? '' });
  const el = h('figure', { class: ['wc', `wc-tone-${tone}`] }, captionEl, chart);
  return {
    el,
    setCaption(markup) { setHTML(captionEl, markup); },
    update(weights, { summary } = {}) {
      let top = 0;
      weights.forEach((w, j) => { if (w > weights[top]) top = j; });
      weights.forEach((w, j) => {
        const clamped = Math.max(0, Math.min(1, w));
        bars[j].style.height = `${clamped * 100}%`;
        bars[j].parentElement.parentElement.classList.toggle('is-top', j === top);
        setText(values[j], formatNumber(w, digits));
        setFullValue(values[j], formatFull(w));
      });
      if (summary !== undefined) chart.setAttribute('aria-label', summary);
    },
  };
}
