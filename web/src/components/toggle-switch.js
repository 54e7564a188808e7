// An on/off switch: a <button role="switch"> with its label inside, so the
// accessible name is the visible text.
import { h, setHTML } from '../lib/dom.js';
import './controls.css';

export function toggleSwitch({ label, ariaLabel, checked = false, onChange }) {
  const text = h('span', { class: 'switch-label', html: label });
  // ariaLabel: a plain-text name when the visible label holds a formula.
  const button = h('button', { type: 'button', role: 'switch', class: 'switch', 'aria-checked': String(checked), 'aria-label': ariaLabel },
    h('span', { class: 'switch-track', 'aria-hidden': 'true' }, h('span', { class: 'switch-thumb' })),
    text);
  button.addEventListener('click', () => {
    const next = button.getAttribute('aria-checked') !== 'true';
    button.setAttribute('aria-checked', String(next));
    onChange(next);
  });
  return {
    el: button,
    set(value) { button.setAttribute('aria-checked', String(Boolean(value))); },
    setLabel(markup) { setHTML(text, markup); },
  };
}
