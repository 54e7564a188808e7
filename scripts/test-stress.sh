#!/usr/bin/env bash
# npm run test:stress: what is there to push the page hard or long rather than
# to check it once (npm test does that): the soaks of 1,000 changes, the
# screenshot matrix (widths x languages x colour schemes, for a person to look
# at) and the speed runs repeated for their medians. Builds the wasm builds
# and the site (scripts/build.sh), then runs
# tests/stress/ in headless Chromium. CI (.ci/run) runs it after npm test and
# npm run test:sanitize. Prints its wall time.
#   npm run test:stress -- tests/stress/soak.test.mjs ...   the same builds, then only those files
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/layer.sh
layer test:stress

timed "the builds (scripts/build.sh)" bash scripts/build.sh
timed "stress tests (headless Chromium): ${*:-tests/stress/}" node --test --test-concurrency=1 "${@:-tests/stress/}"
