// Section "induction", ablation: switch heads of the trained two-layer model
// off (their output zeroed: trainer.evaluate({ ablate })) and read its
// accuracy on the repeat over every held-out sequence, against the whole
// model and chance. Every set of heads was evaluated when the run ended
// (./runs.js: runs.two.ablations), so a switch shows its number at once, and
// still after a language switch.
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { toggleSwitch } from '../../components/toggle-switch.js';
import { formatNumber } from '../../lib/format.js';
import { ablationKey, chanceOf } from './state.js';

export function ablationPanel({ t, store }) {
  const off = (store.ablated ??= []);   // [{ layer, head }] switched off
  const switches = h('div', { class: 'controls-row in-switches' });
  const result = h('p', { class: 'in-ablation-result', role: 'status' });
  const bar = h('div', { class: 'in-bar', 'aria-hidden': 'true' }, h('span', { class: 'in-bar-fill' }), h('span', { class: 'in-bar-full' }), h('span', { class: 'in-bar-chance' }));
  const el = h('div', { class: 'panel in-panel', id: 'induction-ablation' },
    h('p', { class: 'panel-title', html: t('ablation.title') }),
    html('p', { class: 'in-intro' }, t('ablation.intro')),
    switches, bar, result);
  let runs = null;
  let builtFor = null;

  const isOff = ({ layer, head }) => off.some((x) => x.layer === layer && x.head === head);

  function show() {
    const done = runs?.two.done;
    el.dataset.ready = String(Boolean(done));
    if (!done) {
      setText(result, t('ablation.waiting'));
      bar.hidden = true;
      return;
    }
    const full = runs.two.ablations.none.accuracy;
    const now = runs.two.ablations[ablationKey(off)].accuracy;
    const chance = chanceOf(runs.two.trainer);
    bar.hidden = false;
    bar.style.setProperty('--value', String(now));
    bar.style.setProperty('--full', String(full));
    bar.style.setProperty('--chance', String(chance));
    el.dataset.accuracy = String(now);
    const names = off.map(({ layer, head }) => t('ablation.head', { layer: layer + 1, head: head + 1 })).join(', ');
    setHTML(result, off.length === 0
      ? t('ablation.none', { full: formatNumber(full, 3), chance: formatNumber(chance, 3) })
      : t('ablation.off', { heads: names, accuracy: formatNumber(now, 3), full: formatNumber(full, 3), chance: formatNumber(chance, 3) }));
  }

  function build() {
    const heads = runs.two.final.ablated;
    const key = heads.map((x) => `${x.layer}:${x.head}`).join();
    if (key === builtFor) return;
    builtFor = key;
    switches.replaceChildren(...heads.map(({ layer, head }) => {
      const s = toggleSwitch({
        label: t('ablation.switch', { layer: layer + 1, head: head + 1 }), checked: isOff({ layer, head }),
        onChange: (on) => {
          const i = off.findIndex((x) => x.layer === layer && x.head === head);
          if (on && i < 0) off.push({ layer, head });
          if (!on && i >= 0) off.splice(i, 1);
          show();
        },
      });
      s.el.dataset.layer = String(layer);
      return s.el;
    }));
  }

  return {
    el,
    update(next) {
      runs = next;
      if (runs?.two.done) build();
      else {
        builtFor = null;
        switches.replaceChildren();
      }
      show();
    },
  };
}
