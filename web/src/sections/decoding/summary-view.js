// Section "decoding", what the run showed: the sentences ./state.js
// summarize() chose from its numbers, with the numbers written in.
import { h, setHTML } from '../../lib/dom.js';
import { formatNumber, formatPercent } from '../../lib/format.js';
import { summarize } from './state.js';

const SHOWN = {
  steps: String, rows: String, floats: String, firstFloats: String, dModel: String, layers: String, examples: String,
  samples: String, calls: String,
  seconds: (x) => formatNumber(x, 1), ratio: (x) => formatNumber(x, 2),
  cache: (x) => formatNumber(x, 3), recompute: (x) => formatNumber(x, 3),
  target: formatPercent, accuracy: formatPercent, sequences: formatPercent, reached: formatPercent,
};
export const showParams = (params) => Object.fromEntries(Object.entries(params).map(([name, x]) =>
  [name, x === null || x === undefined ? '\u2014' : (SHOWN[name] ?? ((v) => formatNumber(v, 3)))(x)]));

export function summaryView({ t }) {
  const el = h('div', { class: 'dc-summary', 'aria-live': 'polite', id: 'decoding-summary' });
  return {
    el,
    update(training) {
      const run = training.run;
      if (!run?.done || !run.decoded?.timing) {
        setHTML(el, '');
        el.dataset.keys = '';
        return;
      }
      const parts = summarize(run);
      el.dataset.keys = parts.map((p) => p.key).join(' ');
      setHTML(el, parts.map(({ key, params }) => `<p>${t(key, showParams(params))}</p>`).join(''));
    },
  };
}
