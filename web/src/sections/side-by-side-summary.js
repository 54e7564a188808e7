// What the finished runs of a side-by-side section showed: the sentences its
// state chose from their numbers (`summarize`, keys with parameters) in the
// reader's language (`describe`), one paragraph each, once every run is done.
import { h, setHTML } from '../lib/dom.js';
import { allDone } from '../training/side-by-side.js';

export function sideBySideSummary({ t, id, summarize, describe }) {
  const el = h('div', { class: 'sbs-summary', 'aria-live': 'polite', id });
  return {
    el,
    update(record, status) {
      if (status !== 'done' || !record || !allDone(record)) {
        setHTML(el, '');
        el.dataset.keys = '';
        return;
      }
      el.dataset.keys = summarize(record).map((p) => p.key).join(' ');
      setHTML(el, describe(t, record).map((sentence) => `<p>${sentence}</p>`).join(''));
    },
  };
}
