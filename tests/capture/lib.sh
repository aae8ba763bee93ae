# Sourced by the capture tests: paths, a scratch folder (../apps/lib.sh), and
# the checks they share. Meson sets TOOLS (build/tools), APPS (the test
# applications), DATA (tests/data), SRC (this folder) and FOSSILIZE (the
# oracle's folder, or "").
set -u
CAPTURE=$TOOLS/capture/trak-capture STAT=$TOOLS/stat/trak-stat REPLAY=$TOOLS/replay/trak-replay
CONVERT=$TOOLS/convert/trak-convert STORM=$APPS/capture_pipeline_storm CRASH=$APPS/capture_crash_in_create
TRIM_APP=$APPS/capture_trim_accumulate
LAYER_DIR=$TOOLS/../layers/capture LAYER_NAME=VK_LAYER_TRAK_capture
. "$SRC/../apps/lib.sh"
CAPTURE=$(through_env "$CAPTURE")

# The oracle is optional beside a fresh clone; CI (../shared beside it) has it.
need_fossilize() {
  [ -n "$FOSSILIZE" ] && [ -x "$FOSSILIZE/bin/fossilize-list" ] ||
    skip "needs Fossilize's layer and tools (../shared/tools/fossilize) as the oracle"
}

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
  app_errors "$@"
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
