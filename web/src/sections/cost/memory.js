// Memory of attention by shape, in bytes (float32 = 4 bytes): what the full
// path holds against the tiled one. Computed from the shapes, not measured.
//
// - full score matrix: the one n x m matrix of the full path (scores, scaled in
//   place, then weights);
// - full trace: what attention() returns for the walkthrough — scores, scaled,
//   masked, exps and weights (five n x m matrices), the row shifts and sums
//   (two n-vectors) and the n x d_v output;
// - tiled path: the block of B_r queries (transposed, d_k x B_r), one B_c x B_r
//   block of scores, the B_r x d_v block of output rows being accumulated, four
//   numbers per row (running max and sum, correction, the block's max), and the
//   n x d_v output (cpp/src/attention/tiled.cpp, BlockScratch). B_r is padded
//   to a multiple of the build's lanes. The block sizes and the lanes are the
//   engine's own (tilesOf: engine.tileSizes, the kernel variant's, and
//   engine.simdWidth). Each block also starts on a 64-byte boundary: at most
//   448 bytes more.
// Q, K and V themselves (3 n d floats) are the same for every path and left out.

export const FLOAT_BYTES = 4;

// The tiled path's blocks in `engine`'s build: { queries: B_r, keys: B_c, lanes }.
export const tilesOf = (engine) => ({ ...engine.tileSizes, lanes: engine.simdWidth });

export function memoryOf(n, d, { m = n, tiles }) {
  const br = Math.ceil(Math.min(tiles.queries, n) / tiles.lanes) * tiles.lanes;
  const bc = Math.min(tiles.keys, m);
  return {
    n, d,
    scoreMatrix: n * m * FLOAT_BYTES,
    trace: (5 * n * m + 2 * n + n * d) * FLOAT_BYTES,
    tiled: (d * br + bc * br + br * d + 4 * br + n * d) * FLOAT_BYTES,
    inputs: 3 * n * d * FLOAT_BYTES,
  };
}

// 1536 -> "1.5 KiB", 67108864 -> "64 MiB".
export function formatBytes(bytes) {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit += 1; }
  const digits = unit === 0 || value >= 100 || Number.isInteger(value) ? 0 : 1;
  return `${value.toFixed(digits)}\u00a0${units[unit]}`;   // a no-break space: "1.0 MiB" stays on one line
}
