// A Node module hook for the end-to-end tests that read the sections' codecs
// (web/src/sections/<id>/params.js) in Node: some import a component that
// imports its CSS (for Vite), which Node cannot load. A .css import becomes an
// empty module. Registered with module.register(new URL('./css-imports.mjs', import.meta.url)).
export async function load(url, context, nextLoad) {
  if (url.endsWith('.css') || url.includes('.css?')) return { format: 'module', source: '', shortCircuit: true };
  return nextLoad(url, context);
}
