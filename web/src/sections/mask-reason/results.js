// Section "mask-reason", the two numbers side by side: a column per finished
// model (so that it fits a phone), a row per figure: steps, training loss,
// teacher-forced accuracy, accuracy writing freely and whole sequences right,
// on every held-out sequence; then the probe sequence as each model predicts
// it with teacher forcing and writes it freely.
import { escapeHTML, h, html, setHTML } from '../../lib/dom.js';
import { lastLoss } from '../../training/side-by-side.js';
import { formatNumber, formatPercent } from '../../lib/format.js';
import { RUNS } from './state.js';

const FIGURES = ['steps', 'loss', 'forced', 'free', 'sequences'];
// How many of the target's digits `tokens` has right, position by position.
export const rightOf = (tokens, target) => target.filter((digit, i) => tokens[i] === digit).length;
const digits = (tokens) => `<span lang="zxx" class="mr-digits">${tokens.map((d) => escapeHTML(d || '\u00b7')).join(' ')}</span>`;

export function resultsView({ t }) {
  const body = h('tbody');
  const probe = h('div', { class: 'mr-probe' });
  const table = h('table', { class: 'matrix mr-results' },
    html('caption', {}, t('results.caption')),
    h('thead', {}, h('tr', {}, html('th', { scope: 'col' }, t('results.figure')), RUNS.map((run) => h('th', { scope: 'col', dataset: { run }, html: t(`runs.${run}`) })))),
    body);
  const header = table.querySelectorAll('thead th[data-run]');
  const empty = html('p', { class: 'sbs-empty' }, t('results.empty'));
  const el = h('div', { class: 'panel sbs-panel', id: 'mask-reason-results' },
    h('p', { class: 'panel-title', html: t('results.title') }),
    empty, h('div', { class: 'matrix-scroll' }, table), probe);

  return {
    el,
    update(record) {
      const done = record && RUNS.every((run) => record.runs[run].final);
      table.hidden = !done;
      empty.hidden = Boolean(done);
      if (!done) {
        body.replaceChildren();
        probe.replaceChildren();
        return;
      }
      const shown = Object.fromEntries(RUNS.map((run) => {
        const r = record.runs[run];
        const e = r.final.evaluation;
        return [run, { steps: String(r.step), loss: formatNumber(lastLoss(r), 3), forced: formatPercent(e.accuracy), free: formatPercent(e.generatedAccuracy), sequences: formatPercent(e.sequenceAccuracy) }];
      }));
      // The figures themselves on each model's header, for tests.
      header.forEach((th) => {
        const e = record.runs[th.dataset.run].final.evaluation;
        Object.assign(th.dataset, { forced: String(e.accuracy), free: String(e.generatedAccuracy) });
      });
      body.replaceChildren(...FIGURES.map((figure) => h('tr', {},
        html('th', { scope: 'row' }, t(`results.${figure}`)),
        RUNS.map((run) => h('td', { class: 'num', text: shown[run][figure] })))));
      const reading = record.runs.masked.final.probe;
      const lines = [
        `${t('probe.source')} ${digits(reading.source)} ${t('probe.target')} ${digits(reading.target)}`,
        ...RUNS.flatMap((run) => {
          const f = record.runs[run].final;
          const right = (tokens) => t('probe.right', { right: rightOf(tokens, reading.target), total: reading.target.length });
          return [
            `${t('probe.forced', { run: t(`runs.${run}`) })} ${digits(f.probe.predicted)} ${right(f.probe.predicted)}`,
            `${t('probe.free', { run: t(`runs.${run}`) })} ${digits(f.generation.tokens)} ${right(f.generation.tokens)}`,
          ];
        }),
      ];
      setHTML(probe, lines.map((line) => `<p>${line}</p>`).join(''));
    },
  };
}
