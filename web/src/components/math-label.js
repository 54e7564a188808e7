// A label written as a formula (a table header such as x_i · x_j), with a
// plain-text twin for assistive technology: the MathML is shown and hidden from
// the accessibility tree, the plain text is read and visually hidden. Table
// headers made of MathML alone count as empty for some screen readers.
//
// The wrapper is position: relative, so the visually hidden (absolutely
// positioned) text stays inside a table that scrolls sideways on a phone,
// instead of widening the page.
import { h } from '../lib/dom.js';
import './math-label.css';

export function mathLabel(markup, plain) {
  return h('span', { class: 'math-label' },
    h('span', { 'aria-hidden': 'true', html: markup }),
    h('span', { class: 'visually-hidden', text: plain }));
}
