# vmaAllocateMemoryPages that failed leaves its pages null: each null page is
# a failed creation in trak-stat, --simulate and the device replay alike.
printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nPhysicalDeviceMemory,HeapCount,1\nPhysicalDeviceMemory,Heap,0,size,1073741824\nPhysicalDeviceMemory,Heap,0,flags,1\nPhysicalDeviceMemory,TypeCount,1\nPhysicalDeviceMemory,Type,0,heapIndex,0\nPhysicalDeviceMemory,Type,0,propertyFlags,1\nConfig,End\n1,0.0,0,vmaCreateAllocator\n1,0.1,0,vmaAllocateMemoryPages,100,16,1,0,1,0,0,0,0000000000000000,0000000000000000 0000000000000000,\n1,0.2,0,vmaAllocateMemoryPages,100,16,1,0,1,0,0,0,0000000000000000,0000000000000A00 0000000000000000,\n' >r.csv
"$STAT" --json r.csv | jq -c '[.allocations_created, .failed_creations]'
"$REPLAY" --simulate --json r.csv | jq -c '[.pages, .originally_failed]'
