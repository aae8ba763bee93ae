# A damaged capture stops the replay with one line on stderr (exit 1) after
# the frames before the damage (or, cut exactly between two calls, ends it
# with one warning, exit 0); none makes it crash. Cut at several places,
# and bytes flipped at several places.
. "$SRC/lib.sh"
need_xvfb vkcube vulkan-tools
xrun "$CAPTURE" --trace cube.trace -- vkcube --c 1000 > cap.out 2> cap.err || { cat cap.err >&2; fail "capture"; }
size=$(stat -c %s cube.trace)
for part in 3 5 7 9; do
  head -c $((size * part / 10)) cube.trace > cut.trace
  rc=0
  env -u DISPLAY "$REPLAY" cut.trace --json > cut.json 2> cut.err || rc=$?
  [ "$(wc -l < cut.err)" = 1 ] || { cat cut.err >&2; fail "cut at $part/10: not one line on stderr"; }
  # A cut whose readable part ends exactly between two calls, or between two
  # call events with a call entered but not left (as a killed capture does),
  # is replayed to its end with a warning, not an error.
  if [ $rc = 0 ] && grep -Eq '^trak-replay: warning: cut.trace: .*between two call(s| events)' cut.err; then continue; fi
  [ $rc = 1 ] || { cat cut.err >&2; fail "cut at $part/10: exit $rc, not 1"; }
  grep -q '^trak-replay: cut.trace: ' cut.err || { cat cut.err >&2; fail "cut at $part/10: the error names no file"; }
done
[ "$(jq .frames cut.json)" -gt 500 ] || fail "the frames before the cut were not replayed ($(jq .frames cut.json))"
python3 - cube.trace <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
for k in range(8):
    d = bytearray(data)
    at = len(d) * (k + 1) // 10
    d[at] ^= 0x5a
    d[at + 7] ^= 0xff
    open(f"flip{k}.trace", "wb").write(d)
PY
for k in 0 1 2 3 4 5 6 7; do
  rc=0
  env -u DISPLAY "$REPLAY" flip$k.trace > flip.out 2> flip.err || rc=$?
  case $rc in
    0|3) ;;  # the damage fell where nothing checks it (a pixel, a blob byte)
    1) [ "$(wc -l < flip.err)" = 1 ] || { cat flip.err >&2; fail "flip $k: not one line on stderr"; } ;;
    *) cat flip.err >&2; fail "flip $k: exit $rc" ;;
  esac
done
exit 0
