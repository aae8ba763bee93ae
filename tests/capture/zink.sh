# An OpenGL program on zink is a real Vulkan workload (dynamic state,
# pipeline libraries, many pipelines): captured, it replays completely.
. "$SRC/lib.sh"
need_xvfb glmark2 glmark2-x11
mkdir caps
set -- env MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 glmark2 -s 320x240 -b build:nframes=5 \
  -b texture:nframes=5 -b shading:shading=phong:nframes=5 -b effect2d:nframes=5 -b ideas:nframes=3 -b shadow:nframes=3
app_errors xrun "$@"
xrun "$CAPTURE" --foz caps/gl --json -o report.json -- "$@" > gl.out 2> gl.err ||
  { cat gl.out gl.err >&2; fail "trak-capture glmark2 on zink"; }
[ "$(jq '.archives | length' report.json)" = 1 ] || fail "expected one archive"
pipelines=$(jq '.archives[0].entries_per_tag.graphics_pipeline' report.json)
[ "$pipelines" -ge 10 ] || fail "only $pipelines graphics pipelines from six glmark2 scenes"
[ "$(jq '.archives[0].dangling_references | length' report.json)" = 0 ] || fail "dangling references"
"$CONVERT" caps/gl.*.foz --to json --check-hashes > /dev/null || fail "hashes do not check"
replays caps/gl.*.foz
