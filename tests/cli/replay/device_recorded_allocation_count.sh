# needs: vulkan device
# The recorded device's maxMemoryAllocationCount (4096 here) holds on a device that allows more (lavapipe:
# 2^32 - 1): a pool asking for 5,000 minimum blocks fails, as it must have on the recorded device, one of
# 100 is made. [pools, pool failures, device memory objects]
sed -n '1,/^Config,End/p' "$DATA/vma/vma_doc_example_1.8_final.csv" >p.csv
printf '1,0.0,0,vmaCreateAllocator\n1,0.1,0,vmaCreatePool,0,0,4096,5000,0,0,00000000000000C1\n' >>p.csv
printf '1,0.2,0,vmaCreatePool,0,0,4096,100,0,0,00000000000000C2\n' >>p.csv
grep -c '^PhysicalDeviceLimits,maxMemoryAllocationCount,4096$' p.csv
"$REPLAY" --json p.csv 2>/dev/null | jq -c '[.pools, .pool_failures, .device_memory_allocations.count]'
