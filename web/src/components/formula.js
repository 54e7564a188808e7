// A display formula: prerendered MathML (from a *.tex.js module) or a live
// MathML element (from ./live-math.js), in a box that scrolls on its own if a
// phone is too narrow, so the page never scrolls sideways.
import { h, setHTML } from '../lib/dom.js';
import './formula.css';

export function formula(content, { caption, className } = {}) {
  const box = h('div', { class: ['formula', className] });
  // A <figure> only with a caption (its name); otherwise the MathML speaks for itself.
  const el = h(caption ? 'figure' : 'div', { class: 'formula-figure' }, box);
  const cap = caption ? h('figcaption', { class: 'formula-caption', html: caption }) : null;
  if (cap) el.append(cap);
  const set = (next) => {
    if (typeof next === 'string') setHTML(box, next);
    else box.replaceChildren(...[next].flat());
  };
  set(content);
  return { el, set };
}
