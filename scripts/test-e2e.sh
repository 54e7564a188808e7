#!/usr/bin/env bash
# npm run test:e2e: the built site in headless Chromium. Builds the wasm
# builds, the site (scripts/build-web.sh: dist/) and the test page
# web/minimal.html (build/minimal/, never in dist/); measures what one embedded
# section downloads (budget 150 KB gzipped with its engine module); runs the end-to-end tests
# (tests/e2e/, fixtures served from tests/e2e/fixtures/, never copied into
# dist/) and the npm package test; last, checks that dist/ holds only what a
# site needs. Prints the wall time of each part and of the layer. The test
# files run three at a time (ATTN_E2E_JOBS), each in its own Chromium: a file
# spends much of its time waiting on frames, workers and timers (tests/e2e/
# took 497 s one file at a time, 303 s two at a time, on a loaded 2-core
# machine; on a quiet one, 2026-12-05, 215 s two at a time with the cores idle
# 11% of it, 176-181 s three at a time with them idle 1-3%, 180 s four at a time;
# one Chromium for all the files, a context each, saves the launches, ~1.7 s of
# CPU each, yet the three largest files took 116 s in it against 105 s in
# their own, 2026-12-06). The size report runs beside them.
# (The soaks, the screenshot matrix and the repeated speed runs, which measure
# one thing at a time: npm run test:stress.)
#   npm run test:e2e -- tests/e2e/sections.test.mjs ...   the same builds, then only
#                       those test files (no size budget, no package test)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/layer.sh
layer test:e2e

builds() {
  bash scripts/build-wasm.sh
  bash scripts/build-web.sh
  echo "== vite build: the minimal test page (build/minimal/)"
  node_modules/.bin/vite build --logLevel warn -c vite.minimal.config.js
}
timed "the builds" builds
if [ $# -gt 0 ]; then
  timed "end-to-end tests (headless Chromium): $*" node --test --test-concurrency="${ATTN_E2E_JOBS:-3}" "$@"
else
  # The size report counts bytes, not time: it runs beside the tests (its
  # ~15 s, a third of it waiting) and prints when they are done, passed or not.
  size_report=$(mktemp)
  timed "size of one embedded section and of each module, measured in headless Chromium (budgets in scripts/size-report.mjs)" \
    node scripts/size-report.mjs > "$size_report" 2>&1 &
  size_pid=$!
  tests_status=0
  timed "end-to-end tests (headless Chromium) and the npm package (npm pack, offline install)" \
    node --test --test-concurrency="${ATTN_E2E_JOBS:-3}" tests/e2e/ tests/package/pack.test.mjs || tests_status=$?
  size_status=0
  wait "$size_pid" || size_status=$?
  cat "$size_report"
  rm -f "$size_report"
  [ "$tests_status" -eq 0 ] || exit "$tests_status"
  [ "$size_status" -eq 0 ] || exit "$size_status"
fi
timed "dist/ holds only the site" node --test tests/package/dist-contents.test.mjs
