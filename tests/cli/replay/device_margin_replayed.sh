# needs: vulkan device
# The replay keeps VMA_DEBUG_MARGIN (the allocator leaves the same margins), so
# the summary names only the debug macros it does not repeat.
"$REPLAY" "$DATA/vma/inexor_vma_replays_rst_1.8.csv" --json | jq -c '[.device_differences[] | select(startswith("VMA_"))]'
