# Sourced by the test layers (scripts/test-*.sh): `layer <name>` checks the
# dependencies once (scripts/ensure-deps.sh; skipped when npm test already did)
# and, on exit, prints the layer's wall time and whether it passed:
#   == test:js passed in 41.2 s
layer_name=""
layer_start=""

layer_done() {
  local status=$?
  local elapsed
  elapsed=$(awk -v a="$layer_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  if [ "$status" -eq 0 ]; then
    echo "== $layer_name passed in $elapsed s"
  else
    echo "== $layer_name FAILED (exit $status) after $elapsed s" >&2
  fi
  return "$status"
}

layer() {
  layer_name=$1
  layer_start=$(date +%s.%N)
  trap layer_done EXIT
  echo "== $layer_name"
  if [ -z "${ATTN_DEPS_CHECKED:-}" ]; then
    bash scripts/ensure-deps.sh
    export ATTN_DEPS_CHECKED=1
  fi
}
