// SPDX-License-Identifier: MIT
// Generates a realistic VMA calls recording (format 1.8) for benchmarks:
// several threads, custom pools (free-list, linear and buddy ones), every 1.8
// function, the quirks of real files (pointer reuse, failed creations, user
// data with commas, time stepping back across threads, trailing commas). Not
// installed.
// usage: vma-gen CALLS [THREADS] [SEED] > rec.csv
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

struct Gen {
  explicit Gen(std::uint64_t seed) : rng(seed) {}
  std::mt19937_64 rng;
  std::vector<std::uint64_t> live, free_ptrs, pools;
  std::uint64_t next_ptr = 0x000001D85B8B0000ull;
  double time = 0;
  unsigned frame = 0;

  std::uint64_t ptr() {
    if (!free_ptrs.empty() && rng() % 2) {
      const std::uint64_t p = free_ptrs.back();
      free_ptrs.pop_back();
      return p;
    }
    return next_ptr += 0x48;
  }
  std::uint64_t take_live() {
    const std::size_t k = rng() % live.size();
    const std::uint64_t p = live[k];
    live[k] = live.back();
    live.pop_back();
    free_ptrs.push_back(p);
    return p;
  }
  std::uint64_t any_live() { return live[rng() % live.size()]; }
  std::uint64_t pool() { return pools.empty() || rng() % 4 ? 0 : pools[rng() % pools.size()]; }
  const char* user_data() {
    static const char* names[] = {
        "", "", "Vertex buffer", "texture, mip chain, \"albedo\"", "Uniform buffer #3", "00000000DEADBEEF"};
    return names[rng() % 6];
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: vma-gen CALLS [THREADS] [SEED] > rec.csv\n");
    return 2;
  }
  const long calls = std::atol(argv[1]);
  const unsigned threads = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 4;
  Gen g(argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1);
  std::printf(
      "Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nVulkanApiVersion,1,1\n"
      "PhysicalDevice,apiVersion,4198477\nPhysicalDevice,driverVersion,8388653\nPhysicalDevice,vendorID,4098\n"
      "PhysicalDevice,deviceID,26751\nPhysicalDevice,deviceType,2\nPhysicalDevice,deviceName,Generated GPU, Rev. 2\n"
      "PhysicalDeviceLimits,maxMemoryAllocationCount,4096\nPhysicalDeviceLimits,bufferImageGranularity,1\n"
      "PhysicalDeviceLimits,nonCoherentAtomSize,128\nPhysicalDeviceMemory,HeapCount,3\n"
      "PhysicalDeviceMemory,Heap,0,size,8304721920\nPhysicalDeviceMemory,Heap,0,flags,3\n"
      "PhysicalDeviceMemory,Heap,1,size,8286175232\nPhysicalDeviceMemory,Heap,1,flags,0\n"
      "PhysicalDeviceMemory,Heap,2,size,268435456\nPhysicalDeviceMemory,Heap,2,flags,3\n"
      "PhysicalDeviceMemory,TypeCount,4\nPhysicalDeviceMemory,Type,0,heapIndex,0\n"
      "PhysicalDeviceMemory,Type,0,propertyFlags,1\nPhysicalDeviceMemory,Type,1,heapIndex,1\n"
      "PhysicalDeviceMemory,Type,1,propertyFlags,6\nPhysicalDeviceMemory,Type,2,heapIndex,2\n"
      "PhysicalDeviceMemory,Type,2,propertyFlags,7\nPhysicalDeviceMemory,Type,3,heapIndex,1\n"
      "PhysicalDeviceMemory,Type,3,propertyFlags,14\nExtension,VK_KHR_dedicated_allocation,1\n"
      "Extension,VK_KHR_bind_memory2,1\nExtension,VK_EXT_memory_budget,1\nExtension,VK_AMD_device_coherent_memory,0\n"
      "Macro,VMA_DEBUG_ALWAYS_DEDICATED_MEMORY,0\nMacro,VMA_DEBUG_ALIGNMENT,1\nMacro,VMA_DEBUG_MARGIN,0\n"
      "Macro,VMA_DEBUG_INITIALIZE_ALLOCATIONS,0\nMacro,VMA_DEBUG_DETECT_CORRUPTION,0\nMacro,VMA_DEBUG_GLOBAL_MUTEX,0\n"
      "Macro,VMA_DEBUG_MIN_BUFFER_IMAGE_GRANULARITY,1\nMacro,VMA_SMALL_HEAP_MAX_SIZE,1073741824\n"
      "Macro,VMA_DEFAULT_LARGE_HEAP_BLOCK_SIZE,268435456\nConfig,End\n");
  std::printf("12552,0.000,0,vmaCreateAllocator\n");
  for (long i = 2; i < calls; ++i) {
    const unsigned tid = 12552 + static_cast<unsigned>(g.rng() % threads) * 4;
    g.time += static_cast<double>(g.rng() % 100) * 1e-5;
    // Another thread's stamp may be taken before the previous line's.
    const double t = g.rng() % 50 == 0 && g.time > 0.001 ? g.time - 0.001 : g.time;
    if (g.rng() % 500 == 0) ++g.frame;
    std::printf("%u,%.3f,%u,", tid, t, g.frame);
    const unsigned r = static_cast<unsigned>(g.rng() % 100);
    const bool destroy = !g.live.empty() && (r < 38 || g.live.size() > 20000);
    if (destroy) {
      const unsigned k = static_cast<unsigned>(g.rng() % 10);
      if (k < 5)
        std::printf("vmaDestroyBuffer,%016" PRIX64 "\n", g.take_live());
      else if (k < 7)
        std::printf("vmaDestroyImage,%016" PRIX64 "\n", g.take_live());
      else if (k < 9)
        std::printf("vmaFreeMemory,%016" PRIX64 "\n", g.take_live());
      else if (g.live.size() >= 2)
        std::printf("vmaFreeMemoryPages,%016" PRIX64 " %016" PRIX64 "\n", g.take_live(), g.take_live());
      else
        std::printf("vmaFreeMemory,%016" PRIX64 "\n", g.take_live());
      continue;
    }
    if (r < 60) {
      const bool failed = g.rng() % 200 == 0;
      const std::uint64_t p = failed ? 0 : g.ptr();
      const unsigned flags = g.rng() % 3 == 0 ? 0x20 : 0;  // USER_DATA_COPY_STRING
      std::printf("vmaCreateBuffer,0,%" PRIu64 ",%u,0,%u,%u,0,0,0,%016" PRIX64 ",%016" PRIX64 ",%s\n",
                  static_cast<std::uint64_t>(64ull << (g.rng() % 16)), 1u << (g.rng() % 9), flags,
                  1 + static_cast<unsigned>(g.rng() % 4), g.pool(), p, flags ? g.user_data() : "");
      if (p) g.live.push_back(p);
    } else if (r < 68) {
      const std::uint64_t p = g.ptr();
      const unsigned s = 16u << (g.rng() % 8);
      std::printf("vmaCreateImage,0,1,%u,%u,%u,1,%u,1,1,0,%u,0,0,0,1,0,0,0,%016" PRIX64 ",%016" PRIX64 ",\n",
                  g.rng() % 2 ? 37u : 126u, s, s, 1 + static_cast<unsigned>(g.rng() % 8), g.rng() % 2 ? 6u : 32u,
                  g.pool(), p);
      g.live.push_back(p);
    } else if (r < 73) {
      const std::uint64_t p = g.ptr();
      std::printf("vmaAllocateMemory,%" PRIu64 ",256,15,0,%u,0,0,0,%016" PRIX64 ",%016" PRIX64 ",\n",
                  static_cast<std::uint64_t>(4096ull << (g.rng() % 8)), 1 + static_cast<unsigned>(g.rng() % 4),
                  g.pool(), p);
      g.live.push_back(p);
    } else if (r < 76) {
      const std::uint64_t p = g.ptr();
      std::printf("vmaAllocateMemoryFor%s,65536,256,15,%u,%u,0,1,0,0,0,0000000000000000,%016" PRIX64 ",\n",
                  g.rng() % 2 ? "Buffer" : "Image", static_cast<unsigned>(g.rng() % 2),
                  static_cast<unsigned>(g.rng() % 2), p);
      g.live.push_back(p);
    } else if (r < 78) {
      const std::uint64_t a = g.ptr(), b = g.ptr();
      std::printf("vmaAllocateMemoryPages,65536,256,15,0,1,0,0,0,0000000000000000,%016" PRIX64 " %016" PRIX64 ",\n", a,
                  b);
      g.live.push_back(a);
      g.live.push_back(b);
    } else if (r < 79 && g.pools.size() < 8) {
      const std::uint64_t p = g.next_ptr += 0x48;
      // Every second and third pool is a linear and a buddy one (VMA's
      // LINEAR_ALGORITHM_BIT and BUDDY_ALGORITHM_BIT); chosen by count, so
      // that the random stream, and every other line, stays as it was.
      static const unsigned kPoolFlags[] = {0, 0x4, 0x8};
      std::printf("vmaCreatePool,%u,%u,16777216,0,0,0,%016" PRIX64 "\n", static_cast<unsigned>(g.rng() % 4),
                  kPoolFlags[g.pools.size() % 3], p);
      g.pools.push_back(p);
      std::printf("%u,%.3f,%u,vmaSetPoolName,%016" PRIX64 ",Pool %zu, generated\n", tid, t, g.frame, p, g.pools.size());
      ++i;
    } else if (r < 88 && !g.live.empty()) {
      const std::uint64_t p = g.any_live();
      const unsigned k = static_cast<unsigned>(g.rng() % 6);
      if (k == 0)
        std::printf("vmaMapMemory,%016" PRIX64 "\n", p);
      else if (k == 1)
        std::printf("vmaUnmapMemory,%016" PRIX64 "\n", p);
      else if (k == 2)
        std::printf("vmaFlushAllocation,%016" PRIX64 ",0,18446744073709551615\n", p);
      else if (k == 3)
        std::printf("vmaInvalidateAllocation,%016" PRIX64 ",0,256\n", p);
      else if (k == 4)
        std::printf("vmaGetAllocationInfo,%016" PRIX64 "\n", p);
      else
        std::printf("vmaSetAllocationUserData,%016" PRIX64 ",%s\n", p, g.user_data());
    } else if (r < 89 && !g.live.empty()) {
      std::printf("vmaDefragmentationBegin,0,%016" PRIX64
                  ",,18446744073709551615,4294967295,0,0,0000000000000000,0000000000000000\n",
                  g.any_live());
    } else if (r < 90) {
      const std::uint64_t p = g.ptr();
      std::printf("vmaCreateLostAllocation,%016" PRIX64 "\n", p);
      g.live.push_back(p);
    } else if (r < 91 && !g.pools.empty()) {
      std::printf("vmaMakePoolAllocationsLost,%016" PRIX64 "\n", g.pools[g.rng() % g.pools.size()]);
    } else if (!g.live.empty()) {
      std::printf("vmaTouchAllocation,%016" PRIX64 "\n", g.any_live());
    } else {
      std::printf("vmaTouchAllocation,0000000000000000\n");
    }
  }
  std::printf("12552,%.3f,%u,vmaDestroyAllocator\n", g.time, g.frame);
  return 0;
}
