# The layer changes nothing the application sees but the memory types:
# vulkaninfo's whole report with the trace on equals the one without it,
# except the types (lavapipe's one DEVICE_LOCAL|HOST_VISIBLE type shown as a
# device-local one and a host-visible one). And its trace reads back.
. "$SRC/lib.sh"
command -v vulkaninfo >/dev/null || skip "needs vulkaninfo (package vulkan-tools)"
need_apitrace
# The plain run has what the test's environment stacks, validation too.
LAYERS= with_layer vulkaninfo > plain.txt 2> plain.err || fail "vulkaninfo"
with_layer env TRAK_CAPTURE_TRACE=$work/vi.trace \
  vulkaninfo > traced.txt 2> traced.err || fail "vulkaninfo with the trace"
# Everything from "memoryTypes:" to the next blank line is the types' section.
types() { awk '/^memoryTypes:/ {t = 1} t && /^$/ {t = 0} t' "$1"; }
others() { awk '/^memoryTypes:/ {t = 1} t && /^$/ {t = 0} !t' "$1"; }
others plain.txt > plain.rest
others traced.txt > traced.rest
diff plain.rest traced.rest >&2 || fail "the layer changed what vulkaninfo sees beyond the memory types"
[ "$(types plain.txt | head -n 1)" = "memoryTypes: count = 1" ] || skip "the device is not lavapipe: $(types plain.txt | head -n 1)"
[ "$(types traced.txt | head -n 1)" = "memoryTypes: count = 2" ] || fail "the types were not split"
types traced.txt | grep -q 'propertyFlags = 0x0001' || fail "no device-local type"
types traced.txt | grep -q 'propertyFlags = 0x000e' || fail "no host-visible type"
apitrace dump vi.trace > dump.txt 2> dump.err || { cat dump.err >&2; fail "apitrace dump of vulkaninfo's trace"; }
grep -q 'vkGetPhysicalDeviceFeatures2' dump.txt || fail "no feature query in the trace"
# The feature and property queries hold pNext chains of ~100 structs (~200
# levels of nesting): trak reads them all, as apitrace does.
"$CONVERT" vi.trace > trak.txt || fail "trak-convert of vulkaninfo's trace"
cmp -s dump.txt trak.txt || fail "trak-convert's dump of vulkaninfo's trace differs from apitrace's"
calls=$(apitrace dump -v vi.trace 2>/dev/null | grep -c '^[0-9]')
"$STAT" --json vi.trace > stat.json || fail "trak-stat of vulkaninfo's trace"
[ "$(jq .calls stat.json)" = "$calls" ] || fail "trak-stat counts $(jq .calls stat.json) calls, apitrace $calls"
"$CAPTURE" --trace again.trace --json -o report.json -- vulkaninfo > /dev/null 2>&1 || fail "trak-capture of vulkaninfo"
[ "$(apitrace dump -v again.trace 2>/dev/null | grep -c '^[0-9]')" = "$(jq '.traces[0].calls' report.json)" ] ||
  fail "trak-capture's report counts other calls than apitrace: $(cat report.json)"
exit 0
