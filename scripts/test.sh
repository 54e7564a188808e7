#!/usr/bin/env bash
# npm test (and CI, .ci/run): every layer in order, each printing its wall time,
# then the total with each layer's time, the machine's CPU time and the load average. Exits non-zero on
# the first failure.
#   npm run test:native   C++ build (no benchmarks) and CTest
#   npm run test:js       wasm builds, Vitest against the real .wasm, tsc over the declarations
#   npm run test:e2e      web builds, size budget, headless Chromium, the npm package, dist/ contents
# (npm run test:stress: the soaks, the screenshot matrix, the repeated speed runs; not here.)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/layer.sh

start=$(date +%s.%N)
# The machine's busy CPU time (all processes, /proc/stat: user, nice, system,
# irq, softirq) over the run: the same work costs more of it in a slow hour of
# a shared machine, so it tells what kind of hour the wall times are from.
# (Bash's `times` misses Chromium's renderers, which are not our children.)
busy_seconds() { awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.0f", ($2 + $3 + $4 + $7 + $8) / hz }' /proc/stat; }
busy_start=$(busy_seconds)
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
echo "== npm test passed in $(seconds_since "$start") s ($summary; $(( $(busy_seconds) - busy_start )) s of the machine's CPU; $(cut -d' ' -f1-3 /proc/loadavg) load average)"
