printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n1,0.0,0,vmaCreateAllocator\n1,0.0,0,vmaSetPoolName,00000000000000AA,x\n' >r.csv
"$CONVERT" r.csv --to csv --version 1.5 -o out.csv
echo "exit $?"
ls
