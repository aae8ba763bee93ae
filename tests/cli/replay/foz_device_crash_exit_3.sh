# needs: vulkan device
shared="$DATA/foz"
# A worker that crashes (injected through the test hook) costs one pipeline:
# the run finishes, lists it, and exits 3. Needs a Vulkan device (lavapipe).
foz="$shared/synth_compute.foz"
"$REPLAY" "$foz" --null-device --range compute:7 --skip-done one.foz >/dev/null
hash=$(tail -c 56 one.foz | head -c 40 | cut -c 25-40)
TRAK_REPLAY_TEST_CRASH=$hash "$REPLAY" "$foz" --range compute:0-19 --jobs 2 --json >out.json
rc=$?
jq -c '.compute | {total, ok, failed, crashed}' out.json
jq -r '.faulty[] | "\(.index) \(.signal) \(.reason)"' out.json
[ "$(jq -r '.faulty[0].hash' out.json)" = "$hash" ] && echo "the crashed one is the injected one"
exit $rc
