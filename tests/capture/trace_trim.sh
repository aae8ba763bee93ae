# Trimmed captures of vkcube (--frames, one range and two, and --trigger):
# each file holds only its frames, starts with the state at its first frame
# (trak.first_frame), reads in apitrace, and replays offscreen equal to the
# snapshots of the same run, bit for bit, with the application's frame
# numbers. The one-range file is smaller than the whole capture.
. "$SRC/lib.sh"
need_xvfb vkcube vulkan-tools
need_apitrace
xrun "$CAPTURE" --trace whole.trace -- vkcube --c 120 > whole.out 2> whole.err ||
  { cat whole.err >&2; fail "trak-capture --trace vkcube"; }
xrun "$CAPTURE" --trace cube.trace --frames 100-102 --snapshot 100,102 -- vkcube --c 120 > cap.out 2> cap.err ||
  { cat cap.err >&2; fail "trak-capture --frames 100-102"; }
grep -q '^property *trak.first_frame = 100$' cap.err || { cat cap.err >&2; fail "the report does not show the first frame"; }
apitrace dump cube.trace > dump.txt 2> dump.err || { cat dump.err >&2; fail "apitrace dump of the trimmed capture"; }
[ "$(grep -c 'vkQueuePresentKHR(' dump.txt)" = 3 ] || fail "$(grep -c 'vkQueuePresentKHR(' dump.txt) presents, not 3"
grep -q 'trakUpdateImage(' dump.txt || fail "the texture's bytes are not in the state"
# What vkcube made and destroyed before frame 100 (the texture's upload
# command buffer, its fence) is not there.
grep -q 'vkFreeCommandBuffers(' dump.txt && fail "a command buffer freed before the range is in the state"
[ "$(stat -c %s cube.trace)" -lt "$(stat -c %s whole.trace)" ] || fail "the trimmed capture is not smaller than the whole one"
"$STAT" --json cube.trace > stat.json || fail "trak-stat of the trimmed capture"
[ "$(jq .frames.count stat.json)" = 3 ] || fail "trak-stat counts $(jq .frames.count stat.json) frames"
[ "$(jq -r '.properties["trak.first_frame"]' stat.json)" = 100 ] || fail "trak-stat does not show the first frame"
env -u DISPLAY "$REPLAY" cube.trace --compare --json > replay.json 2> replay.err ||
  { cat replay.err replay.json >&2; fail "trak-replay --compare of the trimmed capture"; }
[ "$(jq -c '[.checks[] | [.frame, .max_difference, .passed]]' replay.json)" = '[[100,0,true],[102,0,true]]' ] ||
  fail "frames differ: $(jq -c .checks replay.json)"
[ "$(jq .frames replay.json)" = 102 ] || fail "the replay's last frame is $(jq .frames replay.json), not 102"
# The replay's own snapshots carry the application's frame numbers.
env -u DISPLAY "$REPLAY" cube.trace --snapshot 101 --snapshot-dir mine > /dev/null 2> mine.err ||
  { cat mine.err >&2; fail "trak-replay --snapshot 101"; }
[ "$(png_size mine/frame-000101.png)" = "500 500" ] || fail "the replay's snapshot of frame 101"
# A frame that differs (frame 100's snapshot where frame 102's was) is a
# failed comparison, with a picture of where: replayed, captured, heat map.
cp cube.snapshots/frame-000100.png cube.snapshots/frame-000102.png
env -u DISPLAY "$REPLAY" cube.trace --compare --json > differs.json 2> differs.err
[ $? = 3 ] || { cat differs.err >&2; fail "a differing frame does not exit 3"; }
picture=$(jq -r '.checks[] | select(.frame == 102) | .difference_file' differs.json)
[ "$(png_size "$picture")" = "1500 500" ] || fail "no picture of where frame 102 differs: $picture"
[ "$(jq '[.checks[] | select(.difference_file)] | length' differs.json)" = 1 ] || fail "a picture for an equal frame"

# Two ranges: two files, named so that they sort, each with its snapshots.
xrun "$CAPTURE" --trace two.trace --frames 10-12,50-51 --snapshot 11,50 -- vkcube --c 60 > two.out 2> two.err ||
  { cat two.err >&2; fail "trak-capture --frames 10-12,50-51"; }
[ "$(ls two.frames-*.trace | tr '\n' ' ')" = "two.frames-000010.trace two.frames-000050.trace " ] ||
  fail "the files of two ranges: $(ls two*.trace)"
[ ! -e two.trace ] || fail "an empty two.trace was left behind"
for r in 10:11 50:50; do
  f=two.frames-$(printf %06d "${r%:*}").trace
  env -u DISPLAY "$REPLAY" "$f" --compare --json > r.json 2> r.err || { cat r.err >&2; fail "trak-replay $f"; }
  [ "$(jq -c '[.checks[] | [.frame, .max_difference]]' r.json)" = "[[${r#*:},0]]" ] ||
    fail "$f: $(jq -c .checks r.json)"
done

# A trigger: SIGUSR1 to trak-capture starts a range at the next frame, the
# next one ends it. Only what the trigger asked for is written.
# Signals wait for the first frame (its snapshot): the layer has its
# handler by then.
cat > trigger.sh << EOF
"$CAPTURE" --trace trig.trace --trigger signal --snapshot 1 -- vkcube --c 100000 > trig.out 2> trig.err &
pid=\$!
for i in \$(seq 600); do [ -e trig.snapshots/frame-000001.png ] && break; sleep 0.1; done
kill -USR1 \$pid; sleep 0.5; kill -USR1 \$pid; sleep 0.5; kill -TERM \$pid; wait \$pid
echo \$? > trig.rc
EOF
xrun sh trigger.sh || { cat trig.err >&2; fail "trak-capture --trigger signal"; }
set -- trig.frames-*.trace
[ $# = 1 ] && [ -s "$1" ] || fail "the trigger wrote: $(ls trig*)"
first=$(apitrace dump "$1" 2> /dev/null | sed -n 's|^// trak.first_frame = "\([0-9]*\)"$|\1|p')
[ "$1" = "trig.frames-$(printf %06d "$first").trace" ] || fail "$1 does not start at its first frame ($first)"
env -u DISPLAY "$REPLAY" "$1" --json > t.json 2> t.err || { cat t.err >&2; fail "trak-replay $1"; }
[ "$(jq .frames t.json)" -gt "$first" ] || fail "$1: no frame replayed after $first"
exit 0
