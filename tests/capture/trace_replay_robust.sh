# Captures that end or break the way real programs and damaged files do: each
# replays to its report (exit 0) or stops with one line (exit 1), never a
# signal, never a hang.
. "$SRC/lib.sh"
need_xvfb vkcube vulkan-tools
# One line on stderr naming the file, exit 1, within the time limit.
one_line() {  # LABEL FILE [replay options...]
  label=$1 file=$2; shift 2
  rc=0
  timeout 120 env -u DISPLAY "$REPLAY" "$file" "$@" > one.out 2> one.err || rc=$?
  [ $rc = 1 ] || { cat one.err >&2; fail "$label: exit $rc, not 1"; }
  [ "$(wc -l < one.err)" = 1 ] || { cat one.err >&2; fail "$label: not one line on stderr"; }
  grep -q "^trak-replay: $file: " one.err || { cat one.err >&2; fail "$label: the line names no file"; }
}

# A program that leaves its device and instance to the process's end: the
# replay waits for the device, destroys it, and reports.
"$CAPTURE" --trace leak.trace -- "$APPS/capture_misbehave" --end leak --submits 3 > leak.out 2> leak.err ||
  { cat leak.err >&2; fail "capture of a leaking program"; }
jsonl leak.trace leak.jsonl
[ "$(calls vkDestroyDevice leak.jsonl)" = 0 ] || fail "the leaking program destroyed its device"
rc=0
timeout 120 "$REPLAY" leak.trace --json > leak.json 2> leak.err || rc=$?
[ $rc = 0 ] || { cat leak.err >&2; fail "a device never destroyed: exit $rc, not 0"; }
jq -e '.calls > 0' leak.json > /dev/null || fail "no report for the leaking program's capture"
# One that destroys its instance and not its device (vkDestroyDevice left
# out of a tidy program's capture): the device goes before its instance.
"$CAPTURE" --trace tidy.trace -- "$APPS/capture_misbehave" > tidy.out 2> tidy.err || { cat tidy.err >&2; fail "capture"; }
jsonl tidy.trace tidy.jsonl
destroy=$(jq -r 'select(.type == "call" and .name == "vkDestroyDevice") | .no' tidy.jsonl)
[ -n "$destroy" ] || fail "the tidy program destroyed no device"
"$CONVERT" tidy.trace --to trace --calls "0-$((destroy - 1))" --calls "$((destroy + 1))-" -o nodestroy.trace ||
  fail "trak-convert --calls"
rc=0
timeout 120 "$REPLAY" nodestroy.trace --json > nodestroy.json 2> nodestroy.err || rc=$?
[ $rc = 0 ] || { cat nodestroy.err >&2; fail "a device never destroyed before vkDestroyInstance: exit $rc, not 0"; }
jq -e '.calls > 0' nodestroy.json > /dev/null || fail "no report for the capture without vkDestroyDevice"

# The calls of a vkcube capture by number, to cut and drop some.
xrun "$CAPTURE" --trace cube.trace --snapshot 5 -- vkcube --c 30 > cap.out 2> cap.err || { cat cap.err >&2; fail "capture"; }
jsonl cube.trace cube.jsonl
nos() { jq -r --arg n "$1" 'select(.type == "call" and .name == $n) | .no' cube.jsonl; }
submit=$(nos vkQueueSubmit | sed -n 10p)
acquire=$(nos vkAcquireNextImageKHR | sed -n 10p)
[ -n "$submit" ] && [ -n "$acquire" ] || fail "the capture has fewer than 10 submits or acquires"
# A capture of some calls, gzip-compressed (a cut of the stream inside is
# then made on the calls' bytes, not on the container's).
part() {  # OUT CALLSET...
  out=$1; shift
  args=""
  for s in "$@"; do args="$args --calls $s"; done
  # shellcheck disable=SC2086
  "$CONVERT" cube.trace --to trace --codec gzip $args -o "$out" || fail "trak-convert --calls $*"
}

# Cut a few bytes into the call after a submit: the submitted work still
# runs when the error is known. 40 times, exit 1 and one line every time.
part upto.trace "0-$submit"
part next.trace "0-$((submit + 1))"
gzip -dc < next.trace | head -c $(($(gzip -dc < upto.trace | wc -c) + 3)) | gzip > cut.trace

