printf '%b1,0.0,0,vmaCreateAllocator\n1,0.1,0,vmaFrobnicate,1\nx,0.1,0,vmaDestroyAllocator\n1,0.2,0,vmaDestroyAllocator\n' 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n' >r.csv
"$STAT" --keep-going --json r.csv | jq -c '[.calls, .warnings]'
