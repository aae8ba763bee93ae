# GL programs on zink traced: glmark2's scenes drive dynamic rendering, push
# descriptors through update templates, extended dynamic state, timeline
# semaphores and mip-mapped textures. Everything reads back, a frame per
# presented frame, and the descriptor template data comes entry by entry.
# (zink uploads textures through staging buffers: they come as buffer updates.)
. "$SRC/lib.sh"
need_xvfb glmark2 glmark2-x11
need_apitrace
export MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1
set -- glmark2 -s 320x240 -b build:nframes=10 -b texture:nframes=10 -b shading:nframes=10 -b bump:nframes=5 \
  -b effect2d:nframes=5
app_errors xrun "$@"
xrun "$CAPTURE" --trace gl.trace --snapshot 12 --json -o report.json -- "$@" > gl.out 2> gl.err || { cat gl.err >&2; fail "trak-capture --trace glmark2"; }
apitrace dump gl.trace > dump.txt 2> dump.err || { cat dump.err >&2; fail "apitrace dump"; }
[ "$(jq '.traces[0].frames.count' report.json)" = 40 ] || fail "$(jq '.traces[0].frames.count' report.json) frames, glmark2 drew 40"
[ "$(jq '.traces[0].incomplete_calls' report.json)" = 0 ] || fail "incomplete calls"
jsonl gl.trace
for c in vkCmdBeginRendering vkCmdPushDescriptorSetWithTemplateKHR vkCreateDescriptorUpdateTemplate \
         vkCmdSetVertexInputEXT trakUpdateBuffer; do
  [ "$(calls $c)" -gt 0 ] || [ "$(calls ${c}KHR)" -gt 0 ] || fail "no $c"
done
grep -q 'VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO\|VK_SEMAPHORE_TYPE_TIMELINE' dump.txt || fail "no timeline semaphores"
# Template data as descriptor infos, not the application's block of bytes.
kinds=$(jq -r 'select(.name == "vkCmdPushDescriptorSetWithTemplateKHR") | .args.pData | type' trace.jsonl | sort -u)
[ "$kinds" = array ] || fail "push descriptor data as: $kinds"
grep -q 'pData = {&{buffer = 0x[0-9a-f]*, offset = [0-9]*, range = [0-9]*}' dump.txt || fail "no VkDescriptorBufferInfo in template data"
[ "$(png_size gl.snapshots/frame-000012.png)" = "320 240" ] || fail "frame 12's snapshot"
exit 0
