# Sourced by the capture tests: paths, a scratch folder, and the checks they
# share. Meson sets TOOLS (build/tools), APPS (the test applications), DATA
# (tests/data), SRC (this folder) and FOSSILIZE (the oracle's folder, or "").
set -u
CAPTURE=$TOOLS/capture/trak-capture STAT=$TOOLS/stat/trak-stat REPLAY=$TOOLS/replay/trak-replay
CONVERT=$TOOLS/convert/trak-convert STORM=$APPS/capture_pipeline_storm CRASH=$APPS/capture_crash_in_create
LAYER_DIR=$TOOLS/../layers/capture
work=$(mktemp -d) || exit 99
cd "$work" || exit 99

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skipped: $*" >&2; exit 77; }

# The environments users run trak in (TRAK_TEST_ENV; meson runs every test
# once in each): the Vulkan SDK's set-up exports VK_LAYER_PATH, a harness
# script extends it for the command, Khronos' validation layer is stacked
# before or after trak's. Launchers run through env_launch.sh, which sets
# up the last three; with validation, a test fails on any error it reports.
case "${TRAK_TEST_ENV:-}" in
  "") ;;
  sdk) export VK_LAYER_PATH=/usr/share/vulkan/explicit_layer.d ;;
  wrapper) ;;
  validation-*)
    [ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] ||
      skip "needs Khronos' validation layer (package vulkan-validationlayers)"
    export VALIDATION_LOGS=$work/validation
    mkdir "$VALIDATION_LOGS"
    ;;
  *) fail "unknown TRAK_TEST_ENV $TRAK_TEST_ENV" ;;
esac
if [ -n "${TRAK_TEST_ENV:-}" ]; then
  CAPTURE="$work/trak-capture"
  printf '#!/bin/sh\nLAYER_DIR="%s" exec "%s" "%s" "$@"\n' "$LAYER_DIR" "$SRC/env_launch.sh" "$TOOLS/capture/trak-capture" > "$CAPTURE"
  chmod +x "$CAPTURE"
fi
# Errors per VUID in the logs of a folder ("COUNT VUID" lines).
vuids() { cat "$1"/*/log 2>/dev/null | grep "Validation Error" | grep -o "\[ [A-Za-z0-9_-]* \]" | sort | uniq -c; }
# A test fails on errors trak's layer causes: more of a VUID than the
# application makes alone (app_errors), of any VUID.
validation_errors() {
  [ -d "${VALIDATION_LOGS:-/nonexistent}" ] || return 0
  vuids "$VALIDATION_LOGS" > "$work/vuids.trak"
  vuids "$work/validation-app" > "$work/vuids.app"
  extra=$(awk 'NR == FNR { app[$3] = $1; next } $1 > app[$3] + 0' "$work/vuids.app" "$work/vuids.trak")
  [ -z "$extra" ] && return 0
  echo "FAIL: the validation layer reported errors the application does not make alone:" >&2
  echo "$extra" >&2
  cat "$VALIDATION_LOGS"/*/log | grep "Validation Error" | head -5 >&2
  return 1
}
# With validation stacked: runs COMMAND under validation alone, without
# trak's layer, to learn the errors the application makes by itself (zink
# on lavapipe has some). The same command, frame counts and all, as the run
# with trak's layer.
app_errors() {
  [ -d "${VALIDATION_LOGS:-/nonexistent}" ] || return 0
  mkdir -p "$work/validation-app"
  VALIDATION_LOGS=$work/validation-app VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
    VK_LAYER_SETTINGS_PATH=$(VALIDATION_LOGS=$work/validation-app validation_settings) "$@" > /dev/null 2>&1
}
on_exit() {
  status=$?
  [ "$status" = 0 ] && ! validation_errors && status=1
  cd / && rm -rf "$work"
  exit "$status"
}
trap on_exit EXIT

