// The .wasm modules carried inline, for the single-file page (dist/attention.html,
// opened from disk, where nothing can be fetched). null everywhere else: the
// single-file build (vite.single.config.js, web/vite-plugins/single-file.js)
// replaces this module with every module's bytes in base64, under the keys of
// createAttention's wasmBinary ({ simd, baseline, backwardSimd, ... }:
// MODULE_KEYS of ./load-build.js).
export default null;
