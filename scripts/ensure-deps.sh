#!/usr/bin/env bash
# Installs what the build and the tests need and is missing: Debian packages
# (as root; otherwise prints the exact command) and the npm packages of
# package-lock.json. Safe to run again: it does nothing when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(
  build-essential cmake          # native build
  libgtest-dev                   # native tests
  libeigen3-dev                  # the Eigen baseline of the benchmark
  emscripten                     # the wasm builds (clang 14, binaryen)
  clang-14 libclang-rt-14-dev    # npm run test:sanitize, npm run fuzz: ASan, UBSan, libFuzzer
  llvm-14                        # llvm-symbolizer: sanitizer reports with file and line
  wabt                           # wasm-objdump: check f32x4 is in the SIMD build
  chromium                       # end-to-end tests, headless
  fonts-nanum                    # Korean glyphs in the end-to-end screenshots
  nodejs npm                     # only used when node itself is missing
)

missing=()
for p in "${apt_packages[@]}"; do
  case "$p" in
    nodejs|npm) command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 && continue ;;
  esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    echo "ensure-deps: installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "ensure-deps: these Debian packages are missing: ${missing[*]}" >&2
    echo "ensure-deps: install them as root with:" >&2
    echo "  sudo sh -c '$cmd'" >&2
    exit 1
  fi
fi

# npm packages: reinstall when package-lock.json changed since the last install.
stamp=node_modules/.package-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "ensure-deps: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
