// A horizontal bar for a weight in [0, 1], drawn under its number.
import { h } from '../lib/dom.js';
import './weight-bar.css';

export function weightBar({ role } = {}) {
  const fill = h('span', { class: 'weight-bar-fill' });
  const el = h('span', { class: ['weight-bar', role && `role-${role}`], 'aria-hidden': 'true' }, fill);
  return {
    el,
    update(w) { fill.style.width = `${Math.max(0, Math.min(1, Number.isFinite(w) ? w : 0)) * 100}%`; },
  };
}
