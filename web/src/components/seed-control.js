// The seed of a random experiment: a box to type one (so a run can be
// reproduced) and a button that draws a new one. Results are a pure function
// of the seed; only the choice of a *new* seed uses the browser's randomness.
import { h, uid } from '../lib/dom.js';
import './controls.css';
import './number-input.css';
import './seed-control.css';

export const MAX_SEED = 999999;

// A fresh seed in [1, MAX_SEED], different from `current`.
export function newSeed(current = -1, random = defaultRandom) {
  for (;;) {
    const seed = 1 + Math.floor(random() * MAX_SEED);
    if (seed !== current) return seed;
  }
}

function defaultRandom() {
  const word = new Uint32Array(1);
  globalThis.crypto.getRandomValues(word);
  return word[0] / 2 ** 32;
}

// "42" -> 42; anything that is not a whole number from 0 to MAX_SEED -> null.
export function parseSeed(text) {
  const s = String(text).trim();
  if (!/^\d{1,7}$/.test(s)) return null;
  const seed = Number(s);
  return seed <= MAX_SEED ? seed : null;
}

// invalidLabel: what a refused entry is told (the range of a seed), shown
// under the box while it holds one; the last valid seed stays in use.
export function seedControl({ label, inputLabel, newLabel, invalidLabel, value = 0, onChange }) {
  const id = uid('seed');
  let seed = value;
  const error = h('span', { id: `${id}-error`, class: 'seed-error', role: 'status', hidden: true, html: invalidLabel });
  const input = h('input', {
    id, class: 'number-input seed-input', type: 'text', inputmode: 'numeric', autocomplete: 'off',
    spellcheck: 'false', 'aria-label': inputLabel ?? undefined, '.value': String(seed),
    'aria-describedby': `${id}-error`,
  });
  const markValid = (valid) => {
    input.setAttribute('aria-invalid', String(!valid));
    error.hidden = valid;
  };
  const commit = () => {
    const next = parseSeed(input.value);
    markValid(next !== null);
    if (next === null || next === seed) return;
    seed = next;
    onChange(seed);
  };
  input.addEventListener('change', commit);
  input.addEventListener('keydown', (event) => { if (event.key === 'Enter') commit(); });
  const button = h('button', { type: 'button', class: 'btn btn-secondary seed-new' },
    h('span', { class: 'btn-icon', 'aria-hidden': 'true', text: '\u21bb' }),
    h('span', { class: 'btn-label', html: newLabel }));
  button.addEventListener('click', () => {
    seed = newSeed(seed);
    input.value = String(seed);
    markValid(true);
    onChange(seed);
  });
  const el = h('div', { class: 'seed-control' },
    h('label', { class: 'seed-label', for: id, html: label }), input, button, error);
  return {
    el,
    button,
    input,
    get value() { return seed; },
    set(next) {
      seed = next;
      input.value = String(next);
      markValid(true);
    },
  };
}
