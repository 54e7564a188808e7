#!/usr/bin/env bash
# Configures and builds, with Clang 14, the native library, the GoogleTest
# suite and the libFuzzer targets in build/sanitize, everything under
# AddressSanitizer and UndefinedBehaviorSanitizer (-fno-sanitize-recover=undefined:
# any undefined behaviour aborts). Used by npm run test:sanitize and npm run fuzz.
set -euo pipefail
cd "$(dirname "$0")/.."

CXX=clang++-14 cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Release -DATTN_BUILD_BENCH=OFF \
  -DATTN_SANITIZE=ON -DATTN_BUILD_FUZZ=ON >/dev/null
cmake --build build/sanitize -j"${ATTN_JOBS:-2}"
