# The launcher where users run it: signals sent to it, snapshots and traces
# that cannot be written, settings the layer cannot read, environments that
# keep the loader from loading the layer. The application is never broken
# and the report says what happened.
. "$SRC/lib.sh"
need_xvfb vkcube vulkan-tools
need_apitrace
APP=$APPS/capture_misbehave

# SIGTERM and SIGINT to the launcher (timeout(1), a CI runner) go on to the
# application; the launcher reports and exits with the application's status,
# and leaves nothing running.
# (A shell starts background commands with SIGINT ignored: python puts the
# default back, as a terminal's shell would have it.)
many=$(own_count)
for sig in TERM:143 INT:130; do
  name=${sig%%:*} want=${sig##*:}
  python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
    "$CAPTURE" --trace "sig$name.trace" -- "$APP" --submits "$many" > "sig$name.out" 2> "sig$name.err" &
  pid=$!
  i=0
  until [ "$(wc -c 2>/dev/null < "sig$name.trace" || echo 0)" -gt 20000 ]; do
    i=$((i + 1)); [ $i -lt 600 ] || { kill -9 $pid; fail "SIG$name: the trace did not grow"; }
    sleep 0.05
  done
  kill -"$name" $pid
  wait $pid
  status=$?
  [ "$status" = "$want" ] || { cat "sig$name.err" >&2; fail "SIG$name: status $status, expected $want"; }
  pgrep -f "capture_misbehave --submits $many" > /dev/null && fail "SIG$name: the application still runs"
  grep -q "^frames\|^calls" "sig$name.err" || { cat "sig$name.err" >&2; fail "SIG$name: no report"; }
  apitrace dump "sig$name.trace" > /dev/null 2> dump.err || { cat dump.err >&2; fail "SIG$name: the trace"; }
done

# A snapshot folder that cannot be made: the frame is skipped, the
# application runs to its end, the report says which file and why.
echo x > s.snapshots
xrun "$CAPTURE" --trace s.trace --snapshot 2 -- vkcube --c 6 > s.out 2> s.err &
pid=$!
i=0
while kill -0 $pid 2>/dev/null; do
  i=$((i + 1)); [ $i -lt 1200 ] || { kill -9 $pid; fail "vkcube hangs when its snapshot cannot be written"; }
  sleep 0.05
done
wait $pid
status=$?
[ "$status" = 1 ] || { cat s.err >&2; fail "unwritable snapshot: status $status, expected 1"; }
grep -q "^problem: cannot write the snapshot of frame 2: .*s.snapshots" s.err || { cat s.err >&2; fail "no word of the snapshot"; }
[ "$(apitrace dump s.trace 2>/dev/null | grep -c ' vkQueuePresentKHR(')" = 6 ] || fail "not 6 presents"

# Settings the layer cannot read, with the layer enabled by the environment:
# said once, traced without snapshots, the application unharmed.
for bad in 0 abc 1,,2 -1 123456789012345678901; do
  rm -f bad.trace
  with_layer env TRAK_CAPTURE_TRACE="$work/bad.trace" TRAK_CAPTURE_SNAPSHOTS="$bad" \
    xvfb-run -a -n "$(display_from)" vkcube --c 3 > bad.out 2> bad.err ||
    { cat bad.err >&2; fail "TRAK_CAPTURE_SNAPSHOTS=$bad breaks vkcube"; }
  grep -q "TRAK_CAPTURE_SNAPSHOTS: .*tracing without snapshots" bad.err || { cat bad.err >&2; fail "no word of $bad"; }
  [ "$(apitrace dump bad.trace 2>/dev/null | grep -c ' vkQueuePresentKHR(')" = 3 ] || fail "$bad: not traced"
done

# A disk that fills up (here a file size limit: the writes fail with EFBIG
# rather than ENOSPC, through the same path): the trace is cut back to its
# last whole chunk, reads without an error, and the report says so.
(trap '' XFSZ; ulimit -f 64; exec "$CAPTURE" --trace full.trace -- "$APP" --submits 20000) > full.out 2> full.err
status=$?
[ "$status" = 1 ] || { cat full.err >&2; fail "a full disk: status $status, expected 1"; }
grep -q "^problem: cannot write the trace.*the trace ends at the last whole chunk" full.err ||
  { cat full.err >&2; fail "no word of the full disk"; }
apitrace dump full.trace > /dev/null 2> dump.err || { cat dump.err >&2; fail "apitrace on the cut trace"; }
"$STAT" full.trace > /dev/null 2> stat.err || { cat stat.err >&2; fail "trak-stat on the cut trace"; }

# The user's VK_LOADER_LAYERS_DISABLE=~all~ does not keep the launcher's
# layer out: the launcher asked for it by name.
VK_LOADER_LAYERS_DISABLE='~all~' "$CAPTURE" --trace dis.trace -- "$APP" > dis.out 2> dis.err ||
  { cat dis.err >&2; fail "VK_LOADER_LAYERS_DISABLE"; }
[ -s dis.trace ] || { cat dis.err >&2; fail "VK_LOADER_LAYERS_DISABLE=~all~ kept the layer out"; }

# A script that replaces VK_LAYER_PATH without keeping it: the loader cannot
# find the layer, and the report says so instead of "no Vulkan device".
"$CAPTURE" --trace gone.trace -- env VK_LAYER_PATH=/nonexistent "$APP" > gone.out 2> gone.err ||
  { cat gone.err >&2; fail "the application under a replaced VK_LAYER_PATH"; }
grep -q "^nothing captured: no Vulkan instance reached VK_LAYER_TRAK_capture" gone.err ||
  { cat gone.err >&2; fail "the report of a layer the loader did not load"; }
exit 0
