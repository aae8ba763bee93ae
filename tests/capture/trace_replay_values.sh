# Captures with one value changed (edit_trace.py) where drivers trust it:
# a binding its set's layout lacks, a view mask past the device's views, a
# first/count pair past a limit, an argument under another number, a shader
# spirv-val rejects. Each stops the replay with one line naming the call and
# the value, exit 1; before these checks lavapipe crashed on several.
. "$SRC/lib.sh"
need_xvfb vkcube vulkan-tools
need_xvfb glmark2 glmark2-x11
command -v python3 > /dev/null || skip "needs python3 to edit captures"
xrun "$CAPTURE" --trace cube.trace -- vkcube --c 3 > cap.out 2> cap.err || { cat cap.err >&2; fail "capture vkcube"; }
MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 xrun "$CAPTURE" --trace gl.trace -- \
  glmark2 -s 160x120 -b build:nframes=3 -b texture:nframes=3 > cap.out 2> cap.err || { cat cap.err >&2; fail "capture glmark2"; }
for t in cube gl; do
  "$CONVERT" $t.trace --to trace --codec gzip -o $t.gz.trace || fail "trak-convert --codec gzip"
  jsonl $t.trace $t.jsonl
done
# The number of the first call NAME in capture T.
first() { jq -r --arg n "$2" 'select(.type == "call" and .name == $n) | .no' "$1.jsonl" | head -n 1; }

# edited T CALL PATH VALUE WANT [replay options]: the capture T with one
# value changed replays to one line that says WANT, exit 1.
edited() {
  t=$1 call=$2 path=$3 value=$4 want=$5
  shift 5
  [ -n "$call" ] || fail "capture $t lacks the call for $path"
  python3 "$SRC/edit_trace.py" $t.gz.trace bad.trace "$call" "$path" "$value" || fail "edit_trace $call $path"
  rc=0
  timeout 120 env -u DISPLAY "$REPLAY" bad.trace "$@" > bad.out 2> bad.err || rc=$?
  [ $rc = 1 ] || { cat bad.err >&2; fail "$path = $value: exit $rc, not 1"; }
  [ "$(wc -l < bad.err)" = 1 ] || { cat bad.err >&2; fail "$path = $value: not one line"; }
  grep -qF "trak-replay: bad.trace: call $call " bad.err || { cat bad.err >&2; fail "$path = $value: call $call not named"; }
  grep -qF "$want" bad.err || { cat bad.err >&2; fail "$path = $value: the line does not say '$want'"; }
}

update=$(first cube vkUpdateDescriptorSets)
edited cube "$update" "pDescriptorWrites[0].dstBinding" 7 "write 0: dstBinding 7 is not in its set's layout"
edited cube "$update" "pDescriptorWrites[0].dstBinding" 4294967295 "dstBinding 4294967295 is not in its set's layout"
edited cube "$update" "pDescriptorWrites[0].dstArrayElement" 3 "elements 3 to 3 are past the descriptors of its set's layout"
edited cube "$update" "#pDescriptorWrites" 9 "parameter pDescriptorWrites missing"
bind=$(first cube vkCmdBindDescriptorSets)
edited cube "$bind" firstSet 5 "firstSet 5 + descriptorSetCount 1 is past its pipeline layout's setLayoutCount (1)"
edited cube "$(first cube vkCmdSetViewport)" firstViewport 1000 "is past this device's maxViewports"
module=$(first cube vkCreateShaderModule)
edited cube "$module" "pCreateInfo[0].pCode@20" 255 "vkCreateShaderModule: spirv-val: " --validate

edited gl "$(first gl vkCmdBeginRendering)" "pRenderingInfo[0].viewMask" 255 "a viewMask (255) with views past"
edited gl "$(first gl vkCreateDescriptorUpdateTemplate)" "pCreateInfo[0].pDescriptorUpdateEntries[0].dstBinding" 99 \
  "entry 0: dstBinding 99 is not in its set's layout"
edited gl "$(first gl vkCmdBindVertexBuffers)" firstBinding 40 "is past this device's maxVertexInputBindings"
edited gl "$(first gl vkCmdSetCullMode)" "#commandBuffer" 127 "parameter commandBuffer missing"
exit 0
