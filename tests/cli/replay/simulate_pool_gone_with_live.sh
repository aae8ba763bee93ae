# A pool destroyed, or created again at its address, while allocations are
# still in it (VMA asserts against it; a recording can hold it): those stay
# live in no block, and freeing them later is harmless.
printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nPhysicalDeviceMemory,HeapCount,1\nPhysicalDeviceMemory,Heap,0,size,1073741824\nPhysicalDeviceMemory,Heap,0,flags,1\nPhysicalDeviceMemory,TypeCount,1\nPhysicalDeviceMemory,Type,0,heapIndex,0\nPhysicalDeviceMemory,Type,0,propertyFlags,1\nConfig,End\n1,0.0,0,vmaCreateAllocator\n1,0.1,0,vmaCreatePool,0,0,65536,1,0,0,0000000000002000\n1,0.2,0,vmaAllocateMemory,4096,256,1,0,0,0,0,0,0000000000002000,000000000000A000,\n1,0.3,0,vmaCreatePool,0,0,65536,1,0,0,0000000000002000\n1,0.4,0,vmaAllocateMemory,4096,256,1,0,0,0,0,0,0000000000002000,000000000000B000,\n1,0.5,0,vmaDestroyPool,0000000000002000\n1,0.6,0,vmaFreeMemory,000000000000A000\n1,0.7,0,vmaFreeMemory,000000000000B000\n' >r.csv
"$REPLAY" --simulate --json r.csv | jq -c '[.heaps[0].peak_committed_bytes, .heaps[0].peak_blocks, .heaps[0].committed_at_end_bytes]'
"$STAT" --json r.csv | jq -c '[.peak_live_allocations, .live_at_end, .reused_live_pointers]'
