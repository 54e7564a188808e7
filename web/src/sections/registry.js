// Every section, in reading order: the walkthrough's (DESIGN.md, "The
// walkthrough"), then the second page's ("How attention learns", issue 23).
// Each page mounts its own in this order and builds its table of contents
// from them (./pages.js).
//
// `page`: 'learns' for a section of the second page (learns.html); absent: the
// walkthrough (index.html). Each page numbers its sections from 1.
//
// To add a section: create src/sections/<id>/index.js (default export
// { mount(root, ctx) }), its text in src/i18n/en/<id>.js and src/i18n/ko/<id>.js,
// and add its line below.
//
// `params`: the names of the section's inputs in links and widget attributes,
// the same as its codec's (src/sections/<id>/params.js, exported by the section
// as `params`; a test checks they agree). Listed here so that <attention-demo>
// can observe them without loading every section.
//
// `heights`: the section's height in px at a width of 375, 768 and 1280 px
// (measured, the mean of Korean and English; tests/e2e/reader-speed.test.mjs
// checks them). The page reserves about that much for a section before it is
// built or while the browser skips it off screen, so the scrollbar does not
// jump as the reader scrolls (sections run from 2,000 to 8,200 px).
//
// `widgetBuild`: the engine build an <attention-demo> of this section loads
// (default: SIMD where supported). Section 2's experiment workers use the build
// without SIMD (see scaling/experiment-service.js), so its widget's main thread
// uses that one too and the widget downloads one .wasm, not two. The page
// itself always loads the default build.
//
// `learning`: the section trains or differentiates, so it gets the engine of
// a learning module, on the page and in a widget: 'basic' for the backward
// pass and model 'attention' only (createAttention({ learning: 'basic' }),
// the smaller module), true for the engine's other models. Its training
// workers load the module of the model they train, the same one, so a widget
// of it downloads one .wasm (web/src/training/training-service.js).
export const sections = [
  { id: 'worked-example', load: () => import('./worked-example/index.js'), params: ['q', 'keys', 'values', 'scaling', 'convention'], heights: [3860, 2670, 2480] },
  { id: 'scaling', load: () => import('./scaling/index.js'), widgetBuild: 'baseline', params: ['dk', 'seed', 'trials-dk', 'trials', 'trials-seed', 'sweep-trials', 'sweep-seed'], heights: [7780, 5090, 4950] },
  { id: 'gradients', load: () => import('./gradients/index.js'), learning: 'basic', params: ['seed', 'dk', 'row', 'train-dk', 'train-seed', 'steps'], heights: [8160, 5100, 5050] },
  { id: 'reading-weights', load: () => import('./reading-weights/index.js'), params: ['embeddings', 'factor', 'seed', 'token'], heights: [5800, 4580, 3800] },
  { id: 'sentence', load: () => import('./sentence/index.js'), params: ['embeddings'], heights: [3760, 2670, 2270] },
  { id: 'masking', load: () => import('./masking/index.js'), params: ['mask', 'row'], heights: [3070, 2420, 2150] },
  { id: 'multi-head', load: () => import('./multi-head/index.js'), params: ['heads', 'seed'], heights: [3890, 2670, 2430] },
  { id: 'cross-attention', load: () => import('./cross-attention/index.js'), params: ['decoder', 'encoder'], heights: [5510, 3920, 3290] },
  { id: 'family', load: () => import('./family/index.js'), params: ['seed'], heights: [7600, 5100, 4310] },
  { id: 'learning', load: () => import('./learning/index.js'), learning: 'basic', params: ['task', 'seed', 'heads', 'scaling', 'lr'], heights: [5650, 3880, 3700] },
  { id: 'order', load: () => import('./order/index.js'), params: ['perm', 'pe'], heights: [5110, 3230, 3190] },
  { id: 'cost', load: () => import('./cost/index.js'), params: ['n'], heights: [4500, 3210, 3100] },
];

// The height to reserve for `section` at a page `width` (px): its measured
// heights interpolated in 1/width (text reflows into more lines as the page
// narrows), clamped to the widths measured.
export const HEIGHT_WIDTHS = [375, 768, 1280];
export function reservedHeight(section, width) {
  const [w0, w1, w2] = HEIGHT_WIDTHS;
  const [h0, h1, h2] = section.heights;
  const w = Math.min(w2, Math.max(w0, width));
  const along = (a, b, ha, hb) => ha + ((hb - ha) * (1 / w - 1 / a)) / (1 / b - 1 / a);
  return Math.round(w <= w1 ? along(w0, w1, h0, h1) : along(w1, w2, h1, h2));
}
