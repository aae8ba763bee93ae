printf 'Vulkan Memory Allocator,Calls recording\n1,5\n1,0.0,0,vmaCreateAllocator\n' >r.csv
"$STAT" r.csv
