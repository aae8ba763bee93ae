# A memory type on a heap the Config section does not list is an error (its
# bytes would count towards no heap); values left out are warnings.
printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nPhysicalDeviceMemory,HeapCount,1\nPhysicalDeviceMemory,Heap,0,size,1024\nPhysicalDeviceMemory,Heap,0,flags,1\nPhysicalDeviceMemory,TypeCount,2\nPhysicalDeviceMemory,Type,0,heapIndex,0\nPhysicalDeviceMemory,Type,0,propertyFlags,1\nPhysicalDeviceMemory,Type,1,heapIndex,3\nPhysicalDeviceMemory,Type,1,propertyFlags,6\nConfig,End\n1,0.0,0,vmaCreateAllocator\n' >oob.csv
"$STAT" oob.csv >/dev/null
echo "exit $?"
printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nPhysicalDeviceMemory,HeapCount,1\nPhysicalDeviceMemory,Heap,0,size,1024\nPhysicalDeviceMemory,TypeCount,1\nPhysicalDeviceMemory,Type,0,propertyFlags,1\nConfig,End\n1,0.0,0,vmaCreateAllocator\n' >missing.csv
"$STAT" --json missing.csv | jq .warnings
# A pool on a memory type the recording does not have: its allocations have
# no resolvable type, in trak-stat as in --simulate.
printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nPhysicalDeviceMemory,HeapCount,1\nPhysicalDeviceMemory,Heap,0,size,1048576\nPhysicalDeviceMemory,Heap,0,flags,1\nPhysicalDeviceMemory,TypeCount,1\nPhysicalDeviceMemory,Type,0,heapIndex,0\nPhysicalDeviceMemory,Type,0,propertyFlags,1\nConfig,End\n1,0.0,0,vmaCreateAllocator\n1,0.1,0,vmaCreatePool,50,0,65536,0,0,0,0000000000002000\n1,0.2,0,vmaAllocateMemory,4096,256,1,0,0,0,0,0,0000000000002000,000000000000A000,\n' >pool.csv
"$STAT" --json pool.csv | jq -c '[.unresolved_memory_type_allocations, .heaps[0].peak_live_bytes]'
"$REPLAY" --simulate --json pool.csv | jq .unresolved_memory_type
