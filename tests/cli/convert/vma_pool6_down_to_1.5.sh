# The last 1.8 recorder's six-column vmaCreatePool gains frameInUseCount (0,
# VMA's default) in every other version, so that the file reads back.
printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n1,0.0,0,vmaCreateAllocator\n1,0.1,0,vmaCreatePool,0,0,1048576,0,0,0000000000002000\n1,0.2,0,vmaDestroyPool,0000000000002000\n' >r.csv
"$CONVERT" r.csv --to csv --version 1.5 -o r15.csv
grep vmaCreatePool r15.csv
"$STAT" --json r15.csv | jq -c '[.version, .pools[0].block_size]'
"$CONVERT" r15.csv --to csv --version 1.8 | grep vmaCreatePool
