printf '%b1,0.0,0,vmaCreateAllocator\n1,0.1,0,vmaFrobnicate,1\nx,0.1,0,vmaDestroyAllocator\n1,0.2,0,vmaDestroyAllocator\n' 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n' >r.csv
"$STAT" --keep-going --json r.csv | jq -c '[.calls, .warnings]'
# A Config line of a kind trak does not know (a later recorder's) is a warning too, but it drops no
# line: the table's calls row and --json tell the two apart.
sed 's/^Config,End$/PhysicalDeviceFeatures,sparseBinding,1\nConfig,End/' r.csv >r2.csv
"$STAT" --keep-going r2.csv | grep '^calls '
"$STAT" --keep-going --json r2.csv | jq -c '[.calls, .warnings, .dropped_lines]'
# With nothing dropped, the row says so.
grep -v 'vmaFrobnicate\|^x,' r2.csv >r3.csv
"$STAT" r3.csv | grep '^calls '
