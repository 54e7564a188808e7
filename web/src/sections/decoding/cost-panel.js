// Section "decoding", the cost of the cache: the decoded sentence generated
// CALLS times in a row, ROUNDS times each way, in the run's worker (the model
// host's timeGenerate, alternating which way goes first): with the cache, and
// reading the whole prefix again at every step. The medians, the fastest and
// slowest samples, their ratio, and whether both ways gave the same tokens and
// weights.
import { h, html, setHTML } from '../../lib/dom.js';
import { textTable } from '../../components/text-table.js';
import { formatNumber } from '../../lib/format.js';
import { CALLS, costOf, largestWeightDifference, sameTokens } from './state.js';

const ms = (x) => (x === null || x === undefined ? '\u2014' : formatNumber(x, 3));

export function costPanel({ t }) {
  const slot = h('div', { class: 'dc-cost' });
  const el = h('div', { class: 'panel dc-panel', id: 'decoding-cost' },
    h('p', { class: 'panel-title', html: t('cost.title') }),
    html('p', { class: 'dc-intro' }, t('cost.intro', { calls: CALLS })),
    slot);
  let shownFor = null;

  return {
    el,
    update(run) {
      const decoded = run?.done ? run.decoded : null;
      const timing = decoded?.timing;
      el.dataset.ready = String(Boolean(timing));
      if (!timing) {
        shownFor = null;
        slot.replaceChildren(html('p', { class: 'dc-empty' }, t(decoded ? 'cost.measuring' : 'cost.waiting')));
        return;
      }
      if (shownFor === timing) return;
      shownFor = timing;
      const cost = costOf(timing);
      const row = (way, samples, median) => [t(`cost.${way}`), ms(median), ms(Math.min(...samples)), ms(Math.max(...samples)), String(samples.length)];
      const table = textTable({
        caption: t('cost.caption', { steps: decoded.generation.steps.length }),
        columns: [t('cost.columns.way'), t('cost.columns.median'), t('cost.columns.fastest'), t('cost.columns.slowest'), t('cost.columns.samples')],
        rows: [row('cache', timing.cache, cost.cache), row('recompute', timing.recompute, cost.recompute)],
      }, { className: 'dc-cost-table' });
      const difference = largestWeightDifference(decoded.generation, decoded.recomputed);
      const ratio = h('p', { class: 'dc-ratio' });
      Object.assign(el.dataset, { ratio: String(cost.ratio), cache: String(cost.cache), recompute: String(cost.recompute) });
      setHTML(ratio, t('cost.ratio', { ratio: formatNumber(cost.ratio, 2), cache: ms(cost.cache), recompute: ms(cost.recompute) }));
      const same = html('p', { class: 'dc-same' }, t(sameTokens(decoded.generation, decoded.recomputed) ? 'cost.sameTokens' : 'cost.otherTokens', {
        difference: difference === null ? '\u2014' : difference.toExponential(1),
      }));
      slot.replaceChildren(table, ratio, same);
    },
  };
}
