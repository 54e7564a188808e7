#!/usr/bin/env bash
# npm run test:e2e: the built site in headless Chromium. Builds the wasm
# builds, the site (scripts/build-web.sh: dist/) and the test page
# web/minimal.html (build/minimal/, never in dist/); measures what one embedded
# section downloads (budget 150 KB gzipped); runs the end-to-end tests
# (tests/e2e/, fixtures served from tests/e2e/fixtures/, never copied into
# dist/) and the npm package test; last, checks that dist/ holds only what a
# site needs. Prints its wall time.
#   npm run test:e2e -- tests/e2e/sections.test.mjs ...   the same builds, then only
#                       those test files (no size budget, no package test)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/layer.sh
layer test:e2e

bash scripts/build-wasm.sh
bash scripts/build-web.sh
echo "== vite build: the minimal test page (build/minimal/)"
node_modules/.bin/vite build --logLevel warn -c vite.minimal.config.js
if [ $# -gt 0 ]; then
  echo "== end-to-end tests (headless Chromium): $*"
  node --test --test-concurrency=1 "$@"
else
  echo "== size of one embedded section, measured in headless Chromium (budget 150 KB gzipped)"
  node scripts/size-report.mjs
  echo "== end-to-end tests (headless Chromium) and the npm package (npm pack, offline install)"
  node --test --test-concurrency=1 tests/e2e/ tests/package/pack.test.mjs
fi
echo "== dist/ holds only the site"
node --test tests/package/dist-contents.test.mjs
