// A number box. Text (not type=number) so a reader can type "-", "0." or a
// typographic minus on the way to a number, and so that an invalid entry is
// passed on and reported (lib/input-check.js names the box) rather than
// silently dropped by the browser. Up/Down arrows step by 0.1 (Shift: 1).
//
// inputmode="text": the phone shows a keyboard that has a minus sign. The
// decimal pad of iOS has none, so negative numbers could not be typed there;
// the pattern says what the box takes (a signed decimal, as parseNumber reads it).
import { h } from '../lib/dom.js';
import { formatInput, parseNumber } from '../lib/format.js';
import './number-input.css';

export const NUMBER_PATTERN = '\\s*[\\-+\u2212]?(\\d+[.,]?\\d*|[.,]\\d+)([eE][\\-+]?\\d+)?\\s*';

export function numberInput({ value, label, role, onInput, step = 0.1 }) {
  const input = h('input', {
    class: ['number-input', role && `role-border-${role}`],
    type: 'text',
    inputmode: 'text',
    pattern: NUMBER_PATTERN,
    autocomplete: 'off',
    autocapitalize: 'off',
    autocorrect: 'off',
    enterkeyhint: 'done',
    spellcheck: 'false',
    'aria-label': label,
    '.value': formatInput(value),
  });
  const emit = () => {
    const x = parseNumber(input.value);
    input.setAttribute('aria-invalid', String(!Number.isFinite(x)));
    onInput?.(x, input.value);
  };
  input.addEventListener('input', emit);
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    const current = parseNumber(input.value);
    if (!Number.isFinite(current)) return;
    event.preventDefault();
    const delta = (event.key === 'ArrowUp' ? 1 : -1) * (event.shiftKey ? 1 : step);
    input.value = formatInput(Math.round((current + delta) * 1e4) / 1e4);
    emit();
  });
  return {
    el: input,
    // Sets the shown value without firing (e.g. after a drag or a reset).
    set(x) {
      if (parseNumber(input.value) !== x || !Number.isFinite(x)) input.value = formatInput(x);
      input.setAttribute('aria-invalid', 'false');
    },
    setLabel(text) { input.setAttribute('aria-label', text); },
  };
}
