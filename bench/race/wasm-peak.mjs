// The f32x4 mul+add peak as a race contender (f32x4-peak.wat, compiled to
// build/bench/f32x4-peak.wasm by scripts/bench.sh): a call runs a fixed number
// of iterations of 96 flops each, so its GFLOP/s is the peak in the same
// rounds as the workload it runs beside.
export const PEAK_FLOPS_PER_ITERATION = 12 * 4 * 2;  // chains x lanes x (mul + add)

// bytes: the .wasm (ArrayBuffer or typed array); iterations per call (default:
// about 10 ms at 50 GFLOP/s).
export async function wasmPeakContender(bytes, { iterations = 5_000_000 } = {}) {
  const { instance } = await WebAssembly.instantiate(bytes);
  const { mulAdd } = instance.exports;
  const a = Math.fround(0.999), b = Math.fround(0.001);  // x converges to b / (1 - a) = 1
  return {
    name: 'wasm-peak',
    role: 'peak',
    label: 'wasm f32x4 mul+add peak, 12 chains (f32x4-peak.wat)',
    flopsPerCall: PEAK_FLOPS_PER_ITERATION * iterations,
    call: () => mulAdd(iterations, a, b),
  };
}
