// A labelled slider over a list of values (e.g. powers of two): a native
// <input type="range"> over the indices, so arrow keys, Home/End and screen
// readers work as usual; aria-valuetext speaks the value, not the index.
//
//   rangeSlider({ label, values: [100, 200, 500], value: 200, format, onInput, onChange })
//
// onInput fires while dragging (cheap previews); onChange when the value is
// committed (pointer released, or each key press), for heavy recomputation.
import { h, setText, uid } from '../lib/dom.js';
import './range-slider.css';

export function rangeSlider({ label, values, value, format = String, onInput, onChange }) {
  const id = uid('range');
  let index = Math.max(0, values.indexOf(value));
  const output = h('output', { class: 'range-value', for: id });
  const input = h('input', {
    id, type: 'range', class: 'range-input', min: '0', max: String(values.length - 1), step: '1',
    '.value': String(index),
  });
  const el = h('div', { class: 'range' },
    h('div', { class: 'range-head' }, h('label', { class: 'range-label', for: id, html: label }), output),
    input,
    h('div', { class: 'range-ends', 'aria-hidden': 'true' },
      h('span', { text: format(values[0]) }), h('span', { text: format(values[values.length - 1]) })));

  function show() {
    const text = format(values[index]);
    setText(output, text);
    input.setAttribute('aria-valuetext', text);
    input.style.setProperty('--fill', `${(index / Math.max(1, values.length - 1)) * 100}%`);
  }
  input.addEventListener('input', () => {
    index = Number(input.value);
    show();
    onInput?.(values[index]);
  });
  input.addEventListener('change', () => {
    index = Number(input.value);
    show();
    onChange?.(values[index]);
  });
  show();
  return {
    el,
    input,
    get value() { return values[index]; },
    set(next) {
      const i = values.indexOf(next);
      if (i < 0) return;
      index = i;
      input.value = String(i);
      show();
    },
  };
}
