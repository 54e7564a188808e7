#!/usr/bin/env bash
# npm run bench: native and wasm attention benchmarks side by side, d = 64,
# n = m = 64, 256, 1024, 4096. A command, not a test: prints one table.
#   1. builds native (Release) and both wasm builds (incremental)
#   2. build/native/bin/attn_bench  -> build/bench/native.json (Google Benchmark JSON)
#   3. scripts/bench-wasm.mjs       -> build/bench/wasm.json   (SIMD + baseline builds, plain JS, in Node)
#   4. scripts/bench-report.mjs     -> the table: ms, GFLOP/s, speed-ups, peak memory, targets
# The two runs are sequential so that they do not compete for the cores.
# Environment: ATTN_BENCH_SIZES (default 64,256,1024,4096) for the wasm run.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-deps.sh
echo "== building (native, wasm)" >&2
bash scripts/build-native.sh >/dev/null
bash scripts/build-wasm.sh >/dev/null

mkdir -p build/bench
echo "== native benchmark (build/native/bin/attn_bench; the reference at n=4096 takes a while)" >&2
build/native/bin/attn_bench --benchmark_format=json --benchmark_out_format=json \
  --benchmark_out=build/bench/native.json >/dev/null

echo "== wasm benchmark in Node (scripts/bench-wasm.mjs)" >&2
node scripts/bench-wasm.mjs --sizes "${ATTN_BENCH_SIZES:-64,256,1024,4096}" --json build/bench/wasm.json

echo >&2
node scripts/bench-report.mjs build/bench/native.json build/bench/wasm.json
