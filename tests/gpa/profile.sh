# trak-gpa profile on real programs (lavapipe): vkcube's frames sampled per
# command buffer, render pass and draw, with counters that match what vkcube
# draws (a cube: 36 vertices); and the extension's own client keeps working
# under the profiler (it samples itself; the profiler then keeps to times).
. "$SRC/lib.sh"
need_xvfb vkcube vulkan-tools
x() { xrun "$@"; }

x "$GPA" profile -o cb.json --html cb.html -- vkcube --c 30 > cube.out 2> cube.err || { cat cube.err >&2; fail "profile vkcube"; }
# A replay of a capture of it: no presents there, the replay's frame-end labels count instead.
x "$TOOLS/capture/trak-capture" --trace cube.trace -- vkcube --c 30 > cap.out 2> cap.err || { cat cap.err >&2; fail "capture vkcube"; }
"$GPA" profile -o replay.json -- "$TOOLS/replay/trak-replay" cube.trace > replay.out 2> replay.err ||
  { cat replay.err >&2; fail "profile trak-replay"; }
[ "$(jq .frames replay.json)" = 30 ] || fail "frames of the replay: $(jq .frames replay.json)"
[ "$(jq '[.samples[] | select(.frame >= 2)] | length' replay.json)" = 29 ] || fail "one command buffer per replayed frame"
[ "$(jq .frames cb.json)" = 30 ] || fail "frames: $(jq .frames cb.json)"
[ "$(jq '[.samples[] | select(.frame >= 2)] | length' cb.json)" = 29 ] || fail "one command buffer per frame"
[ "$(jq '[.samples[] | select(.frame >= 2) | .counters.vs_invocations] | unique' -c cb.json)" = "[36]" ] ||
  fail "vertex invocations per frame: $(jq -c '[.samples[].counters.vs_invocations] | unique' cb.json)"
jq -e '[.samples[] | .gpu_ns > 0] | all' cb.json > /dev/null || fail "a sample without GPU time"
jq -e '.gpu_ns_per_frame.median > 0 and .gpu_ns_per_frame.median <= .gpu_ns_per_frame.max' cb.json > /dev/null ||
  fail "per-frame times"
grep -q "<svg" cb.html || fail "no plot in the page"
grep -q "GPU time/frame" cube.err || fail "no summary on stderr"

x "$GPA" profile --per draw --counters ia_vertices,ia_primitives -o draw.csv -- vkcube --c 10 > d.out 2> d.err ||
  { cat d.err >&2; fail "profile per draw"; }
head -1 draw.csv | grep -qx "device,frame,command_buffer,scope,gpu_ns,ia_vertices,ia_primitives" || fail "CSV header"
grep -q ",draw 0," draw.csv || fail "no draw samples"
[ "$(grep ',draw 0,' draw.csv | cut -d, -f6,7 | sort -u)" = "36,12" ] || fail "per draw: $(grep ',draw 0,' draw.csv | head -3)"

x "$GPA" profile --per render-pass -o rp.json -- vkcube --c 5 > r.out 2> r.err || { cat r.err >&2; fail "per render pass"; }
jq -e '[.samples[] | select(.scope == "render pass 0")] | length >= 5' rp.json > /dev/null || fail "render pass samples"

"$GPA" profile -o client.json -- "$APPS/gpa_client" --quiet > client.out 2> client.err ||
  { cat client.err >&2; fail "the extension's client under the profiler"; }
grep -q "counters left to the application" client.err || fail "the layer did not step back from counters"
jq -e '.samples | length > 0' client.json > /dev/null || fail "no samples of the client"