i=0
while [ $i -lt 40 ]; do
  one_line "cut after the submit, run $i" cut.trace
  grep -q "inside the call event\|unexpected end" one.err || { cat one.err >&2; fail "the cut is not where it was made"; }
  i=$((i + 1))
done

# A submit or an acquire missing: a fence or semaphore nobody signals. The
# wait ends and names what was not signalled.
part nosubmit.trace "0-$((submit - 1))" "$((submit + 1))-"
one_line "a vkQueueSubmit missing" nosubmit.trace
grep -q "signal" one.err || { cat one.err >&2; fail "a missing submit: the wait is not named"; }
part noacquire.trace "0-$((acquire - 1))" "$((acquire + 1))-"
one_line "a vkAcquireNextImageKHR missing" noacquire.trace
grep -q "signal" one.err || { cat one.err >&2; fail "a missing acquire: the wait is not named"; }

# --frames A-B times B-A+1 frames, --frames N frame N alone; frames and
# snapshots past the capture's end are named in a note.
timed() { "$REPLAY" cube.trace --json "$@" 2> timed.err | jq .timed_frames; }
[ "$(timed --frames 3-5)" = 3 ] || fail "--frames 3-5 did not time 3 frames"
[ "$(timed --frames 3)" = 1 ] || fail "--frames 3 did not time frame 3"
[ "$(timed --frames 25-99 --snapshot 99 --snapshot-dir mine)" = 6 ] || fail "--frames 25-99 did not time frames 25 to 30"
grep -q "^trak-replay: warning: --frames 25-99: the capture has 30 frames: frames past 30 were not timed$" timed.err ||
  { cat timed.err >&2; fail "--frames past the end: no note"; }
grep -q "^trak-replay: warning: --snapshot 99: the capture has 30 frames: frame 99 never came$" timed.err ||
  { cat timed.err >&2; fail "--snapshot past the end: no note"; }

# A reference that differs everywhere: --min-psnr 0 accepts it, the default
# does not; a reference whose header declares 20000x20000 is another size,
# told from its header (not decoded: it has no pixels at all).
python3 - cube.snapshots/frame-000005.png <<'PY'
import struct, sys, zlib
path = sys.argv[1]
w, h = struct.unpack(">II", open(path, "rb").read(24)[16:24])
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
raw = b"".join(b"\0" + bytes([200, 10, 90]) * w for _ in range(h))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
open(path, "wb").write(png + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
open("huge.png", "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0)))
PY
rc=0; "$REPLAY" cube.trace --compare > cmp.out 2> cmp.err || rc=$?
[ $rc = 3 ] || { cat cmp.out cmp.err >&2; fail "a different reference: exit $rc, not 3"; }
rc=0; "$REPLAY" cube.trace --compare --min-psnr 0 > cmp.out 2> cmp.err || rc=$?
[ $rc = 0 ] || { cat cmp.out cmp.err >&2; fail "--min-psnr 0: exit $rc, not 0"; }
cp huge.png cube.snapshots/frame-000005.png
rc=0; "$REPLAY" cube.trace --compare > cmp.out 2> cmp.err || rc=$?
[ $rc = 3 ] && grep -q "another size" cmp.out || { cat cmp.out cmp.err >&2; fail "a 20000x20000 reference: exit $rc"; }

# A fatal signal (as a driver's crash on a value trak cannot check gives)
# names the call being replayed, then ends the process as it would have.
env -u DISPLAY "$REPLAY" cube.trace --loop 100000 > /dev/null 2> sig.err &
pid=$!
sleep 2
kill -SEGV $pid
rc=0
wait $pid || rc=$?
[ $rc = 139 ] || { cat sig.err >&2; fail "SIGSEGV: exit $rc, not 139"; }
grep -q "^trak-replay: cube.trace: call [0-9]* vk[A-Za-z0-9]*: the process died here (SEGV: " sig.err ||
  { cat sig.err >&2; fail "SIGSEGV: the call is not named"; }

# A stream without vkCreateInstance.
create=$(nos vkCreateInstance | head -n 1)
part noinstance.trace "$((create + 1))-"
one_line "no vkCreateInstance" noinstance.trace
exit 0
