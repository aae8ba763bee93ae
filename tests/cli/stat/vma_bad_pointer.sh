printf '%b1,0.0,0,vmaDestroyBuffer,XYZ\n' 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n' >r.csv
"$STAT" r.csv >/dev/null
