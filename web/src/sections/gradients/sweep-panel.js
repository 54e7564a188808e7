// Section "gradients", the sweep: the size of the gradient that reaches each
// query and each key against d_k, raw against scaled, as two plots (median,
// with a bar over the middle half of the queries or keys) and a table (the
// plots' alternative). The sweep runs on the page in slices (lib/slices.js):
// about a tenth of a second of engine work in all, none of it in one long task.
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { lineChart } from '../../components/line-chart.js';
import { mathLabel } from '../../components/math-label.js';
import { formatFull, formatNumber, formatScientific, superscript } from '../../lib/format.js';
import { runInSlices } from '../../lib/slices.js';
import { DIMENSIONS, sweepSteps, sweepSummary } from './state.js';

const RAW = { color: 'var(--c-raw)', marker: 'circle' };
const SCALED = { color: 'var(--c-scaled)', marker: 'square', dash: '6 3' };
const TABLE_ID = 'gradients-sweep-table';
const SIDES = ['query', 'key'];

// Powers of ten on the log axis: every other one labelled (the raw gradients span ten decades).
const tickPower = (v) => {
  const p = Math.round(Math.log10(v));
  return p % 2 === 0 ? (p === 0 ? '1' : `10${superscript(p)}`) : '';
};
const share = (x) => `${formatNumber(100 * x, 0)}%`;

export function sweepPanel(model, { t, engine, changed }) {
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }),
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: model.settings.sweep.seed,
    onChange: (v) => { model.set('sweep', { seed: v }); run(); changed(); },
  });
  seed.button.dataset.action = 'rerun';

  const xAxis = { label: t('sweep.xLabel'), scale: 'log', ticks: DIMENSIONS, format: String, domain: [DIMENSIONS[0] / 1.5, DIMENSIONS.at(-1) * 1.5] };
  const plots = Object.fromEntries(SIDES.map((side) => {
    const plot = lineChart({
      title: t(`sweep.plots.${side}.title`),
      description: t('sweep.plotDescription'),
      caption: t(`sweep.plots.${side}.caption`),
      x: xAxis,
      y: { label: '', scale: 'log', format: tickPower, formatFull: formatFull },
      height: 220,
      series: [
        { id: 'raw', label: t('columns.raw'), plainLabel: t('columns.rawPlain'), ...RAW },
        { id: 'scaled', label: t('columns.scaled'), plainLabel: t('columns.scaledPlain'), ...SCALED },
      ],
      table: false,
      className: 'gr-plot',
    });
    plot.el.querySelector('svg').setAttribute('aria-describedby', TABLE_ID);
    return [side, plot];
  }));

  const caption = h('caption');
  const head = h('thead', {},
    h('tr', {}, h('td', { rowspan: '2' }),
      ...SIDES.map((side) => html('th', { scope: 'colgroup', colspan: '3', class: 'gr-group' }, t(`sweep.table.${side}`)))),
    h('tr', {}, ...SIDES.flatMap(() => [
      html('th', { scope: 'col', class: 'gr-head-raw' }, t('sweep.table.raw')),
      h('th', { scope: 'col', class: 'gr-head-scaled' }, mathLabel(t('sweep.table.scaled'), t('columns.scaledPlain'))),
      html('th', { scope: 'col', class: 'gr-head-raw' }, t('sweep.table.vanished'))])));
  const body = h('tbody');
  const summary = h('p', { class: 'gr-summary gr-result', 'aria-live': 'polite' });
  const status = h('p', { class: 'gr-status', role: 'status' });

  const el = h('div', { class: 'panel gr-panel', id: 'gradients-sweep' },
    h('p', { class: 'panel-title', html: t('sweep.title') }),
    html('p', { class: 'gr-intro' }, t('sweep.intro')),
    h('div', { class: 'controls-row gr-controls' }, seed.el),
    h('div', { class: 'gr-plots gr-result' }, SIDES.map((side) => plots[side].el)),
    summary,
    h('div', { class: 'matrix-scroll is-wide gr-result' },
      h('table', { class: 'matrix gr-table', id: TABLE_ID }, caption, head, body)),
    status);

  const cell = (x, kind, text = formatScientific(x, 2)) => h('td', { class: ['num', `gr-cell-${kind}`], text, title: formatFull(x) });

  function show(sweep) {
    setHTML(caption, t('sweep.caption', { trials: sweep.trials, n: sweep.n, m: sweep.m, dv: sweep.dv, seed: sweep.seed }));
    body.replaceChildren(...sweep.rows.map((row) => h('tr', {},
      h('th', { scope: 'row', text: String(row.dk) }),
      ...SIDES.flatMap((side) => {
        const { raw, scaled } = row[side];
        const spreadText = (s) => `${formatScientific(s.median, 2)} (${formatScientific(s.low, 2)}\u2013${formatScientific(s.high, 2)})`;
        return [cell(raw.median, 'raw', spreadText(raw)), cell(scaled.median, 'scaled', spreadText(scaled)), cell(raw.vanished, 'raw', share(raw.vanished))];
      }))));
    for (const side of SIDES) {
      const points = (kind) => sweep.rows.map((row) => {
        const s = row[side][kind];
        return [row.dk, s.median, s.low, s.high];
      });
      plots[side].update({ series: { raw: points('raw'), scaled: points('scaled') } });
    }
    const shown = {
      ratio: (x) => formatNumber(x, x >= 100 ? 0 : 1), share, d1: String, dN: String, dCross: String,
    };
    setHTML(summary, sweepSummary(sweep).map(({ key, params }) => t(key, Object.fromEntries(Object.entries(params)
      .map(([name, x]) => [name, (shown[name] ?? ((v) => formatScientific(v, 2)))(x)])))).join(' '));
    setText(status, t('sweep.done', { ms: formatNumber(sweep.ms, 0) }));
    el.dataset.seed = String(sweep.seed);
  }

  // The newest request wins; a seed typed while the sweep runs starts it afresh.
  let requests = 0;
  let destroyed = false;
  async function run() {
    const mine = ++requests;
    el.setAttribute('aria-busy', 'true');
    el.classList.add('is-running');
    setText(status, t('sweep.running'));
    const started = performance.now();
    try {
      const sweep = await runInSlices(sweepSteps(engine, { seed: model.settings.sweep.seed }),
        { cancelled: () => destroyed || mine !== requests });
      if (!sweep) return;
      sweep.ms = performance.now() - started;
      model.setSweep(sweep);
      show(sweep);
      el.dataset.run = String(Number(el.dataset.run ?? 0) + 1);
    } catch (err) {
      console.error(err);
      setText(status, String(err?.message ?? err));
    } finally {
      if (!destroyed && mine === requests) {
        el.removeAttribute('aria-busy');
        el.classList.remove('is-running');
      }
    }
  }

  return {
    el,
    start: () => (model.sweep ? show(model.sweep) : run()),
    destroy() {
      destroyed = true;
      SIDES.forEach((side) => plots[side].destroy());
    },
  };
}
