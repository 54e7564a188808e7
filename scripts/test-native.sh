#!/usr/bin/env bash
# npm run test:native: the C++ core natively. Builds the library and the
# GoogleTest suite (no benchmarks: npm run bench builds those) in build/native,
# then runs CTest (GoogleTest, and a consumer project built against the
# installed CMake package). Prints its wall time.
#   npm run test:native -- -R Tiled   the same, CTest only on the tests these
#                       CTest options choose (-R regex, -E exclude, ...)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/layer.sh
layer test:native

bash scripts/build-native.sh --no-bench
ctest --test-dir build/native --output-on-failure -j"${ATTN_JOBS:-2}" "$@"
