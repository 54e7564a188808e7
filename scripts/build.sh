#!/usr/bin/env bash
# npm run build: the static site in dist/ (wasm builds first).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/build-wasm.sh
node_modules/.bin/vite build
