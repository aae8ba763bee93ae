# vkcube traced (--trace): apitrace reads the stream and shows named calls
# with enum, flag and member names; a frame per present; the uniform buffer
# vkcube rewrites every frame and its texture come as update records; the
# two memory types lavapipe's one becomes; snapshots of the frames asked for.
. "$SRC/lib.sh"
need_xvfb vkcube vulkan-tools
need_apitrace
xrun "$CAPTURE" --trace cube.trace --snapshot 1,30 --json -o report.json -- vkcube --c 30 > cube.out 2> cube.err ||
  { cat cube.err >&2; fail "trak-capture --trace vkcube"; }
apitrace dump cube.trace > dump.txt 2> dump.err || { cat dump.err >&2; fail "apitrace dump"; }
grep -q '^[0-9]* vkCreateSwapchainKHR(device = 0x[0-9a-f]*, pCreateInfo = &{sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR, ' dump.txt ||
  fail "no named vkCreateSwapchainKHR"
grep -q 'imageFormat = VK_FORMAT_B8G8R8A8_' dump.txt || fail "no format name"
grep -q 'usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT' dump.txt || fail "no flag names"
grep -q '^[0-9]* vkQueuePresentKHR(queue = 0x[0-9a-f]*, pPresentInfo = &{' dump.txt || fail "no presents"
"$CONVERT" cube.trace | cmp -s - dump.txt || fail "trak-convert's dump differs from apitrace dump"
[ "$(jq '.traces | length' report.json)" = 1 ] || fail "report: one trace"
[ "$(jq '.traces[0].frames.count' report.json)" = 30 ] || fail "report: $(jq '.traces[0].frames.count' report.json) frames, vkcube presented 30"
[ "$(jq '.traces[0].snapshots' report.json)" = 2 ] || fail "report: snapshots"
[ "$("$STAT" --json cube.trace | jq .frames.count)" = 30 ] || fail "trak-stat: frames"
jsonl cube.trace
[ "$(jq -c 'select(.type == "call")' trace.jsonl | wc -l)" = "$(jq '.traces[0].calls' report.json)" ] || fail "jsonl: one line per call"
# The uniform buffer: before every submit that follows a host write.
[ "$(calls trakUpdateBuffer)" -ge 30 ] || fail "$(calls trakUpdateBuffer) buffer updates in 30 frames"
texels=$(jq '[select(.name == "trakUpdateImage") | .args.runs[].members.data.blob] | add' trace.jsonl | jq -s add)
[ "$texels" -gt 100000 ] && [ "$texels" -le 262144 ] || fail "$texels bytes of updates of the 256x256 RGBA texture"
# Every update comes before the submit that reads it: none after the last submit.
last_submit=$(jq 'select(.name == "vkQueueSubmit") | .no' trace.jsonl | tail -n 1)
[ "$(jq --argjson s "$last_submit" 'select(.name == "trakUpdateBuffer" and .no > $s) | .no' trace.jsonl | wc -l)" = 0 ] ||
  fail "updates after the last submit"
types=$(jq 'select(.name == "vkGetPhysicalDeviceMemoryProperties") | .args.pMemoryProperties[0].members.memoryTypeCount' trace.jsonl | sort -u)
[ "$types" = 2 ] || fail "the application saw $types memory types, not lavapipe's one split in two"
real=$(jq 'select(.name == "trakPhysicalDevice") | .args.memoryProperties.members.memoryTypeCount' trace.jsonl)
[ "$real" = 1 ] || fail "trakPhysicalDevice records $real real memory types"
[ "$(png_size cube.snapshots/frame-000001.png)" = "500 500" ] || fail "frame 1's snapshot"
[ "$(png_size cube.snapshots/frame-000030.png)" = "500 500" ] || fail "frame 30's snapshot"
cmp -s cube.snapshots/frame-000001.png cube.snapshots/frame-000030.png && fail "frames 1 and 30 are the same picture"
[ "$(calls trakSnapshot)" = 2 ] || fail "trakSnapshot calls"
# Both recorders in one run: the archive as without the trace, the trace as without the archive.
xrun "$CAPTURE" --trace both.trace --foz both --json -o both.json -- vkcube --c 20 > both.out 2> both.err ||
  { cat both.err >&2; fail "trak-capture --trace --foz"; }
[ "$(jq '.archives[0].entries_per_tag.graphics_pipeline' both.json)" = 1 ] || fail "--foz beside --trace"
[ "$(jq '.traces[0].frames.count' both.json)" = 20 ] || fail "--trace beside --foz"
exit 0
