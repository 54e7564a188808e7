// The words a model reads, for the reader who types a sentence (sections
// "decoding" and "learning"): the pattern every sentence follows, then each
// group of words (a trainer's vocabulary: { pattern, groups: [{ name, words }] }).
//
//   vocabularyList({ intro, vocabulary, names: { PERSON: 'person', ... }, lang: 'en' })  -> element
import { h, html } from '../lib/dom.js';
import './vocabulary-list.css';

export function vocabularyList({ intro, vocabulary, names = {}, lang }) {
  return h('div', { class: 'vocabulary-list' },
    html('p', {}, intro),
    h('p', { class: 'vocabulary-pattern', lang, dir: 'ltr', text: vocabulary.pattern }),
    h('dl', { class: 'vocabulary-groups' }, vocabulary.groups.flatMap((group) => [
      h('dt', { text: names[group.name] ?? group.name }),
      h('dd', { lang, text: group.words.join(', ') }),
    ])));
}
