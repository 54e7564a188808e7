// Colour for the heatmaps: a single-hue ramp from paper white to a deep ink
// (light theme) and from the dark paper to a pale blue (dark theme), and the
// text colour that stays readable (WCAG AA, 4.5:1) on each step. A cell gets
// both as CSS light-dark() pairs, so it follows the page's or widget's scheme
// without JavaScript knowing which one is on.
// Pure functions: unit-tested in Node (contrast of every step).

export const RAMP_LOW = [255, 255, 255];
export const RAMP_HIGH = [23, 37, 84];   // deep ink blue-black
export const INK = [0, 0, 0];             // near-black text for light cells
export const WHITE = [255, 255, 255];

const clamp01 = (t) => (t < 0 ? 0 : t > 1 ? 1 : t);

// sRGB channel -> linear light.
function linear(c) {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance([r, g, b]) {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrast(a, b) {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

// t in [0, 1] (a weight) -> [r, g, b].
export function rampColor(t) {
  const u = clamp01(Number.isFinite(t) ? t : 0);
  return RAMP_LOW.map((lo, i) => Math.round(lo + (RAMP_HIGH[i] - lo) * u));
}

// The better of dark ink and white on `bg`.
export function textColorOn(bg) {
  return contrast(bg, INK) >= contrast(bg, WHITE) ? INK : WHITE;
}

export const css = ([r, g, b]) => `rgb(${r}, ${g}, ${b})`;

// The dark theme's ramp: 0 is the dark paper (--paper in styles/tokens.css),
// 1 is a pale blue (--ramp-high).
export const DARK_RAMP_LOW = [23, 26, 33];
export const DARK_RAMP_HIGH = [199, 215, 254];
export const DARK_DIVERGING_NEGATIVE = [246, 196, 128];

export function rampColorDark(t) {
  const u = clamp01(Number.isFinite(t) ? t : 0);
  return DARK_RAMP_LOW.map((lo, i) => Math.round(lo + (DARK_RAMP_HIGH[i] - lo) * u));
}

export function divergingColorDark(x, maxAbs) {
  const u = clamp01(Math.abs(Number.isFinite(x) ? x : 0) / (maxAbs || 1));
  const end = x < 0 ? DARK_DIVERGING_NEGATIVE : DARK_RAMP_HIGH;
  return DARK_RAMP_LOW.map((lo, i) => Math.round(lo + (end[i] - lo) * u));
}

// { background, color } CSS values for a cell at ramp position t (weights) or
// signed value x of maxAbs (diverging), in both schemes. The result depends only
// on the two integer colours, so it is made once per pair and shared (a redraw
// of the learning section's maps asks for ~600 cells; the contrast test behind
// each text colour is 12 powers): callers must not change it, and may compare
// two results by identity to know the colours are the same.
const colorsOfPair = new Map();
const packed = ([r, g, b]) => (r << 16) | (g << 8) | b;
export function cellColors(value, { diverging = false, maxAbs = 1 } = {}) {
  const light = diverging ? divergingColor(value, maxAbs) : rampColor(value);
  const dark = diverging ? divergingColorDark(value, maxAbs) : rampColorDark(value);
  const key = packed(light) * 2 ** 24 + packed(dark);
  let colors = colorsOfPair.get(key);
  if (!colors) {
    colors = Object.freeze({
      light, dark,
      background: `light-dark(${css(light)}, ${css(dark)})`,
      color: `light-dark(${css(textColorOn(light))}, ${css(textColorOn(dark))})`,
    });
    colorsOfPair.set(key, colors);
  }
  return colors;
}

// Signed values (matrices such as W_O): white at 0, ink for positive, a warm
// brown for negative, saturating at |x| = maxAbs.
export const DIVERGING_NEGATIVE = [140, 81, 10];
export function divergingColor(x, maxAbs) {
  const u = clamp01(Math.abs(Number.isFinite(x) ? x : 0) / (maxAbs || 1));
  const end = x < 0 ? DIVERGING_NEGATIVE : RAMP_HIGH;
  return RAMP_LOW.map((lo, i) => Math.round(lo + (end[i] - lo) * u));
}
