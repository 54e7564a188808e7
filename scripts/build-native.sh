#!/usr/bin/env bash
# Configures and builds the native library, tests and benchmarks in build/native.
#   scripts/build-native.sh              everything (npm run bench)
#   scripts/build-native.sh --no-bench   the library and the tests only (ATTN_BUILD_BENCH=OFF: npm run test:native)
#   scripts/build-native.sh --no-bench --target write_test_vectors   one target (npm run test:js)
set -euo pipefail
cd "$(dirname "$0")/.."

bench=ON
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-bench) bench=OFF ;;
    --target) targets+=(--target "$2"); shift ;;
    *) echo "build-native: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DATTN_BUILD_BENCH=$bench >/dev/null
cmake --build build/native -j"${ATTN_JOBS:-2}" "${targets[@]}"
