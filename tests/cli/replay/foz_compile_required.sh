# needs: vulkan device
# fossilize-replay's check of a warm cache: --fail-on-pipeline-compile-required asks the driver for each
# pipeline from its cache first and counts the misses, then compiles them; --skip-pipelines-on-compile-required
# leaves the misses out. lavapipe keeps no pipeline cache: every pipeline misses. Without either option
# nothing is asked of the cache.
synth="$DATA/foz/synth_compute.foz" cube="$DATA/foz/vkcube.72991ed96a80f842.1.foz"
run() { "$REPLAY" "$cube" "$synth" --range compute:0-9 --jobs 2 --no-progress --json "$@" |
  jq -c '[.compile_required, .graphics.ok, .graphics.cache_misses, .compute.ok, .compute.skipped, .compute.cache_misses]'; }
run
run --fail-on-pipeline-compile-required
run --skip-pipelines-on-compile-required
run --skip-pipelines-on-compile-required --in-process
"$REPLAY" "$cube" --jobs 1 --no-progress --fail-on-pipeline-compile-required | grep '^cache '
echo "exit $?"
