# needs: vulkan device
# inexor's recording: 36 calls, 15 buffers, 3 images, one thread, 2 images never destroyed.
"$REPLAY" --json "$DATA/vma/inexor_vma_replays_rst_1.8.csv" |
  jq -c '[.calls, .buffers, .images, .allocations_created, .threads, .pools, .leaks.allocations, .failed_here.total, .total.peak_allocations]'
