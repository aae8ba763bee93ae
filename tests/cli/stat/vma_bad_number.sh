printf '%b1,0.0,0,vmaCreatePool,1,0,abc,0,0,0,0000000000000001\n' 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n' >r.csv
"$STAT" r.csv >/dev/null
