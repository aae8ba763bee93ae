printf '%b1,0.0,0,vmaCreateAllocator\n1,0.1,0,vmaCreateBuf' 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n' >r.csv
"$STAT" --json r.csv | jq -c '[.calls, .warnings]'
