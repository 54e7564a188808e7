// A sentence whose numbers change while its words do not (a formula, markup):
// built once from its template, then only the text of each {name} slot is
// replaced, so that an update does not parse the markup again nor build new
// MathML (measured: re-setting a stats line with three formulas cost a few
// milliseconds of style and layout per update). A new template rebuilds it.
//
//   const line = liveText(el);
//   line.set(t('row.stats'), { max: '0.9999', trace: '2.6 × 10⁻⁴' });   // t(key) without params: the template
//
// Slot values are text (never markup); {name|으로} keeps its Korean particle.
import { interpolate } from '../i18n/lookup.js';
import { setText } from './dom.js';

const SLOT = /\{(\w+)(\|[\uac00-\ud7a3]+)?\}/g;

export function liveText(el) {
  let template = null;
  let slots = [];
  return {
    el,
    set(markup, params) {
      if (markup !== template) {
        template = markup;
        el.innerHTML = markup.replace(SLOT, (_, name, josa = '') => `<span class="slot" data-slot="${name}${josa}"></span>`);
        slots = [...el.querySelectorAll('span[data-slot]')].map((span) => ({ span, spec: `{${span.dataset.slot}}` }));
      }
      for (const { span, spec } of slots) setText(span, interpolate(spec, params));
    },
  };
}
