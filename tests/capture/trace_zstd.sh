# trak-capture --codec zstd: the capture is seekable zstd (the zstd tool reads
# it, its seek table counts every frame), every trak tool reads it, and it
# replays to its snapshots bit for bit; smaller than the snappy capture by
# more than a frame per flush would make it. A capture killed mid-frame
# reads up to the kill (with a warning when the kill fell inside a frame).
. "$SRC/lib.sh"
need_xvfb vkcube vulkan-tools
command -v zstd > /dev/null || skip "needs the zstd tool (package zstd) as the oracle of the container"
xrun "$CAPTURE" --trace z.trace --codec zstd --snapshot 10,60 -- vkcube --c 60 > cap.out 2> cap.err ||
  { cat cap.err >&2; fail "trak-capture --codec zstd"; }
xrun "$CAPTURE" --trace s.trace -- vkcube --c 60 > cap.out 2> cap.err || { cat cap.err >&2; fail "trak-capture"; }
zstd -qt z.trace || fail "the zstd tool does not read the capture"
frames=$(tail -c 9 z.trace | od -An -tu4 -N4 | tr -d ' ')
[ "$(tail -c 4 z.trace | od -An -tx4 | tr -d ' ')" = 8f92eab1 ] || fail "no seek table at the end"
[ "$frames" -ge 1 ] || fail "a seek table of $frames frames"
zstd -qdc z.trace | head -c 1 | od -An -tu1 | grep -q 6 || fail "the stream does not start with version 6"
"$STAT" z.trace > stat.out 2> stat.err || { cat stat.err >&2; fail "trak-stat"; }
env -u DISPLAY "$REPLAY" z.trace --compare --json > replay.json 2> replay.err || { cat replay.err >&2; fail "trak-replay --compare"; }
[ "$(jq -c '[.checks[] | select(.passed and .max_difference == 0) | .frame]' replay.json)" = '[10,60]' ] ||
  fail "frames differ: $(jq -c .checks replay.json)"
# A zstd frame per chunk (each compressed alone) made it 0.65x of the
# snappy file; flushed pieces of 2 MiB frames make it 0.57x.
[ "$(wc -c < z.trace)" -lt "$(($(wc -c < s.trace) * 62 / 100))" ] ||
  fail "zstd $(wc -c < z.trace) bytes, snappy $(wc -c < s.trace)"
# --level reaches the layer: 19 is smaller than the default 3.
xrun "$CAPTURE" --trace z19.trace --codec zstd --level 19 -- vkcube --c 60 > cap.out 2> cap.err ||
  { cat cap.err >&2; fail "trak-capture --codec zstd --level 19"; }
[ "$(wc -c < z19.trace)" -lt "$(wc -c < z.trace)" ] || fail "level 19 $(wc -c < z19.trace) bytes, 3 $(wc -c < z.trace)"

with_layer exec env TRAK_CAPTURE_TRACE=$work/killed.trace TRAK_CAPTURE_TRACE_CODEC=zstd \
  "$APPS/capture_trace_threads" --threads 2 --rounds 1000000 > app.out 2> app.err &
kill_at_size killed.trace 100000 $!
"$STAT" --json killed.trace > stat.json 2> stat.err || { cat stat.err >&2; fail "trak-stat of the killed zstd trace"; }
[ "$(jq .calls stat.json)" -gt 1000 ] || fail "$(jq .calls stat.json) calls in the killed zstd trace"
[ "$(zstd -qdc killed.trace 2> /dev/null | wc -c)" -gt 100000 ] || fail "the zstd tool reads little of the killed trace"
exit 0
