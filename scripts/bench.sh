#!/usr/bin/env bash
# npm run bench [-- --browser]: the race of the project against its peers, printed
# as one report (a command, not a test: it never fails on a missed target).
#   1. installs what is missing: Debian packages and the root npm packages
#      (scripts/ensure-deps.sh), and the peers into bench/peers/node_modules
#      (npm ci from bench/peers/package-lock.json: tfjs, onnxruntime-web, onnx-proto;
#      only here, never from npm test or npm start)
#   2. builds native and both wasm builds (incremental), installs the native
#      library into build/bench/prefix and builds bench/native against it, as a user
#      would; compiles the wasm peak kernel (bench/race/f32x4-peak.wat) with wat2wasm
#   3. native race   build/bench/native/attn_bench         -> build/bench/attention-native.json
#   4. wasm race     node --expose-gc scripts/bench-wasm.mjs -> build/bench/attention-node.json
#      --browser:    also scripts/bench-browser.mjs (headless Chromium) -> build/bench/attention-browser.json
#   5. learning (issue 8): build/bench/native/learning_bench -> build/bench/backward-native.json;
#      node --expose-gc bench/race/training/node.mjs (the training race against tfjs,
#      the transformer race of issue 22 with build/bench/native/trainer_steps and
#      build/bench/native-march/trainer_steps, the library built for this machine, as its
#      native contenders, the backward pass in wasm) -> build/bench/training-node.json,
#      transformer-node.json, backward-node.json
#   6. the report    scripts/bench-report.mjs
# The runs are sequential so that they do not compete for the cores.
# Environment: ATTN_BENCH_SIZES (default 64,256,1024,4096), ATTN_BENCH_ALONE (default 16384).
set -euo pipefail
cd "$(dirname "$0")/.."

browser=0
for arg in "$@"; do
  case "$arg" in
    --browser) browser=1 ;;
    *) echo "usage: npm run bench [-- --browser]" >&2; exit 2 ;;
  esac
done
sizes=${ATTN_BENCH_SIZES:-64,256,1024,4096}
alone=${ATTN_BENCH_ALONE:-16384}

bash scripts/ensure-deps.sh
peers=bench/peers
stamp=$peers/node_modules/.package-lock.sha256
want=$(sha256sum "$peers/package-lock.json" | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "== installing the peers into $peers/node_modules (npm ci)" >&2
  (cd "$peers" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" > "$stamp"
fi

echo "== building (native, wasm, the native bench against the installed library, the wasm peak kernel)" >&2
bash scripts/build-native.sh >/dev/null
bash scripts/build-wasm.sh >/dev/null
mkdir -p build/bench
cmake --install build/native --prefix build/bench/prefix >/dev/null
cmake -S bench/native -B build/bench/native -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PWD/build/bench/prefix" >/dev/null
cmake --build build/bench/native -j2 >/dev/null
# The transformer race's second native contender: the library built for this
# machine (-march=native, ATTN_NATIVE_ARCH), as the Eigen peer is compiled.
cmake -S . -B build/native-march -DCMAKE_BUILD_TYPE=Release -DATTN_NATIVE_ARCH=ON -DATTN_BUILD_TESTS=OFF \
  -DATTN_BUILD_BENCH=OFF >/dev/null
cmake --build build/native-march -j2 --target attn_core >/dev/null
cmake --install build/native-march --prefix build/bench/prefix-march >/dev/null
cmake -S bench/native -B build/bench/native-march -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PWD/build/bench/prefix-march" >/dev/null
cmake --build build/bench/native-march -j2 --target trainer_steps >/dev/null
wat2wasm bench/race/f32x4-peak.wat -o build/bench/f32x4-peak.wasm

echo "== native race (build/bench/native/attn_bench)" >&2
native_sizes=$(echo "$sizes" | tr ',' '\n' | awk '$1 <= 4096' | paste -sd, -)
build/bench/native/attn_bench --sizes "$native_sizes" --json build/bench/attention-native.json

node --expose-gc scripts/bench-wasm.mjs --sizes "$sizes" --alone "$alone" --json build/bench/attention-node.json
reports=(--native build/bench/attention-native.json --node build/bench/attention-node.json)
if [ "$browser" = 1 ]; then
  node scripts/bench-browser.mjs --sizes "$sizes" --alone "$alone" --json build/bench/attention-browser.json
  reports+=(--browser build/bench/attention-browser.json)
fi

echo "== learning, native (build/bench/native/learning_bench)" >&2
build/bench/native/learning_bench 4096 20 build/bench/backward-native.json >&2
node --expose-gc bench/race/training/node.mjs --out build/bench --native build/bench/native/trainer_steps \
  --native-march build/bench/native-march/trainer_steps
reports+=(--backward-native build/bench/backward-native.json --training build/bench/training-node.json
  --transformer build/bench/transformer-node.json --backward build/bench/backward-node.json)

echo >&2
node scripts/bench-report.mjs "${reports[@]}"
