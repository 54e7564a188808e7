// Section 1, the inputs: q, the keys and the values as number boxes, the
// scaling switch and reset. Every edit goes to the model; `changed(from)`
// tells the section to redraw ('input': the boxes already show the value).
import { h, setText } from '../../lib/dom.js';
import { readerMessage } from '../../lib/input-check.js';
import { matrixInput } from '../../components/matrix-input.js';
import { toggleSwitch } from '../../components/toggle-switch.js';
import { button } from '../../components/button.js';

export function inputsPanel(model, { t, changed }) {
  const m = model.inputs.keys.length;
  const rowsOf = (name) => Array.from({ length: m }, (_, j) => `<i>${name}</i><sub>${j + 1}</sub>`);
  const errorSlot = h('p', { class: 'input-error', role: 'status', 'aria-live': 'polite' });
  const qInput = matrixInput({
    values: model.inputs.q, rows: 1, cols: 2, role: 'q',
    rowLabels: ['<i>q</i>'], colLabels: ['1', '2'],
    caption: t('inputs.query'),
    cellLabel: (_, c) => t('inputs.queryCell', { i: c + 1 }),
    onInput: (_, c, x) => { model.setQuery(c, x); changed('input'); },
  });
  // The keys (role k) or the values (role v): m rows of two numbers.
  const rowsInput = (name, role, cell, set) => matrixInput({
    values: model.inputs[name].flat(), rows: m, cols: 2, role,
    rowLabels: rowsOf(role), colLabels: ['1', '2'],
    caption: t(`inputs.${name}`),
    cellLabel: (r, c) => t(`inputs.${cell}`, { j: r + 1, i: c + 1 }),
    onInput: (r, c, x) => { set(r, c, x); changed('input'); },
  });
  const kInput = rowsInput('keys', 'k', 'keyCell', model.setKey);
  const vInput = rowsInput('values', 'v', 'valueCell', model.setValue);
  const scalingSwitch = toggleSwitch({
    label: t('controls.scaling'), ariaLabel: t('controls.scalingName'), checked: model.inputs.scaling,
    onChange: (on) => { model.setScaling(on); changed(); },
  });
  const reset = button({ label: t('actions.reset'), icon: '\u21ba', onClick: () => { model.reset(); changed('reset'); } });

  return {
    el: h('div', { class: 'we-inputs' },
      h('div', { class: 'we-matrices' }, qInput.el, kInput.el, vInput.el),
      errorSlot,
      h('div', { class: 'controls-row' }, scalingSwitch.el, reset.el)),
    update(from) {
      const { error, inputs } = model;
      setText(errorSlot, error ? t('inputs.error', { message: readerMessage(model.failure, t) }) : '');
      if (from !== 'input') {
        qInput.set(inputs.q);
        kInput.set(inputs.keys.flat());
        vInput.set(inputs.values.flat());
      }
      scalingSwitch.set(inputs.scaling);
    },
  };
}
