// Section 2, the footer of each experiment: how long the reader waited
// (data-ms), how long the engine took (data-engine-ms), the seed and the build,
// kept in data attributes for the tests.
import { h, setText } from '../../lib/dom.js';
import { formatMs } from './format.js';

export function experimentTiming(name, { t, engine, inBackground }) {
  const el = h('p', { class: 'sc-timing', dataset: { experiment: name }, text: t('timing.running') });
  const buildName = (build) => t(build === 'simd' ? 'timing.simd' : 'timing.baseline');
  return {
    el,
    update(result) {
      const ms = result.wallMs ?? result.ms;
      el.dataset.ms = String(ms);
      el.dataset.engineMs = String(result.ms);
      el.dataset.seed = String(result.seed);
      const background = result.wallMs !== undefined && inBackground();
      const build = result.build ?? engine.build;
      el.dataset.build = build;
      const why = build !== engine.build && build === 'baseline' ? ` ${t('timing.whyBaseline')}` : '';
      setText(el, t(background ? 'timing.background' : 'timing.line', { ms: formatMs(ms), build: buildName(build) }) + why);
    },
  };
}
