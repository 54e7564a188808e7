// Section "learning", the reader's sentence: the vocabulary and the pattern
// of the task, a box to type a sentence in, and the model's output with its
// attention weights (trainer.translate). The trained model answers from the
// run's worker; before any training, an untrained model of the same settings
// reads it on the page. A sentence the engine refuses is told in the reader's
// words (./state.js sentenceError).
import { h, html, setText } from '../../lib/dom.js';
import { isolated, typedSentence } from '../../components/typed-sentence.js';
import { alignmentMap } from './alignment-map.js';
import { sentenceError, translateUntrained } from './state.js';
import { LANGUAGES } from './probe-maps.js';

export function translatePanel(model, { t, engine, training }) {
  const form = typedSentence({
    label: t('translate.label'), button: t('translate.button'), action: 'translate', onSubmit: (sentence) => read(sentence),
  });
  const { input, error, hideError } = form;
  const vocabulary = h('div', { class: 'le-vocabulary' });
  const note = h('p', { class: 'le-note', role: 'status' });
  const result = h('div', { class: 'le-result' });
  const el = h('div', { class: 'panel le-panel', id: 'learning-translate' },
    h('p', { class: 'panel-title', html: t('translate.title') }),
    html('p', { class: 'le-intro' }, t('translate.intro')),
    vocabulary, form.el, error, note, result);

  let latest = 0;
  let shownFor = null;   // the task whose vocabulary is shown
  const task = () => model.settings.task;

  function showVocabulary() {
    if (shownFor === task()) return;
    shownFor = task();
    const info = model.result.trainer;
    const names = t(`vocabulary.${task()}.groups`);
    const lang = LANGUAGES[task()][0];
    vocabulary.replaceChildren(
      html('p', { class: 'le-pattern' }, t(`vocabulary.${task()}.pattern`)),
      h('dl', { class: 'le-groups' }, info.vocabulary.groups.flatMap((group, i) => [
        h('dt', { text: Array.isArray(names) && names[i] ? names[i] : group.name }),
        h('dd', { lang, text: group.words.join(task() === 'reverse' ? ' ' : ', ') }),
      ])));
    const probe = model.result.probe;
    input.value = probe.source.join(task() === 'reverse' ? '' : ' ');
    input.lang = lang;
  }

  function show(reading, step) {
    hideError();
    setText(note, step === 0 ? t('translate.untrained') : t('translate.trained', { step }));
    const map = alignmentMap({
      t, reading, heads: model.settings.heads, expected: null, caption: t('map.sentenceCaption'),
      languages: LANGUAGES[task()], id: 'learning-sentence',
    });
    result.replaceChildren(map.el);
  }
  function refuse(message) {
    const { key, params } = sentenceError(message);
    // The reader's words come back in the message: text, never markup, and isolated.
    form.alert(t(key, Object.fromEntries(Object.entries(params).map(([name, v]) => [name, isolated(v)]))));
    setText(note, '');
    result.replaceChildren();
  }

  function read(sentence) {
    const id = ++latest;
    if (training.translate(id, sentence)) return;   // answered by the run (receive, below)
    try {
      show(translateUntrained(engine, model.settings, sentence), 0);
    } catch (err) {
      refuse(String(err?.message ?? err));
    }
  }

  showVocabulary();
  return {
    el,
    // The run's answer to the reader's sentence.
    receive(message) {
      if (message.id !== latest) return;
      if (message.error) refuse(message.error);
      else show(message.reading, training.step);
    },
    // New settings: no old answer; the task's vocabulary (if the task changed)
    // in a task of its own, after the part of the page the reader is looking at.
    reset() {
      setTimeout(showVocabulary, 0);
      result.replaceChildren();
      hideError();
      setText(note, '');
    },
  };
}
