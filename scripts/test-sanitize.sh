#!/usr/bin/env bash
# npm run test:sanitize: the native suite and the fuzz targets under
# AddressSanitizer and UndefinedBehaviorSanitizer (Clang 14; any undefined
# behaviour aborts). Builds build/sanitize (scripts/build-sanitize.sh), runs
# CTest there (the GoogleTest suite, whose kernel tests force every kernel
# variant this CPU runs, and each fuzz target over its committed corpus once),
# then every fuzz target for 60 s (ATTN_FUZZ_SECONDS) over its corpus, two at
# a time (ATTN_JOBS). Prints its wall time. Run by .ci/run after npm test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/layer.sh
layer test:sanitize

bash scripts/build-sanitize.sh
echo "== CTest under ASan + UBSan"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/sanitize --output-on-failure -j"${ATTN_JOBS:-2}"
bash scripts/lib/fuzz-targets.sh "${ATTN_FUZZ_SECONDS:-60}"
