#!/usr/bin/env bash
# Runs every libFuzzer target of tests/fuzz (built in build/sanitize) for
# $1 seconds each, ATTN_JOBS (default 2) at a time, over the committed seed
# corpus tests/fuzz/corpus/<target>/ (read only) and the grown corpus
# build/fuzz-corpus/<target>/ (not committed: new inputs go there). A crash
# goes to build/fuzz-findings/<target>/ and fails the run. Prints, per target,
# the executions, libFuzzer's coverage (cov: edges, ft: features) and the
# corpus size, then the totals.
#   bash scripts/lib/fuzz-targets.sh 60
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=$1
jobs=${ATTN_JOBS:-2}
targets=$(sed -n '/^set(ATTN_FUZZ_TARGETS$/,/)/p' tests/fuzz/CMakeLists.txt | tr -d '()' | sed '1d')
mkdir -p build/fuzz-logs

run_target() {
  local target=$1 seconds=$2
  mkdir -p "build/fuzz-corpus/$target" "build/fuzz-findings/$target"
  # -timeout: one input taking 20 s is a hang; -rss_limit_mb: a size check missing shows as memory
  build/sanitize/bin/"fuzz_$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="build/fuzz-findings/$target/" \
    "build/fuzz-corpus/$target" "tests/fuzz/corpus/$target" >"build/fuzz-logs/$target.log" 2>&1
}
export -f run_target

echo "== fuzzing $(echo $targets | wc -w) targets for ${seconds} s each, $jobs at a time (build/fuzz-logs/)"
status=0
printf '%s\n' $targets | xargs -P "$jobs" -I{} bash -c 'run_target {} '"$seconds"' || echo "FAILED {}"' \
  > build/fuzz-logs/failures.txt || true

total_runs=0
printf '%-22s %12s %8s %8s %8s %8s\n' target executions exec/s cov ft corpus
for target in $targets; do
  log=build/fuzz-logs/$target.log
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  last=$(grep -E '^#[0-9]+' "$log" | grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' | tail -1)
  cov=$(echo "$last" | awk '{print $2}'); ft=$(echo "$last" | awk '{print $4}'); corp=$(echo "$last" | awk '{print $6}')
  printf '%-22s %12s %8s %8s %8s %8s\n' "$target" "${runs:-0}" "${speed:-0}" "${cov:-?}" "${ft:-?}" "${corp:-?}"
  total_runs=$((total_runs + ${runs:-0}))
  if grep -qx "FAILED $target" build/fuzz-logs/failures.txt || ls "build/fuzz-findings/$target"/crash-* "build/fuzz-findings/$target"/timeout-* "build/fuzz-findings/$target"/oom-* >/dev/null 2>&1; then
    echo "   $target: FINDING (build/fuzz-findings/$target/, log build/fuzz-logs/$target.log):" >&2
    grep -E 'fuzz finding|runtime error|ERROR: (AddressSanitizer|libFuzzer)|what\(\)' "$log" | head -5 >&2 || true
    status=1
  fi
done
echo "== $total_runs executions in all; findings: $( [ $status -eq 0 ] && echo none || echo 'see above')"
exit $status
