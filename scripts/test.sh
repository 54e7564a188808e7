#!/usr/bin/env bash
# npm test: installs what is missing, builds native and wasm, runs CTest, Vitest,
# the web builds (scripts/build-web.sh), the end-to-end tests in headless
# Chromium and the npm package test. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-deps.sh

echo "== native build and CTest"
bash scripts/build-native.sh
ctest --test-dir build/native --output-on-failure -j"$(nproc)"
# Shared test vectors, written by the native build, checked by Vitest against wasm.
build/native/bin/write_test_vectors build/test-vectors/vectors.json

echo "== wasm builds and Vitest"
bash scripts/build-wasm.sh
node_modules/.bin/vitest run

echo "== web builds (site, embed, single file, engine package files)"
bash scripts/build-web.sh
echo "== size of one embedded section, measured in headless Chromium (budget 150 KB gzipped)"
node scripts/size-report.mjs

echo "== end-to-end tests (headless Chromium) and the npm package (npm pack, offline install)"
node --test --test-concurrency=1 tests/e2e/ tests/package/
