#!/usr/bin/env bash
# The web builds, after the wasm builds (scripts/build-wasm.sh):
#   1. vite.config.js         dist/            the two pages (index.html, learns.html)
#   2. vite.embed.config.js   dist/embed/      attention-embed.js, embed.html, lazy assets
#   3. vite.single.config.js  dist/attention.html   both pages in one file (opens from disk)
#   4. scripts/package-engine.mjs  dist/engine/     the engine API for the npm package
# (scripts/size-report.mjs measures what one embedded section downloads: npm run size, npm test.)
set -euo pipefail
cd "$(dirname "$0")/.."

vite=node_modules/.bin/vite
echo "== vite build: site (dist/)"
$vite build --logLevel warn
echo "== vite build: embed (dist/embed/)"
$vite build --logLevel warn -c vite.embed.config.js
echo "== vite build: single file (dist/attention.html)"
$vite build --logLevel warn -c vite.single.config.js
echo "== engine package files (dist/engine/)"
node scripts/package-engine.mjs
