// Section 10 view: why attention costs O(n^2), with the complexity table of
// article 002, a benchmark run live in the reader's browser (./bench-panel.js)
// and the memory of the full score matrix against the tiled path, by shape
// (./memory-panel.js).
import { h, html } from '../../lib/dom.js';
import { textTable } from '../../components/text-table.js';
import '../../components/formula.css';
import { DEFAULT_LARGEST, SIZES } from './bench.js';
import { benchPanel } from './bench-panel.js';
import { memoryPanel } from './memory-panel.js';
import { tilesOf } from './memory.js';
import params from './params.js';
import './cost.css';

export default { mount, params };

// n from 64 to 4096 on a log axis, with a margin either side.
const xAxisOf = (t) => ({
  label: t('bench.xLabel'), scale: 'log', ticks: SIZES, format: (n) => n.toLocaleString('en-US'),
  domain: [SIZES[0] / 1.4, SIZES[SIZES.length - 1] * 1.4],
});

function mount(root, { engine, t, store, initial, onChange }) {
  const state = (store.state ??= {
    largest: (initial ?? params.defaults()).largest ?? DEFAULT_LARGEST, results: [], status: 'idle', builds: null,
  });
  root.classList.add('co-root');
  const xAxis = xAxisOf(t);
  const bench = benchPanel(state, { t, engine, xAxis, changed: (s) => onChange?.(s) });
  const tiles = tilesOf(engine);
  const memory = memoryPanel({ t, xAxis, tiles });

  root.append(
    h('div', { class: 'prose' }, html('p', { class: 'section-lede' }, t('lede'))),
    h('div', { class: 'prose' }, html('p', {}, t('complexityIntro'))),
    h('div', { class: 'panel co-panel co-table-panel' }, textTable(t('complexity'), { className: 'co-complexity', rowClass: (i) => i === 0 && 'is-attention' })),
    h('div', { class: 'prose' },
      html('p', {}, t('whyQuadratic')),
      html('div', { class: 'co-formula' }, t('costFormula')),
      html('p', {}, t('tradeoff'))),
    bench.el,
    h('div', { class: 'prose' }, html('h3', {}, t('memory.title')), html('p', {}, t('memory.intro', tiles))),
    memory.el,
    html('div', { class: 'prose' }, t('after')));

  return {
    destroy() {
      bench.destroy();
      memory.destroy();
    },
  };
}
