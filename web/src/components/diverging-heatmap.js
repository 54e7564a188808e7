// A heatmap of signed numbers (positional encodings, L - L^T): the heatmap
// component (cells, numbers, table alternative) recoloured on a diverging ramp,
// rose for negative, white for 0, ink for positive.
import { heatmap } from './heatmap.js';
import { css, textColorOn } from '../lib/color.js';

export const NEGATIVE = [159, 18, 57];   // rose
export const ZERO = [255, 255, 255];
export const POSITIVE = [23, 37, 84];    // the ink of the weight ramp

// v in [-range, range] -> [r, g, b].
export function divergingColor(v, range = 1) {
  const t = range > 0 && Number.isFinite(v) ? Math.max(-1, Math.min(1, v / range)) : 0;
  const end = t < 0 ? NEGATIVE : POSITIVE;
  const u = Math.abs(t);
  return ZERO.map((z, i) => Math.round(z + (end[i] - z) * u));
}

export function divergingHeatmap(options) {
  const map = heatmap({ ...options, rowSumLabel: undefined });
  return {
    ...map,
    // values: rows*cols signed numbers; range: the |value| drawn at full colour
    // (default: the largest |value|).
    update(values, { range } = {}) {
      map.update(values);
      let r = range;
      if (r === undefined) {
        r = 0;
        for (const v of values) r = Math.max(r, Math.abs(v));
      }
      map.cells.forEach((cell, k) => {
        const bg = divergingColor(values[k], r);
        cell.style.background = css(bg);
        cell.style.color = css(textColorOn(bg));
      });
    },
  };
}
