// The minimal page: loads the engine (SIMD build where supported) and shows
// article 001's worked example and which build computed it. The end-to-end test
// (tests/e2e/minimal.test.mjs) reads these numbers under the site's CSP.
import { createAttention } from './engine/index.js';

const $ = (id) => document.getElementById(id);

async function show() {
  const engine = await createAttention();
  const { weights, output } = engine.attention({
    q: new Float32Array([1, 0]),
    k: new Float32Array([1, 0, 0, 1, 1, 1]),
    v: new Float32Array([2, 0, 0, 2, 1, 1]),
    n: 1, m: 3, dk: 2, dv: 2,
  });
  $('build').textContent = engine.simd ? 'simd (WebAssembly SIMD128)' : 'baseline (no SIMD)';
  $('weights').replaceChildren(...Array.from(weights, (w) => {
    const cell = document.createElement('td');
    cell.textContent = w.toFixed(3);
    cell.title = String(w);
    return cell;
  }));
  output.forEach((value, i) => {
    $(`output-${i}`).textContent = value.toFixed(3);
    $(`output-${i}`).title = String(value);
  });
  $('result').hidden = false;
  $('status').textContent = 'Computed.';
  $('status').dataset.state = 'ready';
}

show().catch((error) => {
  $('status').textContent = `The engine failed to load: ${error.message}`;
  $('status').dataset.state = 'error';
  console.error(error);
});
