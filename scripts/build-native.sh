#!/usr/bin/env bash
# Configures and builds the native library, tests and benchmarks in build/native.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j"$(nproc)"
