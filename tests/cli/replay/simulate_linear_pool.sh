# A hand-written recording (tests/data/vma/linear_pool_1.8.csv) makes the same calls in a free-list pool
# (memory type 0, heap 0) and a linear pool (type 2, heap 2) of 64 KiB blocks: 16 KiB allocations at 0, 16
# and 32 KiB, the middle one freed, two more. The free list puts the fourth in the hole and the fifth at
# 48 KiB: one block. The linear pool puts the fourth at 48 KiB (after the last one; the hole is not reused)
# and has no room left for the fifth (the end is reached and the first allocation still holds the start, so
# nothing wraps): a second block. Used at a heap's peak: 16 KiB when heap 0's block was made, four
# allocations when heap 2's second one was. Fragmentation there: heap 0's block has one unused range
# (48 KiB after the first allocation): 0 %. Heap 2's first block has the 16 KiB hole, which a linear
# block never refills, and no room at its end; the second has 48 KiB after the fifth allocation: 16 of
# the 64 KiB unused lie outside a block's largest range, 25 %.
"$REPLAY" --simulate "$DATA/vma/linear_pool_1.8.csv" | sed -n '/^Memory/,/^Function/p' | sed '$d'
# Heap 2 in --json: [unused ranges, largest, fragmentation] at the peak.
"$REPLAY" --simulate --json "$DATA/vma/linear_pool_1.8.csv" |
  jq -c '.heaps[2] | [.unused_ranges_at_peak, .largest_usable_range_at_peak_bytes, .fragmentation_at_peak]'
# [peak blocks, peak committed bytes, peak blocks per heap]
# The linear pool made a free-list one: one block in heap 2 as well.
sed 's/vmaCreatePool,2,4,/vmaCreatePool,2,0,/' "$DATA/vma/linear_pool_1.8.csv" | "$REPLAY" --simulate --json - |
  jq -c '[.peak_blocks, .peak_committed_bytes, [.heaps[] | .peak_blocks]]'
# VMA_DEBUG_MARGIN 16: 16 bytes before, between and after allocations. The free-list pool's hole (16,416
# bytes between 16,400 and 32,816) still takes the fourth with its two margins, but the 16,336 bytes left
# after the third cannot take the fifth. The linear pool's third ends at 49,200: the fourth needs a second
# block, where the fifth follows it. Two blocks each.
sed 's/VMA_DEBUG_MARGIN,0/VMA_DEBUG_MARGIN,16/' "$DATA/vma/linear_pool_1.8.csv" | "$REPLAY" --simulate --json - |
  jq -c '[.peak_blocks, .peak_committed_bytes, [.heaps[] | .peak_blocks]]'
