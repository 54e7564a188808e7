#!/usr/bin/env bash
# npm run fuzz [-- minutes]: a longer campaign. Every fuzz target of
# tests/fuzz for `minutes` (default 10) each, two at a time (ATTN_JOBS),
# under ASan + UBSan, growing build/fuzz-corpus/<target>/ (not committed; the
# next campaign starts from it). Findings go to build/fuzz-findings/<target>/;
# replay one with build/sanitize/bin/fuzz_<target> <file> (ATTN_FUZZ_VERBOSE=1
# prints the decoded call). To refresh the committed seeds from a grown corpus:
#   build/sanitize/bin/fuzz_<t> -merge=1 tests/fuzz/corpus/<t> build/fuzz-corpus/<t>
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
case "$minutes" in ''|*[!0-9]*) echo "fuzz: expected the minutes per target as a whole number, got '$minutes'" >&2; exit 2 ;; esac
start=$(date +%s)
bash scripts/ensure-deps.sh
bash scripts/build-sanitize.sh
bash scripts/lib/fuzz-targets.sh $((minutes * 60))
echo "== npm run fuzz finished in $(( $(date +%s) - start )) s ($(cut -d' ' -f1-3 /proc/loadavg) load average)"
