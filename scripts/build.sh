#!/usr/bin/env bash
# npm run build: everything in dist/ (wasm builds first, then scripts/build-web.sh):
#   dist/index.html, learns.html + assets/   the two pages (the walkthrough, How attention learns)
#   dist/embed/                 the embed script, the iframe route and their lazy assets
#   dist/attention.html         both pages in one file (opens from disk; ?page=learns)
#   dist/engine/                the engine API files of the npm package
# (npm run size then measures what one embedded section downloads.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/build-wasm.sh
bash scripts/build-web.sh
