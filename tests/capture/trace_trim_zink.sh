# A trimmed capture of glmark2 on zink: frames 13 to 16, in its texture
# scene, whose texture was uploaded (through a staging buffer, into an
# optimal image) long before frame 13. The state carries the image's texels
# and the replay's frames equal the snapshots bit for bit. Buffers aliasing
# an earlier one's memory get its bytes by a copy, not again.
. "$SRC/lib.sh"
need_xvfb glmark2 glmark2-x11
MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 xrun "$CAPTURE" --trace gl.trace --frames 13-16 \
  --snapshot 13,15,16 -- glmark2 -s 320x240 -b build:nframes=10 -b texture:nframes=10 -b shading:nframes=5 \
  > cap.out 2> cap.err || { cat cap.err >&2; fail "trak-capture --frames 13-16 glmark2"; }
jsonl gl.trace
[ "$(calls trakImageContents)" -gt 0 ] || fail "no image texels in the state"
[ "$(calls trakCopyBuffer)" -gt 0 ] || fail "no copies between aliased buffers in the state"
[ "$(calls vkQueuePresentKHR)" = 4 ] || fail "$(calls vkQueuePresentKHR) presents, not 4"
env -u DISPLAY "$REPLAY" gl.trace --compare --json > replay.json 2> replay.err ||
  { cat replay.err replay.json >&2; fail "trak-replay --compare"; }
[ "$(jq -c '[.checks[] | select(.passed and .max_difference == 0) | .frame]' replay.json)" = '[13,15,16]' ] ||
  fail "frames differ: $(jq -c .checks replay.json)"
# Buffers placed where the host cannot see them: the copies run on the device.
env -u DISPLAY "$REPLAY" gl.trace --compare --stage-updates --json > staged.json 2> staged.err ||
  { cat staged.err >&2; fail "--stage-updates"; }
[ "$(jq -c '[.checks[] | .max_difference] | max' staged.json)" = 0 ] || fail "device copies changed the pixels"
jq -e '.adapted | index("buffers the host cannot see that share bytes with another: by device copies") != null' \
  staged.json > /dev/null || fail "no device copies between aliased buffers"
# A damaged copy is refused before the driver sees it (exit 1, the call named).
command -v python3 > /dev/null || skip "needs python3 to edit captures"
n=$(jq -r 'select(.type == "call" and .name == "trakCopyBuffer") | .no' trace.jsonl | head -n 1)
"$CONVERT" gl.trace --to trace --codec gzip -o gl.gz.trace || fail "trak-convert --codec gzip"
python3 "$SRC/edit_trace.py" gl.gz.trace bad.trace "$n" 'regions[0].size' 99999999 || fail "edit_trace"
rc=0
env -u DISPLAY "$REPLAY" bad.trace > /dev/null 2> bad.err || rc=$?
[ $rc = 1 ] && grep -q "call $n trakCopyBuffer: a copy past a buffer's end" bad.err ||
  { cat bad.err >&2; fail "a copy past a buffer's end: exit $rc"; }
exit 0
