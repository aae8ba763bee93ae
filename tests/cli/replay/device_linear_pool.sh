# needs: vulkan device
# The recording of simulate_linear_pool on a device (its two pools in one memory type here):
# [peak blocks, peak committed bytes, device memory allocations, failures here]. The linear pool takes a
# second 64 KiB block, a free-list pool in its place does not, and VMA_DEBUG_MARGIN 16 gives each pool two.
rec="$DATA/vma/linear_pool_1.8.csv"
figures='[.total.peak_blocks, .total.peak_committed_bytes, .device_memory_allocations.count, .failed_here.total]'
"$REPLAY" --json "$rec" | jq -c "$figures"
sed 's/vmaCreatePool,2,4,/vmaCreatePool,2,0,/' "$rec" | "$REPLAY" --json - | jq -c "$figures"
sed 's/VMA_DEBUG_MARGIN,0/VMA_DEBUG_MARGIN,16/' "$rec" | "$REPLAY" --json - | jq -c "$figures"
# Fragmentation at the peak, as --simulate gives it for the linear pool's heap (the free-list pool's
# block is full then): the hole the linear pool never refills and 48 KiB after the fifth allocation in
# its second block. [unused ranges, largest, fragmentation]
"$REPLAY" --json "$rec" | jq -c '.total | [.unused_ranges_at_peak, .largest_usable_range_at_peak_bytes, .fragmentation_at_peak]'
