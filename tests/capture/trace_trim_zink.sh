# A trimmed capture of glmark2 on zink: frames 13 to 16, in its texture
# scene, whose texture was uploaded (through a staging buffer, into an
# optimal image) long before frame 13. The state carries the image's texels
# and the replay's frames equal the snapshots bit for bit.
. "$SRC/lib.sh"
need_xvfb glmark2 glmark2-x11
MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 xrun "$CAPTURE" --trace gl.trace --frames 13-16 \
  --snapshot 13,15,16 -- glmark2 -s 320x240 -b build:nframes=10 -b texture:nframes=10 -b shading:nframes=5 \
  > cap.out 2> cap.err || { cat cap.err >&2; fail "trak-capture --frames 13-16 glmark2"; }
jsonl gl.trace
[ "$(calls trakImageContents)" -gt 0 ] || fail "no image texels in the state"
[ "$(calls vkQueuePresentKHR)" = 4 ] || fail "$(calls vkQueuePresentKHR) presents, not 4"
env -u DISPLAY "$REPLAY" gl.trace --compare --json > replay.json 2> replay.err ||
  { cat replay.err replay.json >&2; fail "trak-replay --compare"; }
[ "$(jq -c '[.checks[] | select(.passed and .max_difference == 0) | .frame]' replay.json)" = '[13,15,16]' ] ||
  fail "frames differ: $(jq -c .checks replay.json)"
exit 0
