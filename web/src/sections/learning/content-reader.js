// Section "learning", an alignment that follows the sentence: this section's
// model aligns by position (its queries are learned positions), so it cannot
// follow words that move. Here Bahdanau's model, whose query is its decoder
// state, trains on the engine's content-based 'translate' task (optional
// adjectives, adverbs, objects, places and times) in a worker of the training
// service (src/training/training-run.js: the full learning module loads in
// that worker at the click, never with the page), to ./state.js CONTENT_TARGET;
// then it reads the sentences the reader types, and the section says how many
// of its content words look hardest at their source word (./state.js
// contentAlignment). The model lives in store.content until the section's end.
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { button } from '../../components/button.js';
import { isolated, typedSentence } from '../../components/typed-sentence.js';
import { vocabularyList } from '../../components/vocabulary-list.js';
import { formatNumber, formatPercent } from '../../lib/format.js';
import { trainingRun } from '../../training/training-run.js';
import { alignmentMap } from './alignment-map.js';
import { CONTENT_EXAMPLES, CONTENT_TARGET, contentAlignment, contentOptions, contentPlay } from './state.js';

const LANGUAGES = ['en', 'ko'];

export function contentReader({ t, engine, store, settings }) {
  // status: 'idle' | 'training' | 'ready' | 'failed' | 'noWorker'; a re-mount (a language switch) lost the worker.
  const state = (store.content ??= { status: 'idle', step: 0, accuracy: null, reached: false, failure: null });
  if (state.status !== 'idle') Object.assign(state, { status: 'idle', step: 0, accuracy: null, failure: null });
  const train = button({ label: t('content.train'), icon: '\u25b6', variant: 'primary', onClick: () => start() });
  train.el.dataset.action = 'content-train';
  const status = h('p', { class: 'le-status', role: 'status' });
  const vocabulary = h('div', { class: 'le-content-vocabulary' });
  const form = typedSentence({
    label: t('content.label'), button: t('translate.button'), action: 'content-translate', lang: 'en',
    onSubmit: (sentence) => read(sentence),
  });
  const note = h('p', { class: 'le-note', 'aria-live': 'polite' });
  const result = h('div', { class: 'le-result' });
  const reading = h('div', { class: 'le-content-reading', hidden: true }, vocabulary, form.el, form.error, note, result);
  const el = h('div', { class: 'panel le-panel', id: 'learning-content' },
    h('p', { class: 'panel-title', html: t('content.title') }),
    html('p', { class: 'le-intro' }, t('content.intro')),
    h('div', { class: 'controls-row' }, train.el),
    status, reading);

  let run = null;
  let latest = 0;

  function show() {
    el.dataset.state = state.status;
    train.el.disabled = state.status === 'training';
    const params = { step: state.step, accuracy: state.accuracy === null ? '\u2014' : formatPercent(state.accuracy), target: formatPercent(CONTENT_TARGET), examples: CONTENT_EXAMPLES };
    const key = state.status === 'ready' ? `content.status.${state.reached ? 'reached' : 'short'}` : `content.status.${state.status}`;
    setText(status, t(key, { ...params, message: state.failure ?? '' }));
    reading.hidden = state.status !== 'ready';
  }

  function onMessage(message) {
    if (message.type === 'started') {
      vocabulary.replaceChildren(vocabularyList({
        intro: t('translateTask.pattern'), vocabulary: message.trainer.vocabulary, names: t('translateTask.groups'), lang: 'en',
      }));
      form.input.value ||= message.probe.source.join(' ');
    } else if (message.type === 'progress') {
      state.step = message.step;
      const point = message.points.at(-1);
      if (point) state.accuracy = point.generatedAccuracy;
    } else if (message.type === 'paused') {
      state.step = message.step;
      if (message.point) state.accuracy = message.point.generatedAccuracy;
      state.reached = message.reason === 'target';
      state.status = 'ready';
      show();
      read(form.input.value);
      return;
    } else if (message.type === 'translation') {
      if (message.id === latest) (message.error ? refuse(message.error) : showReading(message.reading));
      return;
    } else if (message.type === 'error') {
      console.error(message.message);
      // Where no worker starts (a page opened from a file), the run is on the
      // page, whose engine has this section's model only: said in the reader's words.
      state.status = run?.inBackground === false ? 'noWorker' : 'failed';
      state.failure = message.message;
      run?.stop();
      run = null;
    }
    show();
  }

  function start() {
    run?.stop();
    Object.assign(state, { status: 'training', step: 0, accuracy: null, reached: false, failure: null });
    result.replaceChildren();
    form.hideError();
    run = trainingRun({ engine, onMessage });
    run.start(contentOptions(settings()));
    run.play(contentPlay());
    show();
  }

  function read(sentence) {
    form.hideError();
    if (!run || state.status !== 'ready') return;
    latest += 1;
    run.translate(latest, sentence);
  }
  function refuse(message) {
    form.alert(t('translateTask.refused', { message: isolated(message) }));
    setText(note, '');
  }
  function showReading(r) {
    const map = alignmentMap({
      t, reading: r, heads: 1, expected: null, caption: t('content.caption'), languages: LANGUAGES, id: 'learning-content-map',
    });
    r.reference.forEach((s, row) => { if (s >= 0) map.cells[row * r.source.length + s]?.classList.add('is-expected'); });
    const { key, params } = contentAlignment(r);
    setHTML(note, t(key, params));
    note.dataset.key = key;
    result.replaceChildren(map.el);
  }

  show();
  return {
    el,
    destroy() { run?.stop(); },
  };
}
