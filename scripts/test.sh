#!/usr/bin/env bash
# npm test (and CI, .ci/run): every layer in order, each printing its wall time,
# then the total. Exits non-zero on the first failure.
#   npm run test:native   C++ build (no benchmarks) and CTest
#   npm run test:js       wasm builds, Vitest against the real .wasm, tsc over the declarations
#   npm run test:e2e      web builds, size budget, headless Chromium, the npm package, dist/ contents
set -euo pipefail
cd "$(dirname "$0")/.."

start=$(date +%s.%N)
bash scripts/ensure-deps.sh
export ATTN_DEPS_CHECKED=1
bash scripts/test-native.sh
bash scripts/test-js.sh
bash scripts/test-e2e.sh
echo "== npm test passed in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s ($(cut -d' ' -f1-3 /proc/loadavg) load average)"
