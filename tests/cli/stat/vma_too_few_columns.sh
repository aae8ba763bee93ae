printf '%b1,0.0,0,vmaCreateBuffer,0,64,1\n' 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n' >r.csv
"$STAT" r.csv >/dev/null