# Runs a command with trak's layer enabled by the environment alone, as the
# README tells users to without the launcher: the folder goes into
# VK_LAYER_PATH where that is set (the loader then ignores
# VK_ADD_LAYER_PATH), else into VK_ADD_LAYER_PATH. LAYERS (default trak's
# alone; empty for none) and LAYER_DIRS (default LAYER_DIR) say what to enable, from where;
# validation is stacked as TRAK_TEST_ENV says.
with_layer() {
  layers=${LAYERS-VK_LAYER_TRAK_capture} dirs=${LAYER_DIRS:-$LAYER_DIR}
  # The loader stacks explicit layers in the order it finds their folders.
  case "${TRAK_TEST_ENV:-}" in
    validation-first) dirs=/usr/share/vulkan/explicit_layer.d:$dirs ;;
    validation-last) dirs=$dirs:/usr/share/vulkan/explicit_layer.d ;;
  esac
  settings=
  case "${TRAK_TEST_ENV:-}" in
    validation-*)
      layers=${layers:+$layers:}VK_LAYER_KHRONOS_validation
      settings=$(validation_settings)
      ;;
  esac
  # Assignments before the command, not env(1): it may be a function (xrun).
  if [ -n "${VK_LAYER_PATH:-}" ]; then
    VK_LAYER_PATH=$dirs:$VK_LAYER_PATH VK_INSTANCE_LAYERS=$layers VK_LAYER_SETTINGS_PATH=$settings "$@"
  else
    VK_ADD_LAYER_PATH=$dirs VK_INSTANCE_LAYERS=$layers VK_LAYER_SETTINGS_PATH=$settings "$@"
  fi
}
# A settings file for the validation layer that logs its errors into a
# folder of VALIDATION_LOGS of their own (one log per process tree: the
# layer truncates its log when it starts).
validation_settings() {
  dir=$(mktemp -d "$VALIDATION_LOGS/XXXXXX")
  printf '%s\n' "khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG" \
    "khronos_validation.report_flags = error" "khronos_validation.log_filename = $dir/log" > "$dir/vk_layer_settings.txt"
  echo "$dir/vk_layer_settings.txt"
}

# The oracle is optional beside a fresh clone; CI (../shared beside it) has it.
need_fossilize() {
  [ -n "$FOSSILIZE" ] && [ -x "$FOSSILIZE/bin/fossilize-list" ] ||
    skip "needs Fossilize's layer and tools (../shared/tools/fossilize) as the oracle"
}
need_xvfb() {
  command -v xvfb-run >/dev/null || skip "needs xvfb-run (package xvfb) to give $1 a display"
  command -v "$1" >/dev/null || skip "needs $1 (package $2)"
}
# -a alone makes parallel tests race for the same display number (one test's
# server then vanishes under another's windows): each starts its search apart.
xrun() { xvfb-run -a -n $((100 + $$ % 800)) -s "-screen 0 1280x1024x24 +extension GLX" "$@"; }

# Entries (tag, hash) of archives, sorted; and per tag counts.
keys() { python3 "$SRC/foz_entries.py" keys "$@"; }
count() { keys "$2" | awk -v t="$1" '$1 == t' | wc -l; }
# Every pipeline of the archives compiles again on the device.
replays() {
  "$REPLAY" --json "$@" > replay.json 2> replay.err || { cat replay.err >&2; fail "trak-replay $*"; }
  jq -e '.graphics.total + .compute.total > 0 and
         ([.graphics, .compute, .raytracing] | all(.ok == .total))' replay.json > /dev/null || { cat replay.json >&2; fail "trak-replay did not create every pipeline of $*"; }
}
# Both layers on one run: the same calls reach both, so the archives must agree.
with_both_layers() {
  name=$1; shift
  (export TRAK_CAPTURE_FOZ=$work/trak-$name FOSSILIZE_DUMP_PATH=$work/fz-$name
    LAYERS=VK_LAYER_TRAK_capture:VK_LAYER_fossilize LAYER_DIRS=$LAYER_DIR:$FOSSILIZE/layer with_layer "$@") \
    > "$name.out" 2> "$name.err" || { cat "$name.err" >&2; fail "$* under both layers"; }
  python3 "$SRC/foz_entries.py" same "$work/trak-$name".*.foz -- "$work/fz-$name".*.foz ||
    fail "$name: trak's and Fossilize's archives differ"
}

# Traces (--trace): apitrace is the reader they are written for.
need_apitrace() { command -v apitrace >/dev/null || skip "needs apitrace (package apitrace), the reader traces are checked with"; }
# trace.jsonl from a trace, and how many calls of a name it holds.
jsonl() { "$CONVERT" --to jsonl "$1" > "${2:-trace.jsonl}" || fail "trak-convert --to jsonl $1"; }
calls() { jq -c --arg n "$1" 'select(.type == "call" and .name == $n)' "${2:-trace.jsonl}" | wc -l; }
# PNG width and height ("500 500"), or a failure.
png_size() { python3 -c 'import struct, sys
d = open(sys.argv[1], "rb").read(33)
assert d[:8] == b"\x89PNG\r\n\x1a\n" and d[12:16] == b"IHDR", "not a PNG"
print(*struct.unpack(">II", d[16:24]))' "$1" || fail "$1 is not a PNG"; }

# Kills process PID with SIGKILL once the files matching GLOB hold more than
# BYTES together (no handler, no exit code runs); fails if it ends first.
kill_at_size() {
  glob=$1 bytes=$2 pid=$3 i=0
  until [ "$(cat $glob 2>/dev/null | wc -c)" -gt "$bytes" ]; do
    i=$((i + 1)); [ $i -lt 600 ] || { kill -9 "$pid"; fail "$glob did not grow"; }
    kill -0 "$pid" 2>/dev/null || fail "the program ended before it was killed"
    sleep 0.05
  done
  kill -9 "$pid"
  wait "$pid" 2>/dev/null
}
