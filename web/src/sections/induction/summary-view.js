// Section "induction", what the finished runs showed: the sentences
// ./state.js summarize() chose from their numbers, with the numbers written
// in (percentages for the levels, three decimals for scores and accuracies).
import { h, setHTML } from '../../lib/dom.js';
import { formatNumber, formatPercent } from '../../lib/format.js';
import { chanceOf, summarize } from './state.js';

const SHOWN = {
  steps: String, plateau: String, width: String, from: String, to: String, accuracyStep: String, prefixStep: String,
  oneSteps: String, twoSteps: String, layer: String, head: String,
  from0: (x) => formatPercent(x, 0), to0: (x) => formatPercent(x, 0), middle: formatNumber,
  times: (x) => formatNumber(x, 1),
};
export const showParams = (params) => Object.fromEntries(Object.entries(params).map(([name, x]) =>
  [name, x === null || x === undefined ? '\u2014' : (SHOWN[name] ?? ((v) => formatNumber(v, 3)))(x)]));

export function summaryView({ t }) {
  const el = h('div', { class: 'in-summary', 'aria-live': 'polite', id: 'induction-summary' });
  return {
    el,
    update(training) {
      const runs = training.runs;
      if (training.status !== 'done' || !runs?.two.final || !runs.one.final) {
        setHTML(el, '');
        el.dataset.keys = '';
        return;
      }
      const parts = summarize(runs, { chance: chanceOf(runs.two.trainer) });
      el.dataset.keys = parts.map((p) => p.key).join(' ');
      setHTML(el, parts.map(({ key, params }) => `<p>${t(key, showParams(params))}</p>`).join(''));
    },
  };
}
