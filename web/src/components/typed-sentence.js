// A sentence the reader types for a trained model (sections "learning" and
// "decoding"): a labelled text box and its submit button, and an alert for
// what the engine refused. The engine's message is text, never markup: it is
// escaped and isolated left-to-right, each quoted word of it in a <bdi> of
// its own (a right-to-left word reads as typed and cannot reorder the
// sentence around it).
//
//   const form = typedSentence({ label, button, action: 'translate', lang: 'en', onSubmit: (sentence) => ... });
//   form.el (the form), form.input, form.error (the alert, placed by the caller)
//   form.alert(markup)   HTML in the alert: the page's words, the engine's message as isolated(message)
//   form.hideError()
import { escapeHTML, h, setHTML, uid } from '../lib/dom.js';
import './typed-sentence.css';

export const isolated = (text) =>
  `<bdi dir="ltr">${escapeHTML(text).replace(/&quot;.*?&quot;/g, (word) => `<bdi>${word}</bdi>`)}</bdi>`;

export function typedSentence({ label, button, action, lang, onSubmit }) {
  const id = uid('sentence');
  const input = h('input', {
    id, class: 'typed-sentence-input', type: 'text', lang, autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off',
  });
  const submit = h('button', { type: 'submit', class: 'btn btn-primary' }, h('span', { class: 'btn-label', text: button }));
  submit.dataset.action = action;
  const el = h('form', { class: 'typed-sentence' },
    h('label', { class: 'typed-sentence-label', for: id, html: label }),
    h('div', { class: 'typed-sentence-row' }, input, submit));
  // An alert only while there is an error (an empty alert is still one to assistive technology).
  const error = h('p', { class: 'input-error', hidden: true });
  const hideError = () => { error.hidden = true; error.removeAttribute('role'); };
  const alert = (markup) => {
    error.hidden = false;
    error.setAttribute('role', 'alert');
    setHTML(error, markup);
  };
  el.addEventListener('submit', (event) => {
    event.preventDefault();
    onSubmit(input.value);
  });
  return { el, input, error, alert, hideError };
}
