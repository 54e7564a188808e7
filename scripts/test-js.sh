#!/usr/bin/env bash
# npm run test:js: the JavaScript layer in Node against the real .wasm. Builds
# both wasm builds (scripts/build-wasm.sh) and the native writers of the shared test
# vectors (only those targets), then runs Vitest (tests/js/) and type-checks the
# hand-written declarations (tsc -p tests/types). Prints its wall time.
#   npm run test:js -- engine-errors masking   the same, Vitest only on the test
#                       files whose names contain these (Vitest's filters)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/layer.sh
layer test:js

bash scripts/build-wasm.sh
# Shared test vectors: written by the native core, checked by Vitest against wasm.
bash scripts/build-native.sh --no-bench --target write_test_vectors --target write_learning_vectors >/dev/null
build/native/bin/write_test_vectors build/test-vectors/vectors.json
build/native/bin/write_learning_vectors build/test-vectors/learning.json
echo "== Vitest (tests/js/)"
node_modules/.bin/vitest run "$@"
echo "== tsc -p tests/types (the engine's and the bindings' declarations)"
node_modules/.bin/tsc -p tests/types
