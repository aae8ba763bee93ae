# trak-capture --codec zstd: the capture is seekable zstd (the zstd tool reads
# it, its seek table counts every frame), every trak tool reads it, and it
# replays to its snapshots bit for bit; smaller than the snappy capture.
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
[ "$(wc -c < z.trace)" -lt "$(wc -c < s.trace)" ] || fail "zstd $(wc -c < z.trace) bytes, snappy $(wc -c < s.trace)"
exit 0
