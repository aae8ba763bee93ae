# vkcube captured, then replayed offscreen by trak-replay on the same
# device: the replay's frames equal the capture-time snapshots bit for bit,
# also with memory placed differently on purpose (--shuffle-memory); its own
# snapshots are written; the report says what was adapted.
. "$SRC/lib.sh"
need_xvfb vkcube vulkan-tools
xrun "$CAPTURE" --trace cube.trace --snapshot 1,15,30 -- vkcube --c 30 > cap.out 2> cap.err ||
  { cat cap.err >&2; fail "trak-capture --trace vkcube"; }
# No display from here on: the replay is offscreen.
env -u DISPLAY "$REPLAY" cube.trace --compare --json > replay.json 2> replay.err ||
  { cat replay.err replay.json >&2; fail "trak-replay --compare"; }
[ "$(jq '.frames' replay.json)" = 30 ] || fail "$(jq .frames replay.json) frames replayed"
[ "$(jq -c '[.checks[] | [.frame, .max_difference, .passed]]' replay.json)" = '[[1,0,true],[15,0,true],[30,0,true]]' ] ||
  fail "frames differ: $(jq -c .checks replay.json)"
[ "$(jq '.updates > 30' replay.json)" = true ] || fail "update records applied: $(jq .updates replay.json)"
jq -e '.adapted | index("swapchains: offscreen images of the replay'"'"'s own") != null' replay.json > /dev/null ||
  fail "the report does not say the swapchain became offscreen images"
# vkcube's uniform buffer has no transfer usage: the replay's staging copies need it.
jq -e '.adapted | index("buffers: TRANSFER_SRC and TRANSFER_DST usage added, for the replay'"'"'s own copies") != null' \
  replay.json > /dev/null || fail "no transfer usage added to buffers: $(jq -c .adapted replay.json)"
env -u DISPLAY "$REPLAY" cube.trace --compare --shuffle-memory --snapshot 15 --snapshot-dir mine --json > shuffled.json \
  2> shuffled.err || { cat shuffled.err >&2; fail "trak-replay --shuffle-memory"; }
[ "$(jq -c '[.checks[] | .max_difference] | max' shuffled.json)" = 0 ] || fail "other memory placement, other pixels"
[ "$(png_size mine/frame-000015.png)" = "500 500" ] || fail "the replay's snapshot"
# --frames times a range, --loop plays the capture again: 3 passes of frames
# 10-30, 21 frames each.
env -u DISPLAY "$REPLAY" cube.trace --frames 10-30 --loop 3 --json > loop.json 2> loop.err || { cat loop.err >&2; fail "--loop"; }
[ "$(jq -c '[.passes, .timed_frames]' loop.json)" = '[3,63]' ] || fail "--frames 10-30 --loop 3: $(jq -c '[.passes, .timed_frames]' loop.json)"
# --present window: the frames shown in an X11 window too, the same pixels read back.
xrun "$REPLAY" cube.trace --present window --compare --json > window.json 2> window.err ||
  { cat window.err >&2; fail "--present window"; }
jq -e '.adapted | index("frames shown in an X11 window too") != null' window.json > /dev/null || fail "no window"
[ "$(jq -c '[.checks[] | .max_difference] | max' window.json)" = 0 ] || fail "--present window changed the pixels"
# A table by default, with the frames and their comparison.
env -u DISPLAY "$REPLAY" cube.trace --compare > table.txt 2> table.err || fail "trak-replay table"
grep -q '^frame 30 *match: largest channel difference 0, PSNR inf dB' table.txt || { cat table.txt >&2; fail "table"; }
exit 0
