// The .wasm modules carried inline, for the single-file page (dist/attention.html,
// opened from disk, where nothing can be fetched). null everywhere else: the
// single-file build (vite.single.config.js, web/vite-plugins/single-file.js)
// replaces this module with { simd, baseline, learningSimd, learningBaseline }
// (base64), the keys of createAttention's wasmBinary.
export default null;
