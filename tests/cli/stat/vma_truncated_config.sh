printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nPhysicalDevice,deviceID,1\n' >r.csv
"$STAT" r.csv
