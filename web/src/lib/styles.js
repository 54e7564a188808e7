// Constructable stylesheets shared by the page and the embedded widgets.
//
// The components' and sections' CSS arrives here as text (the Vite plugin
// web/vite-plugins/adopted-styles.js rewrites their `import './x.css'`), is
// parsed once into a CSSStyleSheet, and is adopted by every registered root:
// `document` on the page, each widget's shadow root in an embed. A sheet
// registered later (a section loaded lazily) is added to every root, after
// the sheets already there.
const sheets = new Map();   // key -> CSSStyleSheet, in registration order
const roots = new Set();

const canAdopt = () => typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype;

// One CSSStyleSheet per text, parsed once.
export function sheetOf(cssText) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(cssText);
  return sheet;
}

export function registerStyles(cssText, key = cssText) {
  if (!canAdopt() || sheets.has(key)) return;
  const sheet = sheetOf(cssText);
  sheets.set(key, sheet);
  for (const root of roots) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

// Makes `root` (document or a ShadowRoot) use every registered sheet, now and
// later, after its own `base` sheets (a widget's tokens and base styles).
export function adoptStylesInto(root, base = []) {
  if (!canAdopt()) return;
  roots.add(root);
  root.adoptedStyleSheets = [...base, ...sheets.values()];
}

// A widget that is gone stops receiving sheets.
export function releaseStyles(root) {
  roots.delete(root);
}
