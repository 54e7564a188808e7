// Section 7 view: cross-attention (a rectangular n x m weight matrix) and the
// three places attention sits in a Transformer, each computed live from the
// same small translation example. State: ./state.js.
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { readerMessage } from '../../lib/input-check.js';
import { formula } from '../../components/formula.js';
import { matrixInput } from '../../components/matrix-input.js';
import { matrixTable } from '../../components/matrix-table.js';
import { heatmap } from '../../components/heatmap.js';
import { button } from '../../components/button.js';
import { createCross } from './state.js';
import params from './params.js';
import formulas from './formulas.tex.js';
import './cross-attention.css';

export default { mount, params };

function mount(root, { engine, t, store, initial, onChange }) {
  const model = (store.model ??= createCross(engine, initial ?? params.defaults()));
  const enc = model.encoderTokens;
  const dec = model.decoderTokens;
  const d = model.inputs.encoder[0].length;
  const dims = Array.from({ length: d }, (_, c) => String(c + 1));

  const errorSlot = h('p', { class: 'input-error', role: 'status', 'aria-live': 'polite' });
  const encEditor = matrixInput({
    values: model.inputs.encoder.flat(), rows: enc.length, cols: d, rowLabels: [...enc], colLabels: dims, role: 'k',
    caption: t('inputs.encoder'),
    cellLabel: (i, c) => t('inputs.cell', { token: enc[i], c: c + 1 }),
    onInput: (i, c, x) => { model.setEncoder(i, c, x); refresh({ from: 'input' }); },
  });
  const decEditor = matrixInput({
    values: model.inputs.decoder.flat(), rows: dec.length, cols: d, rowLabels: [...dec], colLabels: dims, role: 'q',
    caption: t('inputs.decoder'),
    cellLabel: (i, c) => t('inputs.cell', { token: dec[i], c: c + 1 }),
    onInput: (i, c, x) => { model.setDecoder(i, c, x); refresh({ from: 'input' }); },
  });
  const reset = button({ label: t('actions.reset'), icon: '\u21ba', onClick: () => { model.reset(); refresh(); } });

  const crossMap = heatmap({
    rows: dec.length, cols: enc.length, rowLabels: [...dec], colLabels: [...enc],
    caption: t('cross.caption'), rowAxis: t('cross.rowAxis'), colAxis: t('cross.colAxis'),
    tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'), digits: 2,
  });
  const output = matrixTable({ rows: dec.length, cols: d, rowLabels: [...dec], colLabels: dims, rowRole: 'q', colRole: 'o',
    caption: t('cross.output'), digits: 3 });
  const reading = h('p', { class: 'cross-reading' });

  // The three places.
  const places = [
    { key: 'encoderSelf', rows: enc, cols: enc, mask: false },
    { key: 'decoderSelf', rows: dec, cols: dec, mask: true },
    { key: 'cross', trace: 'encoderDecoder', rows: dec, cols: enc, mask: false },
  ].map((place, index) => {
    const map = heatmap({
      rows: place.rows.length, cols: place.cols.length, rowLabels: [...place.rows], colLabels: [...place.cols],
      caption: t(`places.${place.key}.mapCaption`), tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'),
      maskedText: t('table.masked'), digits: 2, compact: true,
    });
    const card = h('article', { class: 'place-card', 'aria-labelledby': `place-${place.key}` },
      h('p', { class: 'place-number', 'aria-hidden': 'true', text: String(index + 1) }),
      html('h4', { id: `place-${place.key}` }, t(`places.${place.key}.title`)),
      h('dl', { class: 'place-sources' },
        ...['q', 'k', 'v'].flatMap((role) => [
          h('dt', {}, h('span', { class: `chip chip-${role}`, text: role.toUpperCase() })),
          html('dd', {}, t(`places.${place.key}.${role}`)),
        ])),
      html('p', { class: 'place-text' }, t(`places.${place.key}.text`)),
      map.el);
    return { ...place, map, card };
  });

  root.append(
    html('div', { class: 'prose section-lede' }, t('lede')),
    h('div', { class: 'prose' }, formula(formulas.cross).el, html('p', {}, t('example'))),
    h('div', { class: 'panel cross-panel' },
      h('p', { class: 'panel-title', html: t('panelTitle') }),
      h('div', { class: 'figure-row cross-inputs' }, decEditor.el, encEditor.el),
      errorSlot,
      h('div', { class: 'controls-row' }, reset.el),
      h('div', { class: 'figure-row cross-results' }, crossMap.el, h('div', { class: 'grow' }, output.el, reading))),
    h('div', { class: 'prose' },
      h('h3', { text: t('compare.title') }),
      html('p', {}, t('compare.text')),
      h('div', { class: 'matrix-scroll is-wide' }, h('table', { class: 'matrix compare-table' },
        h('thead', {}, h('tr', {}, h('td'), html('th', { scope: 'col' }, t('compare.self')), html('th', { scope: 'col' }, t('compare.cross')))),
        h('tbody', {}, ['q', 'k', 'v'].map((role) => h('tr', {},
          h('th', { scope: 'row' }, h('span', { class: `chip chip-${role}`, text: role.toUpperCase() })),
          html('td', {}, t(`compare.${role}Self`)), html('td', {}, t(`compare.${role}Cross`)))))))),
    h('div', { class: 'prose' }, h('h3', { text: t('places.title') }), html('p', {}, t('places.intro'))),
    h('div', { class: 'panel places-panel' },
      html('div', { class: 'transformer-sketch', 'aria-hidden': 'true' }, t('places.sketch')),
      h('div', { class: 'places' }, places.map((p) => p.card))),
    html('div', { class: 'prose' }, t('after')));

  function refresh({ from } = {}) {
    onChange?.(model.snapshot);   // the host keeps links and attributes in step
    const { result, error } = model;
    setText(errorSlot, error ? t('inputs.error', { message: readerMessage(model.failure, t) }) : '');
    root.querySelector('.cross-results').classList.toggle('is-stale', Boolean(error));
    if (from !== 'input') {
      encEditor.set(model.inputs.encoder.flat());
      decEditor.set(model.inputs.decoder.flat());
    }
    if (!result) return;
    crossMap.update(result.cross.weights);
    output.update(result.cross.output);
    setHTML(reading, t('cross.reading', {
      n: result.n, m: result.m,
      pairs: result.strongest.map((j, i) => `${dec[i]} → ${enc[j]}`).join(', '),
    }));
    for (const place of places) {
      const trace = result[place.trace ?? place.key];
      const maskedCells = place.mask ? Uint8Array.from(trace.masked, (s) => (s === -Infinity ? 1 : 0)) : null;
      place.map.update(trace.weights, maskedCells);
    }
  }

  refresh();
  return {};
}
