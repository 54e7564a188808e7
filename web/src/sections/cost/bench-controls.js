// Section 10, the benchmark's controls: the largest n (onLargest(n)), run and
// cancel, and the plan they make (the sizes and d).
import { h, setHTML } from '../../lib/dom.js';
import { button } from '../../components/button.js';
import { choiceGroup } from '../../components/choice-group.js';
import { D, LARGEST_CHOICES, sizesUpTo } from './bench.js';

export function benchControls({ t, largest, onLargest, onRun, onCancel }) {
  const choice = choiceGroup({
    legend: t('bench.largest'),
    options: LARGEST_CHOICES.map((n) => ({ value: n, label: n.toLocaleString('en-US') })),
    value: largest,
    onChange: (n) => { showPlan(n); onLargest(n); },
  });
  choice.el.id = 'cost-largest';
  const runButton = button({ label: t('bench.run'), icon: '\u25b6', variant: 'primary', onClick: onRun });
  runButton.el.dataset.action = 'run';
  const cancelButton = button({ label: t('bench.cancel'), icon: '\u25a0', onClick: onCancel });
  cancelButton.el.dataset.action = 'cancel';
  const plan = h('p', { class: 'co-plan' });

  function showPlan(n) {
    setHTML(plan, t('bench.plan', { sizes: sizesUpTo(n).map((size) => size.toLocaleString('en-US')).join(', '), d: D }));
  }
  showPlan(largest);

  return {
    row: h('div', { class: 'co-controls' }, choice.el, h('div', { class: 'controls-row co-buttons' }, runButton.el, cancelButton.el)),
    plan,
    setRunning(running) {
      runButton.el.disabled = running;
      cancelButton.el.disabled = !running;
      choice.el.disabled = running;
    },
  };
}
