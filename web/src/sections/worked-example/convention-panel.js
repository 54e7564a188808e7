// Section 1, how the numbers are written: rows (Q K^T, a row per query, as the
// engine and most papers hold them) or article 000's columns
// (V Softmax(K^T Q / sqrt(d_k)), a column per query). The choice, and in the
// column form a note that says why the numbers do not change, with K^T q as
// the engine computes it directly (the keys given as queries: result.columnScores).
import { h, html, setHTML } from '../../lib/dom.js';
import { choiceGroup } from '../../components/choice-group.js';
import { formatNumber } from '../../lib/format.js';

export function conventionPanel(model, { t, changed }) {
  const choice = choiceGroup({
    legend: t('convention.legend'),
    // A span each: in the flex box of a choice, a bare text node would lose its space before the formula.
    options: ['rows', 'columns'].map((value) => ({ value, label: `<span>${t(`convention.${value}`)}</span>` })),
    value: model.inputs.convention,
    onChange: (convention) => { model.setConvention(convention); changed(); },
  });
  const explanation = html('p', {}, t('convention.note'));
  const check = h('p');
  const note = h('div', { class: 'we-convention-note' }, explanation, check);

  return {
    choice: h('div', { class: 'we-convention' }, choice.el),
    note,
    update() {
      const { result: r, inputs } = model;
      choice.set(inputs.convention);
      note.hidden = inputs.convention !== 'columns';
      if (!r || note.hidden) return;
      setHTML(check, t(...columnCheck(r)));
    },
  };
}

// The sentence that sets the engine's K^T q against the row q K^T: equal
// entry for entry, or how far apart (float rounding in another order).
export function columnCheck(r) {
  const scores = r.columnScores.map((x) => formatNumber(x)).join(', ');
  const difference = Math.max(...r.columnScores.map((x, j) => Math.abs(x - r.scores[j])));
  return difference === 0
    ? ['convention.same', { scores, m: r.m }]
    : ['convention.differs', { scores, m: r.m, difference: formatNumber(difference, 7) }];
}
