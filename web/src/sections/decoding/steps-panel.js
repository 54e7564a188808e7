// Section "decoding", one generation step by step: the sentence decoded (the
// probe's, or one the reader types in the task's vocabulary), its output, and
// for the step chosen on the slider: the rows of the attention over the source
// of every step up to it (the last layer's cross-attention, heads averaged),
// and what the model keeps between steps: the transformer's key/value cache
// (its self-attention over the cache, one more row per step), or the GRU's
// one state. A sentence the engine refuses is shown with the engine's message
// (the reader's words in it isolated in <bdi>).
import { escapeHTML, h, html, setHTML, setText } from '../../lib/dom.js';
import { isolated, typedSentence } from '../../components/typed-sentence.js';
import { vocabularyList } from '../../components/vocabulary-list.js';
import { heatmap } from '../../components/heatmap.js';
import { rangeSlider } from '../../components/range-slider.js';
import { cacheOf, stepMaps } from './state.js';

const word = (text, lang) => `<span lang="${lang}">${escapeHTML(text)}</span>`;

export function stepsPanel({ t, store, decode }) {
  const view = (store.steps ??= { step: null, typed: null });
  const form = typedSentence({
    label: t('steps.label'), button: t('steps.button'), action: 'decode', lang: 'en',
    onSubmit: (sentence) => {
      form.hideError();
      view.typed = sentence;
      if (!decode(sentence)) {
        form.alert(t('steps.trainFirst'));
        return;
      }
      setText(note, t('steps.decoding'));
    },
  });
  const { input, error } = form;
  const vocabulary = h('div', { class: 'dc-vocabulary' });
  const note = h('p', { class: 'dc-note', role: 'status' });
  const output = h('p', { class: 'dc-output' });
  const sliderSlot = h('div', { class: 'dc-slider' });
  const stepText = h('p', { class: 'dc-step-text' });
  const maps = h('div', { class: 'dc-maps heatmap-words' });
  const body = h('div', { class: 'dc-steps-body' }, vocabulary, form.el, error, note, output, sliderSlot, stepText, maps);
  const waiting = html('p', { class: 'dc-empty' }, t('steps.waiting'));
  const el = h('div', { class: 'panel dc-panel', id: 'decoding-steps' },
    h('p', { class: 'panel-title', html: t('steps.title') }),
    html('p', { class: 'dc-intro' }, t('steps.intro')),
    waiting, body);

  let run = null;
  let shownFor = null;   // the decoded object shown
  let vocabularyFor = null;

  const refuse = (message) => form.alert(t('translateTask.refused', { message: isolated(message) }));

  function showVocabulary(trainer) {
    if (vocabularyFor === trainer) return;
    vocabularyFor = trainer;
    vocabulary.replaceChildren(vocabularyList({
      intro: t('translateTask.pattern'), vocabulary: trainer.vocabulary, names: t('translateTask.groups'), lang: 'en',
    }));
  }

  function showStep(decoded, options, k) {
    const { generation } = decoded;
    const steps = generation.steps.slice(0, k);
    const step = steps.at(-1);
    const tokens = generation.steps.map((s) => (s.end ? t('steps.end') : s.token));
    setHTML(output, `${t('steps.output')} ${tokens.map((token, i) => {
      const shown = generation.steps[i].end ? escapeHTML(token) : word(token, 'ko');
      return i === k - 1 ? `<mark class="dc-current">${shown}</mark>` : `<span class="${i < k ? 'dc-done' : 'dc-later'}">${shown}</span>`;
    }).join(' ')}`);
    const cache = cacheOf(options, step);
    setHTML(stepText, t(`steps.now.${options.model === 'transformer' ? 'transformer' : 'recurrent'}`, {
      step: k, token: step.end ? t('steps.end') : word(step.token, 'ko'), rows: cache.rows, floats: cache.floats,
      layers: options.layers ?? 1, dModel: options.dModel,
    }));
    el.dataset.step = String(k);
    el.dataset.cacheLength = String(step.cacheLength);

    const rowLabels = steps.map((s) => (s.end ? escapeHTML(t('steps.end')) : word(s.token, 'ko')));
    const sourceLabels = generation.source.map((x) => word(x, 'en'));
    const rowsOf = (kind) => steps.map((s) => stepMaps(s)[kind]);
    const cross = rowsOf('cross');
    const parts = [];
    if (cross[0]) {
      const map = heatmap({
        rows: k, cols: sourceLabels.length, rowLabels, colLabels: sourceLabels, rowRole: 'q', colRole: 'k',
        caption: t('steps.crossCaption', { step: k }), rowAxis: t('steps.rowAxis'), colAxis: t('steps.sourceAxis'),
        tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'), showNumbers: sourceLabels.length <= 8, compact: true,
      });
      map.update(cross.flatMap((m) => m.row));
      map.el.classList.add('dc-cross');
      parts.push(map.el);
    }
    const self = rowsOf('self');
    if (self[0]) {
      // Row i reads the cache after step i + 1: its first i + 1 columns; the rest are not there yet.
      const cols = k;
      const values = [];
      const masked = new Uint8Array(k * cols);
      self.forEach((m, i) => {
        for (let j = 0; j < cols; j++) {
          values.push(j < m.row.length ? m.row[j] : 0);
          if (j >= m.row.length) masked[i * cols + j] = 1;
        }
      });
      const read = [escapeHTML(t('steps.start')), ...steps.slice(0, -1).map((s) => word(s.token, 'ko'))];
      const map = heatmap({
        rows: k, cols, rowLabels, colLabels: read, rowRole: 'q', colRole: 'k',
        caption: t('steps.selfCaption', { step: k, rows: step.cacheLength }), rowAxis: t('steps.rowAxis'), colAxis: t('steps.cacheAxis'),
        tableSummary: t('table.show'), rowSumLabel: t('table.rowSum'), maskedText: t('steps.notYet'), showNumbers: k <= 8, compact: true,
      });
      map.update(values, masked);
      map.el.classList.add('dc-self');
      parts.push(map.el);
    }
    maps.replaceChildren(...parts);
  }

  function show(decoded, options) {
    const n = decoded.generation.steps.length;
    if (shownFor !== decoded) {
      shownFor = decoded;
      view.step = view.step && view.step <= n && view.decoded === decoded ? view.step : n;
      view.decoded = decoded;
      form.hideError();
      setText(note, decoded.sentence ? t('steps.typed') : t('steps.probe'));
      if (!input.value) input.value = decoded.generation.source.join(' ');
      const slider = rangeSlider({
        label: t('steps.slider'), values: Array.from({ length: n }, (_, i) => i + 1), value: view.step,
        format: (k) => t('steps.sliderValue', { step: k, steps: n }),
        onInput: (k) => { view.step = k; showStep(decoded, options, k); },
      });
      sliderSlot.replaceChildren(slider.el);
    }
    showStep(decoded, options, view.step);
  }

  return {
    el,
    // The run: its decoded sentence once there is one.
    update(next) {
      run = next;
      const decoded = run?.done ? run.decoded : null;
      waiting.hidden = Boolean(decoded);
      body.hidden = !decoded;
      el.dataset.ready = String(Boolean(decoded));
      if (!decoded) {
        shownFor = null;
        return;
      }
      showVocabulary(run.trainer);
      if (view.typed !== null && !input.value) input.value = view.typed;
      show(decoded, run.trainer.options);
    },
    refused(message) {
      refuse(message);
      setText(note, '');
    },
  };
}
