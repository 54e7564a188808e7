// Section "learning", the probe sentence's attention weights: one map per task
// (./alignment-map.js), built the first time the task is shown and kept in the
// page: the other task's is stowed (lib/stowed.js), so a task change shows it
// again without rebuilding its style and layout. The shown one holds the id.
// The heads' small maps (up to 8 x 64 cells) are built when h changes, in a
// task of their own, after the averaged map the reader is looking at, and
// kept per h; the other choices of h are built while idle.
import { h } from '../../lib/dom.js';
import { stow } from '../../lib/stowed.js';
import { whenIdle } from '../../lib/idle.js';
import { alignmentMap } from './alignment-map.js';
import { HEAD_CHOICES } from './state.js';

export const LANGUAGES = Object.freeze({ reverse: ['zxx', 'zxx'], translate: ['en', 'ko'] });

export function probeMaps({ t }) {
  const el = h('div', { class: 'le-map-slot' });
  const maps = {};
  let shown = null;
  let headsTimer = 0;
  let preparing = [];   // cancels of the idle builds of the other choices of h

  const cancelPending = () => {
    clearTimeout(headsTimer);
    preparing.forEach((cancel) => cancel());
    preparing = [];
  };

  return {
    el,
    // The map of `task` with the run's probe (and the task's expected alignment), h heads.
    show(run, { task, heads }) {
      const map = (maps[task] ??= alignmentMap({
        t, reading: run.probe, heads: 1, expected: run.trainer.alignment,
        caption: t('map.probeCaption'), languages: LANGUAGES[task], id: null,
      }));
      shown = map;
      if (map.el.parentNode !== el) el.append(map.el);
      for (const each of Object.values(maps)) {
        stow(each.el, each !== map);
        if (each === map) each.el.id = 'learning-probe';
        else each.el.removeAttribute('id');
      }
      cancelPending();
      if (map.heads !== heads) headsTimer = setTimeout(() => map.setHeads(heads, run.probe), 0);
      preparing = HEAD_CHOICES.map((count) => whenIdle(() => map.prepareHeads(count)));
    },
    // The shown map with a new probe; details: the heads' maps and the output too.
    update(probe, { details }) { shown.update(probe, { details }); },
    destroy: cancelPending,
  };
}
