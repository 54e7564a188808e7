#!/usr/bin/env bash
# Builds the WebAssembly modules of the attention core with Emscripten, all
# six from one build tree (build/wasm; cpp/bindings/CMakeLists.txt), and copies
# them to web/src/engine/wasm/, for each build (simd: SIMD128 kernels; baseline: none):
#   attention-<build>           the forward functions
#   attention-backward-<build>  + the backward pass and the one-layer 'attention' model
#   attention-learning-<build>  + the model engine (rnn ... decoder)
# Everything but the kernels is compiled once and shared by the six (before,
# one tree per variant compiled it twice: a clean build took ~95 s here, now
# ~60 s). Incremental: CMake rebuilds only what changed. Then checks with
# wasm-objdump that the SIMD modules have f32x4 instructions and the baseline
# ones none.
set -euo pipefail
cd "$(dirname "$0")/.."

out=web/src/engine/wasm
dir=build/wasm
mkdir -p "$out"

# (Debian's Emscripten needs NODE_PATH for its link step: cpp/bindings/CMakeLists.txt sets it.)
if [ ! -f "$dir/CMakeCache.txt" ]; then
  echo "== configuring $dir"
  emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
echo "== building $dir"
# The tree's default target is the six modules: one goal, so that make links
# them side by side (named targets are built one after the other).
cmake --build "$dir" -j"${ATTN_JOBS:-2}"

for variant in simd baseline; do
  for name in attention-$variant attention-backward-$variant attention-learning-$variant; do
    for ext in mjs wasm; do
      src=$dir/bin/$name.$ext
      # Copy only when different, so Vite and Vitest do not see a change for nothing.
      cmp -s "$src" "$out/$name.$ext" || cp "$src" "$out/$name.$ext"
    done
  done
done

# The SIMD modules must really contain SIMD128 arithmetic; the baseline none.
count_f32x4() { wasm-objdump -d "$1" | grep -c 'f32x4\.' || true; }
for module in attention attention-backward attention-learning; do
  simd_ops=$(count_f32x4 "$out/$module-simd.wasm")
  baseline_ops=$(count_f32x4 "$out/$module-baseline.wasm")
  echo "== f32x4 instructions ($module): simd build $simd_ops, baseline build $baseline_ops"
  if [ "$simd_ops" -eq 0 ] || [ "$baseline_ops" -ne 0 ]; then
    echo "build-wasm: expected f32x4 instructions in the SIMD build only ($module)" >&2
    exit 1
  fi
done
ls -l "$out"/attention-*.{mjs,wasm} | awk '{ printf "   %9d  %s\n", $5, $NF }'
