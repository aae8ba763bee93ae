# needs: vulkan device
# --trace with --json -o FILE: the trace's figures as trak-stat --json has them.
"$CAPTURE" --trace t.trace --json -o report.json -- "$APPS/capture_trace_threads" --threads 3 --rounds 2
jq -c '{status, archives, traces: [.traces[] | {file, api, incomplete_calls, snapshots, frames: .frames.count}]}' report.json
