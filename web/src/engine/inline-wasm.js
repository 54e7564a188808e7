// The .wasm builds carried inline, for the single-file page (dist/attention.html,
// opened from disk, where nothing can be fetched). null everywhere else: the
// single-file build (vite.single.config.js, web/vite-plugins/single-file.js)
// replaces this module with { simd: '<base64>', baseline: '<base64>' }.
export default null;
