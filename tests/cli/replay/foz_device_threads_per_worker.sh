# needs: vulkan device
# Four jobs as two worker processes of two threads; a pipeline that kills
# its process from outside (SIGKILL: no crash handler runs) is still named,
# its process's other pipelines made again. Needs a Vulkan device (lavapipe).
foz="$DATA/foz/synth_compute.foz"
"$REPLAY" "$foz" --null-device --range compute:9 --skip-done one.foz >/dev/null
hash=$(tail -c 56 one.foz | head -c 40 | cut -c 25-40)
"$REPLAY" "$foz" --range compute:0-39 --jobs 4 --threads-per-worker 2 --json --no-progress |
  jq -c '{jobs, threads_per_worker, workers_started, ok: .compute.ok}'
"$REPLAY" "$foz" --range compute:0-39 --jobs 3 --threads-per-worker 2 --no-progress | grep '^workers'
TRAK_REPLAY_TEST_KILL=$hash "$REPLAY" "$foz" --range compute:0-39 --jobs 4 --threads-per-worker 4 --json \
  --no-progress >out.json 2>err.txt
rc=$?
jq -c '.compute | {total, ok, crashed}' out.json
jq -r '.faulty[] | "\(.index) \(.signal) \(.reason)"' out.json
[ "$(jq -r '.faulty[0].hash' out.json)" = "$hash" ] && echo "the killed one is the injected one"
exit $rc
