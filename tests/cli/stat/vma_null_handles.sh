# A null pool or allocation in vmaDestroyPool, vmaSetPoolName or vmaSetAllocationUserData names nothing:
# the live pool keeps its name and stays live, the allocation keeps its user data (a null handle once
# reached an empty slot of the merge's tables, found by fuzz_vma).
{
  printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\n'
  printf 'PhysicalDeviceMemory,HeapCount,1\nPhysicalDeviceMemory,Heap,0,size,1073741824\nPhysicalDeviceMemory,Heap,0,flags,1\n'
  printf 'PhysicalDeviceMemory,TypeCount,1\nPhysicalDeviceMemory,Type,0,heapIndex,0\nPhysicalDeviceMemory,Type,0,propertyFlags,1\n'
  printf 'Config,End\n'
  printf '1,0.0,0,vmaCreateAllocator\n'
  printf '1,0.1,0,vmaCreatePool,0,0,65536,0,0,0,00000000000000C1\n'
  printf '1,0.2,0,vmaSetPoolName,00000000000000C1,scratch\n'
  printf '1,0.3,0,vmaAllocateMemory,4096,256,1,0,0,0,0,0,00000000000000C1,00000000000000A1,kept\n'
  printf '1,0.4,0,vmaSetPoolName,0000000000000000,null name\n'
  printf '1,0.5,0,vmaSetAllocationUserData,0000000000000000,null data\n'
  printf '1,0.6,0,vmaDestroyPool,0000000000000000\n'
  printf '1,0.7,0,vmaSetPoolName,(nil),glibc null\n'
} >n.csv
"$STAT" --json n.csv | jq -c '[.pools[] | [.name, .destroyed, .allocations]], [.leaks[] | [.user_data, .bytes]], .live_at_end'
