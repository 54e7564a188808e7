#!/usr/bin/env bash
# npm test (and CI, .ci/run): every layer in order, each printing its wall time,
# then the total with each layer's time and the load average. Exits non-zero on
# the first failure.
#   npm run test:native   C++ build (no benchmarks) and CTest
#   npm run test:js       wasm builds, Vitest against the real .wasm, tsc over the declarations
#   npm run test:e2e      web builds, size budget, headless Chromium, the npm package, dist/ contents
# (npm run test:stress: the soaks, the screenshot matrix, the repeated speed runs; not here.)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/layer.sh

start=$(date +%s.%N)
bash scripts/ensure-deps.sh
export ATTN_DEPS_CHECKED=1
times=()
for name in native js e2e; do
  t0=$(date +%s.%N)
  bash "scripts/test-$name.sh"
  times+=("test:$name $(seconds_since "$t0") s")
done
summary=$(printf '%s, ' "${times[@]}")
summary=${summary%, }
echo "== npm test passed in $(seconds_since "$start") s ($summary; $(cut -d' ' -f1-3 /proc/loadavg) load average)"
