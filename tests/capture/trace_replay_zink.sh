# glmark2 on zink captured (dynamic rendering, push descriptors through
# update templates, extended dynamic state, timeline semaphores, textures
# uploaded through staging buffers), replayed offscreen: every snapshot
# frame equal bit for bit.
. "$SRC/lib.sh"
need_xvfb glmark2 glmark2-x11
MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 xrun "$CAPTURE" --trace gl.trace --snapshot 5,15,25,35,40 -- \
  glmark2 -s 320x240 -b build:nframes=10 -b texture:nframes=10 -b shading:nframes=10 -b bump:nframes=5 \
  -b effect2d:nframes=5 > cap.out 2> cap.err || { cat cap.err >&2; fail "trak-capture --trace glmark2"; }
env -u DISPLAY "$REPLAY" gl.trace --compare --json > replay.json 2> replay.err ||
  { cat replay.err replay.json >&2; fail "trak-replay --compare"; }
[ "$(jq '.frames' replay.json)" = 40 ] || fail "$(jq .frames replay.json) frames replayed"
[ "$(jq -c '[.checks[] | select(.passed and .max_difference == 0) | .frame]' replay.json)" = '[5,15,25,35,40]' ] ||
  fail "frames differ: $(jq -c .checks replay.json)"
# Every buffer update through a staging copy (as into memory the host cannot see): the same pixels.
env -u DISPLAY "$REPLAY" gl.trace --compare --stage-updates --json > staged.json 2> staged.err ||
  { cat staged.err >&2; fail "--stage-updates"; }
[ "$(jq -c '[.checks[] | .max_difference] | max' staged.json)" = 0 ] || fail "staged updates changed the pixels"
jq -e '.adapted | index("updates of buffers the host cannot see: through staging copies") != null' staged.json \
  > /dev/null || fail "no staging copies"
exit 0
