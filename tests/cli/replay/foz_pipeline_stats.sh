# needs: vulkan device
# --pipeline-stats FILE: what the driver tells of each pipeline it made, as JSON Lines. lavapipe lacks
# VK_KHR_pipeline_executable_properties: one warning per run, and a file with no lines that scripts
# still find; the workers' own files (in a hidden folder next to FILE) never stay.
cube="$DATA/foz/vkcube.72991ed96a80f842.1.foz"
for mode in --jobs=2 --in-process; do
  "$REPLAY" "$cube" "$mode" --no-progress --pipeline-stats st.jsonl --json 2>err | jq -c '[.pipeline_stats, .pipeline_stats_lines]'
  sed 's/^trak-replay: warning: [^:]*: /trak-replay: warning: DEVICE: /' err
  wc -l <st.jsonl
done
ls -A | grep -c trak-replay
"$REPLAY" "$cube" --jobs 1 --no-progress --pipeline-stats no/such/dir/st.jsonl >/dev/null 2>err
echo "exit $?"
cat err
