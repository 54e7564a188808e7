// The wasm race in the browser: the same contenders and race as in Node
// (scripts/bench-wasm.mjs), each peer set up in its best one-thread browser form:
//   tfjs 4.22: backend 'wasm', WASM_HAS_MULTITHREAD_SUPPORT false (the page is
//     cross-origin isolated for a fine timer, which would otherwise let tfjs
//     start its threaded binary), SIMD as detected;
//   onnxruntime-web 1.30: env.wasm.numThreads = 1.
// Every file comes from the bench server (scripts/bench-browser.mjs); the ONNX
// model bytes are built there (onnx-proto is a Node package) and fetched.
// Sets window.benchResult (or window.benchError) when done.
import { createTestingEngine } from '/web/src/engine/testing.js';
import * as ort from '/bench/peers/node_modules/onnxruntime-web/dist/ort.wasm.min.mjs';
import { projectContenders } from '../attention/project.mjs';
import { tfjsContender } from '../attention/tfjs.mjs';
import { ortContenders } from '../attention/onnxruntime.mjs';
import { runAttentionRace } from '../attention/race.mjs';
import { wasmPeakContender } from '../wasm-peak.mjs';

const params = new URLSearchParams(location.search);
const list = (text) => (text ? text.split(',').filter(Boolean).map(Number) : []);
const logElement = document.getElementById('log');
const log = (line) => {
  console.log(line);
  logElement.textContent += `${line}\n`;
};

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function main() {
  const tf = globalThis.tf;
  tf.wasm.setWasmPaths('/bench/peers/node_modules/@tensorflow/tfjs-backend-wasm/dist/');
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend failed to start');
  await tf.ready();
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = '/bench/peers/node_modules/onnxruntime-web/dist/';

  const [simd, baseline] = await Promise.all([createTestingEngine({ build: 'simd' }), createTestingEngine({ build: 'baseline' })]);
  const peak = await wasmPeakContender(await fetchBytes('/build/bench/f32x4-peak.wasm'));
  const modelBytes = (form, n, m, d) => fetchBytes(`/onnx-model?form=${form}&n=${n}&m=${m}&d=${d}`);
  const contenders = [...projectContenders({ simd, baseline }), tfjsContender(tf), ...ortContenders(ort, { modelBytes })];
  const result = await runAttentionRace({
    contenders, peak, engine: simd, sizes: list(params.get('sizes')), aloneSizes: list(params.get('alone')), log,
  });
  result.contenders = Object.fromEntries([...contenders, peak].map((c) => [c.name, c.label]));
  result.environment = navigator.userAgent.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent;
  result.crossOriginIsolated = globalThis.crossOriginIsolated;
  window.benchResult = result;
}

main().catch((error) => {
  log(`FAILED: ${error?.stack ?? error}`);
  window.benchError = String(error?.message ?? error);
});
