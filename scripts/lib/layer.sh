# Sourced by the test scripts (scripts/test*.sh). `layer <name>` checks the
# dependencies once (scripts/ensure-deps.sh; skipped when npm test already did)
# and, on exit, prints the layer's wall time and whether it passed:
#   == test:js passed in 41.2 s
# `timed <label> <command...>` runs a part and prints its wall time after it (failed
# or not), and returns the part's exit status:
#   == end-to-end tests: 201.3 s
layer_name=""
layer_start=""

# Seconds from `start` (a `date +%s.%N`) to now, to 0.1 s.
seconds_since() {
  awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'
}

timed() {
  local label=$1
  shift
  local start status=0
  start=$(date +%s.%N)
  echo "== $label"
  "$@" || status=$?
  echo "== $label: $(seconds_since "$start") s"
  return "$status"
}

layer_done() {
  local status=$?
  local elapsed
  elapsed=$(seconds_since "$layer_start")
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
