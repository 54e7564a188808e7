// A set of mutually exclusive choices shown as a segmented control: native
// radio buttons in a fieldset, so arrow keys and screen readers work as usual.
import { h, uid } from '../lib/dom.js';
import './controls.css';

export function choiceGroup({ legend, options, value, onChange, name = uid('choice') }) {
  const inputs = [];
  const fieldset = h('fieldset', { class: 'choice-group' },
    h('legend', { class: 'choice-legend', html: legend }),
    h('div', { class: 'choice-options' },
      options.map((option) => {
        const input = h('input', {
          type: 'radio', name, value: String(option.value), class: 'choice-input',
          '.checked': option.value === value,
        });
        input.addEventListener('change', () => { if (input.checked) onChange(option.value); });
        inputs.push([option.value, input]);
        return h('label', { class: 'choice' }, input, h('span', { class: 'choice-text', html: option.label }));
      })));
  return {
    el: fieldset,
    set(next) { for (const [v, input] of inputs) input.checked = v === next; },
  };
}
