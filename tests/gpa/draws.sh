# --per draw samples every draw and dispatch command the device has (the
# multi-draws zink uses, indirect counts, dispatch bases...), or says that
# none was seen.
. "$SRC/lib.sh"

profile draws --per draw -o draws.json -- "$WORK" --draws --frames 3
[ "$rc" = 0 ] || { cat draws.err >&2; fail "exit $rc"; }
per_frame=$(sed -n 's/^draws per frame: //p' draws.out)
[ "${per_frame:-0}" -ge 9 ] || fail "lavapipe should have 9 or more kinds of draw and dispatch: $per_frame"
expect draws.json '[.samples[] | select(.frame == 2)] | length' "$per_frame"
expect draws.json '[.samples[] | .scope] | unique | length' "$per_frame"

profile none --per draw -- "$WORK" --no-work
[ "$rc" = 0 ] || { cat none.err >&2; fail "no draws: exit $rc"; }
grep -q "trak-gpa: warning: no draw or dispatch was sampled" none.err || { cat none.err >&2; fail "no warning"; }

need_xvfb glmark2 glmark2-x11
MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 xrun "$GPA" profile --per draw -o gl.json -- \
  glmark2 -s 320x240 -b build:nframes=5 > gl.out 2> gl.err
rc=$?
[ "$rc" = 0 ] || { cat gl.err >&2; fail "glmark2 on zink: exit $rc"; }
[ "$(jq '.samples | length' gl.json)" -ge 5 ] || { cat gl.err >&2; fail "glmark2 on zink: too few draws sampled"; }
