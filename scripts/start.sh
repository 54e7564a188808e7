#!/usr/bin/env bash
# npm start: installs what is missing, builds the wasm and the page, serves dist/
# on 127.0.0.1 and prints the address.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
exec node scripts/serve.mjs dist "${PORT:-8080}"
