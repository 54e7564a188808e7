// A plain button with visible text (its accessible name).
import { h } from '../lib/dom.js';
import './controls.css';

export function button({ label, onClick, variant = 'secondary', icon }) {
  const el = h('button', { type: 'button', class: ['btn', `btn-${variant}`] },
    icon ? h('span', { class: 'btn-icon', 'aria-hidden': 'true', text: icon }) : null,
    h('span', { class: 'btn-label', html: label }));
  el.addEventListener('click', onClick);
  return { el };
}
