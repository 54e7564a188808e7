#!/usr/bin/env bash
# Builds the two WebAssembly builds of the attention core with Emscripten and
# copies them to web/src/engine/wasm/, each as two modules (cpp/bindings/CMakeLists.txt:
# the attention module and the learning module, which adds the backward pass and
# the trainer):
#   build/wasm-simd      -> attention-simd.mjs / .wasm, attention-learning-simd.*          (SIMD128, ATTN_WASM_SIMD=ON)
#   build/wasm-baseline  -> attention-baseline.mjs / .wasm, attention-learning-baseline.*  (no SIMD, ATTN_WASM_SIMD=OFF)
# The two builds run at the same time, each with half of ATTN_JOBS (default 2)
# compile jobs; their logs are printed when both are done. Incremental: CMake
# rebuilds only what changed. Then checks with wasm-objdump that the SIMD build
# has f32x4 instructions and the baseline has none.
set -euo pipefail
cd "$(dirname "$0")/.."

out=web/src/engine/wasm
jobs=$(( (${ATTN_JOBS:-2} + 1) / 2 ))
mkdir -p "$out"

# (Debian's Emscripten needs NODE_PATH for its link step: cpp/bindings/CMakeLists.txt sets it.)

# One variant: configure if needed, build, copy the outputs.
build_variant() {
  local variant=$1 dir=build/wasm-$1 simd=OFF
  [ "$variant" = simd ] && simd=ON
  if [ ! -f "$dir/CMakeCache.txt" ] || ! grep -q "^ATTN_WASM_SIMD:BOOL=$simd$" "$dir/CMakeCache.txt"; then
    echo "== configuring $dir (ATTN_WASM_SIMD=$simd)"
    emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DATTN_WASM_SIMD=$simd >/dev/null
  fi
  echo "== building $dir"
  # One target per call: the first regenerates the build files if a CMakeLists.txt changed.
  for target in attention_wasm attention_learning_wasm; do
    cmake --build "$dir" --target "$target" -j"$jobs"
  done
  for name in attention-$variant attention-learning-$variant; do
    for ext in mjs wasm; do
      local src=$dir/bin/$name.$ext
      # Copy only when different, so Vite and Vitest do not see a change for nothing.
      cmp -s "$src" "$out/$name.$ext" || cp "$src" "$out/$name.$ext"
    done
  done
}

mkdir -p build
pids=()
for variant in simd baseline; do
  build_variant "$variant" > "build/wasm-$variant.log" 2>&1 &
  pids+=($!)
done
failed=0
for i in 0 1; do
  variant=$([ "$i" = 0 ] && echo simd || echo baseline)
  status=0
  wait "${pids[$i]}" || status=$?
  cat "build/wasm-$variant.log"
  if [ "$status" -ne 0 ]; then
    echo "build-wasm: the $variant build failed (build/wasm-$variant.log)" >&2
    failed=1
  fi
done
[ "$failed" -eq 0 ] || exit 1

# The SIMD build must really contain SIMD128 arithmetic; the baseline none.
count_f32x4() { wasm-objdump -d "$1" | grep -c 'f32x4\.' || true; }
for module in attention attention-learning; do
  simd_ops=$(count_f32x4 "$out/$module-simd.wasm")
  baseline_ops=$(count_f32x4 "$out/$module-baseline.wasm")
  echo "== f32x4 instructions ($module): simd build $simd_ops, baseline build $baseline_ops"
  if [ "$simd_ops" -eq 0 ] || [ "$baseline_ops" -ne 0 ]; then
    echo "build-wasm: expected f32x4 instructions in the SIMD build only ($module)" >&2
    exit 1
  fi
done
ls -l "$out"/attention-*.{mjs,wasm} | awk '{ printf "   %9d  %s\n", $5, $NF }'
