# needs: vulkan device
# The emulated extension on lavapipe, as the extension itself reports it.
"$GPA" info --json | jq -c '{listed, native, spec_version, features, revision_id, timestamp_valid_bits,
  clocks: {query: .clocks.query, set_profiling: .clocks.set_profiling},
  blocks: [.blocks[] | {name, id, instances, max_event, counters: [.counters[].name]}]}'
