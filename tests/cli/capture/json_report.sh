# needs: vulkan device
# --json -o FILE: the report as JSON in FILE, nothing on stderr.
mkdir caps
"$CAPTURE" --foz caps/storm --json -o report.json -- "$APPS/capture_pipeline_storm" --threads 2 --graphics 20 --compute 5
jq -c '{status, archives: [.archives[] | {file, entries_per_tag}]}' report.json
