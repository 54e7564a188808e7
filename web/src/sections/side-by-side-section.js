// What the sections that train one model twice side by side ("mask-reason",
// "positions-trained") share besides their panels: the settings model (the
// section's inputs; nothing is computed until the reader trains) and the
// section's layout: the lede, the task, its formula and what the formula
// means; then the panels; then the closing words. Its words are the
// section's: lede, task ({length}), formula, after.
import { h, html } from '../lib/dom.js';
import { formula } from '../components/formula.js';
import { settingsModel } from '../lib/settings-model.js';

export function sectionSettings(store, initial) {
  return (store.model ??= settingsModel(initial));
}

export function layOut(root, { t, tex, length, panels }) {
  root.append(
    h('div', { class: 'prose' },
      html('p', { class: 'section-lede' }, t('lede')),
      html('p', {}, t('task', { length })),
      formula(tex).el,
      html('p', {}, t('formula'))),
    ...panels,
    html('div', { class: 'prose' }, t('after')));
}
