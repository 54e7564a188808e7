// The walkthrough, in reading order (DESIGN.md, "The walkthrough"). The page
// mounts these in order; the table of contents is built from this list.
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
// `widgetBuild`: the engine build an <attention-demo> of this section loads
// (default: SIMD where supported). Section 2's experiment workers use the build
// without SIMD (see scaling/experiment-worker.js), so its widget's main thread
// uses that one too and the widget downloads one .wasm, not two. The page
// itself always loads the default build.
export const sections = [
  { id: 'worked-example', load: () => import('./worked-example/index.js'), params: ['q', 'keys', 'values', 'scaling'] },
  { id: 'scaling', load: () => import('./scaling/index.js'), widgetBuild: 'baseline', params: ['dk', 'seed', 'trials-dk', 'trials', 'trials-seed', 'sweep-trials', 'sweep-seed'] },
  { id: 'reading-weights', load: () => import('./reading-weights/index.js'), params: ['embeddings', 'factor', 'seed', 'token'] },
  { id: 'sentence', load: () => import('./sentence/index.js'), params: ['embeddings'] },
  { id: 'masking', load: () => import('./masking/index.js'), params: ['mask', 'row'] },
  { id: 'multi-head', load: () => import('./multi-head/index.js'), params: ['heads', 'seed'] },
  { id: 'cross-attention', load: () => import('./cross-attention/index.js'), params: ['decoder', 'encoder'] },
  { id: 'family', load: () => import('./family/index.js'), params: ['seed'] },
  { id: 'order', load: () => import('./order/index.js'), params: ['perm', 'pe'] },
  { id: 'cost', load: () => import('./cost/index.js'), params: ['n'] },
];
