// Loads the peers in Node 20 from bench/peers/node_modules (installed by
// scripts/bench.sh only), each set up in its best single-thread form:
//   tfjs-core + tfjs-backend-wasm 4.22: backend 'wasm'; the .wasm files from this
//     folder (setWasmPaths; nothing fetched); WASM_HAS_MULTITHREAD_SUPPORT false
//     (one thread; 4.22 never uses threads in Node anyway); SIMD as detected
//     (WASM_HAS_SIMD_SUPPORT: true in Node 20, so tfjs-backend-wasm-simd.wasm).
//   onnxruntime-web 1.30: env.wasm.numThreads = 1, env.wasm.wasmPaths = its dist
//     folder (it ships only the SIMD binary, ort-wasm-simd-threaded.wasm).
// Returns { tf, ort, modelBytes } (modelBytes: see onnx-attention-model.mjs).
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import * as tfWasm from '@tensorflow/tfjs-backend-wasm';
import * as ort from 'onnxruntime-web';
import { attentionModelBytes } from './onnx-attention-model.mjs';

const folder = (path) => fileURLToPath(new URL(path, import.meta.url));

export async function loadPeers() {
  tfWasm.setWasmPaths(folder('./node_modules/@tensorflow/tfjs-backend-wasm/dist/'));
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend failed to start');
  await tf.ready();

  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = folder('./node_modules/onnxruntime-web/dist/');

  return { tf, ort, modelBytes: async (form, n, m, d) => attentionModelBytes(form, n, m, d) };
}
