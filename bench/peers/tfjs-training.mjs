// tfjs set up for training in Node (the training race, bench/race/training/):
// the tfjs of loadPeers() (tfjs-core on the wasm backend, one thread: node.mjs)
// with the gradient functions that training needs. tfjs-core's Node bundle
// registers none; the union package @tensorflow/tfjs does, into tfjs-core's
// global registry, when it is imported (as a training user of tfjs imports it).
import '@tensorflow/tfjs';
import { loadPeers } from './node.mjs';

export async function loadTfjsForTraining() {
  const { tf } = await loadPeers();
  return tf;
}
