#!/usr/bin/env bash
# npm test (and CI, .ci/run): every layer in order, each printing its wall time,
# then the total with each layer's time, the CPU time and the load average. Exits non-zero on
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
# The CPU time of everything the run started (user + system; bash's `times`,
# its second line: the children's): the same work costs more of it in a slow
# hour of a shared machine, so it says what kind of hour the wall times are from.
# (`times` into a file: in a pipe or $(...) it would speak for a subshell, which started nothing.)
times_file=$(mktemp)
times > "$times_file"
cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%.0f", t }' "$times_file")
rm -f "$times_file"
echo "== npm test passed in $(seconds_since "$start") s ($summary; $cpu s of CPU; $(cut -d' ' -f1-3 /proc/loadavg) load average)"
