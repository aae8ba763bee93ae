printf 'Vulkan Memory Allocator,Calls recording\n1,9\n' >r.csv
"$STAT" r.csv
