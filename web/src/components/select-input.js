// A labelled native <select>.
import { h } from '../lib/dom.js';
import './controls.css';

export function selectInput({ label, options, value, onChange }) {
  const select = h('select', { class: 'select-input' },
    options.map((o) => h('option', { value: String(o.value), '.selected': o.value === value, text: o.label })));
  select.addEventListener('change', () => {
    const option = options[select.selectedIndex];
    onChange(option.value);
  });
  const el = h('label', { class: 'select-field' }, h('span', { class: 'select-label', html: label }), select);
  return {
    el,
    set(next) { select.selectedIndex = Math.max(0, options.findIndex((o) => o.value === next)); },
  };
}
