// SPDX-License-Identifier: MIT
// trak's allocator on the real device the tests run with (lavapipe).
#include "libtrace/vk/device_alloc.hpp"

#include <doctest/doctest.h>

#include <cstring>

using namespace libtrace;

namespace {

constexpr std::uint64_t MiB = 1ull << 20;

// An allocator on the device's first HOST_VISIBLE memory type, and the
// requests the tests make of it.
struct Alloc {
  vk::Instance instance;
  vk::Device device{instance, instance.select("")};
  std::uint32_t t = UINT32_MAX;
  vk::DeviceAllocator a;
  vk::Failure why{};

  explicit Alloc(const vk::AllocatorSettings& s = {}) : a(device, s) {
    const auto& mem = device.memory();
    for (std::uint32_t i = 0; i < mem.memoryTypeCount && t == UINT32_MAX; ++i)
      if (mem.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) t = i;
    REQUIRE(t != UINT32_MAX);
  }
  std::uint32_t heap_index() const { return device.memory().memoryTypes[t].heapIndex; }
  std::uint64_t heap_size() const { return device.memory().memoryHeaps[heap_index()].size; }
  // VMA 2.3's CalcPreferredBlockSize with the default macros.
  std::uint64_t vma_block_size() const {
    const std::uint64_t h = heap_size();
    return h <= (1ull << 30) ? h / 8 : 256 * MiB;
  }
  vk::AllocRequest req(std::uint64_t size, vk::Pool* pool = nullptr) const {
    vk::AllocRequest r;
    r.type = t;
    r.size = size;
    r.alignment = 256;
    r.kind = alloc::Kind::buffer;
    r.pool = pool;
    return r;
  }
  vk::Allocation* get(const vk::AllocRequest& r) { return a.allocate(r, why); }
  vk::Allocation* get(std::uint64_t size, vk::Pool* pool = nullptr) { return get(req(size, pool)); }
  vk::Pool* make_pool(std::uint64_t flags, std::uint64_t block_size, std::uint64_t min_blocks, std::uint64_t max_blocks,
                      std::uint32_t frame_in_use) {
    vk::Pool* p = a.create_pool(t, flags, block_size, min_blocks, max_blocks, frame_in_use, why);
    REQUIRE(p);
    return p;
  }
};

}  // namespace

TEST_CASE_FIXTURE(Alloc, "vma_device_alloc: small allocations share a first block an eighth of VMA's block size") {
  CHECK(a.preferred_block_size(t) == vma_block_size());
  vk::Allocation* x = get(1000);
  vk::Allocation* y = get(1000);
  REQUIRE(x);
  REQUIRE(y);
  CHECK(x->memory == y->memory);
  CHECK(y->offset == 1024);  // 1000 rounded up to the 256-byte alignment
  CHECK(a.device_allocations()[t].first == 1);
  CHECK(a.device_allocations()[t].second == vma_block_size() / 8);
  const auto& heap = a.heaps()[heap_index()];
  CHECK(heap.used == 2000);
  CHECK(heap.allocations == 2);
  CHECK(heap.blocks == 1);
  CHECK(a.validate() == "");
  a.free(x);
  a.free(y);
  // The emptied block stays, as VMA keeps one.
  CHECK(heap.blocks == 1);
  CHECK(heap.used == 0);
  CHECK(heap.peak_used == 2000);
  CHECK(a.validate() == "");
}

TEST_CASE_FIXTURE(Alloc, "vma_device_alloc: dedicated when asked, when required or preferred, or over half a block") {
  auto with = [&](bool vk::AllocRequest::*flag) {
    vk::AllocRequest r = req(4096);
    r.*flag = true;
    return get(r);
  };
  vk::Allocation* d1 = with(&vk::AllocRequest::dedicated);
  vk::Allocation* d2 = with(&vk::AllocRequest::requires_dedicated);
  vk::Allocation* d3 = with(&vk::AllocRequest::prefers_dedicated);
  vk::Allocation* big = get(a.preferred_block_size(t) / 2 + 1);
  vk::Allocation* small = get(4096);
  REQUIRE((d1 && d2 && d3 && big && small));
  CHECK(d1->dedicated);
  CHECK(d2->dedicated);
  CHECK(d3->dedicated);
  CHECK(big->dedicated);
  CHECK_FALSE(small->dedicated);
  CHECK(a.dedicated_allocations() == 4);
  CHECK(a.device_allocations()[t].first == 5);  // four dedicated + one block
  CHECK(a.validate() == "");
  for (vk::Allocation* x : {d1, d2, d3, big}) a.free(x);
  CHECK(a.dedicated_allocations() == 0);
  CHECK(a.validate() == "");
}

TEST_CASE_FIXTURE(Alloc, "vma_device_alloc: custom pools honour block size and block counts") {
  vk::Pool* pool = make_pool(0, 1 * MiB, 2, 3, 0);
  CHECK(a.device_allocations()[t].first == 2);  // minBlockCount, allocated up front
  CHECK(a.total().committed == 2 * MiB);
  std::vector<vk::Allocation*> live;
  for (int i = 0; i < 3; ++i) {
    live.push_back(get(MiB, pool));
    REQUIRE(live.back());
    CHECK(live.back()->pool == pool);
  }
  CHECK(a.total().committed == 3 * MiB);
  vk::AllocRequest r = req(MiB, pool);
  CHECK_FALSE(get(r));
  CHECK(why == vk::Failure::pool_full);
  r.size = 2 * MiB;
  CHECK_FALSE(get(r));
  CHECK(why == vk::Failure::too_large);
  r.size = 16;
  r.dedicated = true;
  CHECK_FALSE(get(r));
  CHECK(why == vk::Failure::dedicated_in_pool);
  // Freeing keeps minBlockCount blocks.
  for (vk::Allocation* x : live) a.free(x);
  CHECK(a.total().committed == 2 * MiB);
  CHECK(a.validate() == "");
  // Destroying the pool frees what is still in it, then its blocks.
  REQUIRE(get(100, pool));
  a.destroy_pool(pool);
  CHECK(a.total().committed == 0);
  CHECK(a.live_allocations() == 0);
  CHECK(a.validate() == "");
}

TEST_CASE_FIXTURE(Alloc, "vma_device_alloc: fragmentation where committed memory peaked, as --simulate gives it") {
  // A pool of 64 KiB blocks, one made at once: four 16 KiB allocations fill
  // it, the first and third go, and 32 KiB then fit in neither hole: a
  // second block. 16 KiB of the 64 KiB unused then lie outside a block's
  // largest range.
  const std::uint32_t heap = heap_index();
  vk::Pool* pool = make_pool(0, 64 * 1024, 1, 0, 0);
  CHECK(a.heaps()[heap].fragmentation_at_peak == 0.0);  // one empty block
  CHECK(a.heaps()[heap].largest_usable_at_peak == 64 * 1024);
  auto in_pool = [&](std::uint64_t size) {
    vk::Allocation* x = get(size, pool);
    REQUIRE(x);
    return x;
  };
  std::vector<vk::Allocation*> x;
  for (int i = 0; i < 4; ++i) x.push_back(in_pool(16 * 1024));
  a.free(x[0]);
  a.free(x[2]);
  vk::Allocation* big = in_pool(32 * 1024);
  CHECK(big->memory != x[1]->memory);
  const vk::HeapUsage& h = a.heaps()[heap];
  CHECK(h.peak_committed == 128 * 1024);
  CHECK(h.unused_ranges_at_peak == 3);
  CHECK(h.largest_usable_at_peak == 32 * 1024);
  CHECK(h.fragmentation_at_peak == doctest::Approx(0.25));
  CHECK(a.total().fragmentation_at_peak == doctest::Approx(0.25));
  // Frees after the peak leave its figures alone.
  a.free(x[1]);
  CHECK(a.heaps()[heap].fragmentation_at_peak == doctest::Approx(0.25));
  CHECK(a.validate() == "");
}

TEST_CASE_FIXTURE(Alloc, "vma_device_alloc: the heap's size is a budget; exhaustion is a result, not an error") {
  const std::uint64_t max = device.info().max_memory_allocation_size;
  const std::uint64_t half = heap_size() / 2 + MiB;
  if (max && half > max) return;  // one allocation cannot be that large here
  vk::Allocation* x = get(half);
  REQUIRE(x);
  CHECK(x->dedicated);
  CHECK_FALSE(get(half));
  CHECK(why == vk::Failure::heap_budget);
  CHECK(a.total().committed == half);
  a.free(x);
  vk::Allocation* again = get(half);
  CHECK(again);
  a.free(again);
  CHECK_FALSE(get(0));
  CHECK(why == vk::Failure::invalid);
  CHECK(a.validate() == "");
}

TEST_CASE_FIXTURE(Alloc, "vma_device_alloc: mapping is real and counted; flush and invalidate need a mapping") {
  vk::Allocation* x = get(4096);
  vk::Allocation* y = get(4096);
  REQUIRE((x && y));
  CHECK(a.sync(x, 0, VK_WHOLE_SIZE, false) == vk::SyncResult::not_mapped);
  void* p = nullptr;
  REQUIRE(a.map(x, &p) == vk::MapResult::ok);
  std::memcpy(p, "trak", 4);
  void* q = nullptr;
  REQUIRE(a.map(y, &q) == vk::MapResult::ok);  // same block, mapped once
  CHECK(static_cast<char*>(q) - static_cast<char*>(p) == static_cast<std::ptrdiff_t>(y->offset - x->offset));
  CHECK(a.sync(x, 0, VK_WHOLE_SIZE, false) == vk::SyncResult::done);
  CHECK(a.sync(x, 100, 10, true) == vk::SyncResult::done);
  CHECK(a.sync(x, 5000, 10, false) == vk::SyncResult::nothing);
  CHECK(a.unmap(y));
  CHECK(a.unmap(x));
  CHECK_FALSE(a.unmap(x));
  void* again = nullptr;
  REQUIRE(a.map(x, &again) == vk::MapResult::ok);
  CHECK(std::memcmp(again, "trak", 4) == 0);
  a.free(x);  // freeing unmaps
  a.free(y);
  vk::AllocRequest r = req(8192);
  r.mapped = true;
  r.dedicated = true;
  vk::Allocation* m = get(r);
  REQUIRE(m);
  CHECK(m->persistent_map);
  CHECK(m->map_count == 1);
  CHECK_FALSE(a.unmap(m));  // the persistent mapping is VMA's, not the application's
  REQUIRE(a.map(m) == vk::MapResult::ok);
  CHECK(a.unmap(m));
  CHECK(a.sync(m, 0, 100, false) == vk::SyncResult::done);
  a.free(m);
  CHECK(a.validate() == "");
}

TEST_CASE_FIXTURE(
    Alloc, "vma_device_alloc: lost allocations follow frameInUseCount; touch sees them; others can be made lost") {
  vk::Pool* pool = make_pool(0, MiB, 0, 1, 1);
  vk::AllocRequest r = req(MiB / 2, pool);
  r.can_become_lost = true;
  r.frame = 0;
  vk::Allocation* x = get(r);
  vk::Allocation* y = get(r);
  REQUIRE((x && y));
  CHECK(a.touch(y, 2));              // y was used in frame 2
  CHECK(a.make_lost(pool, 1) == 0);  // 0 + 1 < 1 is false
  CHECK(a.make_lost(pool, 2) == 1);  // x: 0 + 1 < 2
  CHECK(x->lost);
  CHECK_FALSE(a.touch(x, 3));
  CHECK(a.map(x) == vk::MapResult::lost);
  CHECK(a.total().used == MiB / 2);
  // The pool is full; a new allocation may make y lost once y is old enough.
  vk::AllocRequest big = r;
  big.size = MiB;
  big.frame = 3;
  big.can_make_other_lost = true;
  CHECK_FALSE(get(big));  // y was used in frame 2: 2 + 1 < 3 is false
  big.frame = 4;
  vk::Allocation* z = get(big);
  REQUIRE(z);
  CHECK(y->lost);
  CHECK(a.total().used == MiB);
  vk::Allocation* lost = a.create_lost();
  CHECK(lost->lost);
  for (vk::Allocation* v : {x, y, z, lost}) a.free(v);
  CHECK(a.live_allocations() == 0);
  CHECK(a.validate() == "");
}

TEST_CASE_FIXTURE(Alloc,
                  "vma_device_alloc: defragmentation moves toward fuller blocks, rebinds and frees empty blocks") {
  vk::Pool* pool = make_pool(0, MiB, 0, 4, 0);
  std::vector<vk::Allocation*> v;
  for (int i = 0; i < 8; ++i) {  // two blocks of four quarters
    v.push_back(get(MiB / 4, pool));
    REQUIRE(v.back());
  }
  CHECK(a.total().blocks == 2);
  // Keep one quarter in each block.
  for (int i : {1, 2, 3, 5, 6, 7}) a.free(v[static_cast<std::size_t>(i)]);
  CHECK(a.total().blocks == 2);
  std::vector<vk::Allocation*> moved;
  vk::DefragLimits limits;
  const vk::DefragStats st = a.defragment({}, {pool}, limits, [&](vk::Allocation& m) { moved.push_back(&m); });
  CHECK(st.allocations_moved == 1);
  CHECK(st.bytes_moved == MiB / 4);
  CHECK(st.blocks_freed == 1);
  CHECK(st.bytes_freed == MiB);
  REQUIRE(moved.size() == 1);
  CHECK(v[0]->memory == v[4]->memory);
  CHECK(a.total().blocks == 1);
  CHECK(a.validate() == "");
  // Limits: nothing may move.
  limits.max_allocations = 0;
  limits.max_gpu_allocations = 0;
  CHECK(a.defragment({v[0], v[4]}, {}, limits, nullptr).allocations_moved == 0);
  a.destroy_pool(pool);
  CHECK(a.validate() == "");
}

TEST_CASE_FIXTURE(Alloc, "vma_device_alloc: resize grows into free space and shrinks") {
  vk::Allocation* x = get(4096);
  REQUIRE(x);
  CHECK(a.resize(x, 8192));
  CHECK(x->size == 8192);
  CHECK(a.total().used == 8192);
  CHECK(a.resize(x, 100));
  CHECK(a.total().used == 100);
  CHECK(a.validate() == "");
  a.free(x);
}

TEST_CASE_FIXTURE(Alloc, "vma_device_alloc: a linear pool of one block: stack, ring buffer and double stack") {
  vk::Pool* pool = make_pool(0x4, 64 * 1024, 0, 1, 0);
  CHECK(a.pool_algorithm(pool) == alloc::Algorithm::linear);
  auto in_pool = [&](std::uint64_t size, bool upper = false) {
    vk::AllocRequest r = req(size, pool);
    r.upper_address = upper;
    return get(r);
  };
  vk::Allocation* x = in_pool(16384);
  vk::Allocation* y = in_pool(16384);
  vk::Allocation* z = in_pool(16384);
  REQUIRE((x && y && z));
  CHECK(z->offset == 32768);
  a.free(y);
  vk::Allocation* w = in_pool(16384);  // after the last one, not in the hole
  REQUIRE(w);
  CHECK(w->offset == 49152);
  CHECK_FALSE(in_pool(16384));  // full up to the end, and the start is taken
  CHECK(why == vk::Failure::pool_full);
  a.free(x);
  vk::Allocation* ring = in_pool(16384);  // wraps to the freed start
  REQUIRE(ring);
  CHECK(ring->offset == 0);
  CHECK(ring->memory == z->memory);
  CHECK_FALSE(in_pool(256, true));  // no upper stack in a ring buffer
  for (vk::Allocation* v : {z, w, ring}) a.free(v);
  // Empty again: a double stack.
  vk::Allocation* low = in_pool(16384);
  vk::Allocation* up1 = in_pool(16384, true);
  vk::Allocation* up2 = in_pool(16384, true);
  vk::Allocation* low2 = in_pool(16384);
  REQUIRE((low && up1 && up2 && low2));
  CHECK(up1->offset == 49152);
  CHECK(up2->offset == 32768);
  CHECK(low2->offset == 16384);
  CHECK_FALSE(in_pool(256));
  a.free(up2);
  vk::Allocation* up3 = in_pool(8192, true);
  REQUIRE(up3);
  CHECK(up3->offset == 40960);
  CHECK(a.validate() == "");
  a.destroy_pool(pool);
  CHECK(a.validate() == "");
}

TEST_CASE_FIXTURE(
    Alloc,
    "vma_device_alloc: a linear pool of several blocks fills its last block; UPPER_ADDRESS only in one-block ones") {
  vk::Pool* pool = make_pool(0x4, 64 * 1024, 0, 0, 0);
  vk::AllocRequest r = req(32768, pool);
  vk::Allocation* x = get(r);
  vk::Allocation* y = get(r);
  vk::Allocation* z = get(r);  // a second block
  REQUIRE((x && y && z));
  CHECK(z->memory != x->memory);
  a.free(x);
  r.size = 16384;
  vk::Allocation* w = get(r);  // room at the first block's start, but only the last is used
  REQUIRE(w);
  CHECK(w->memory == z->memory);
  CHECK(w->offset == 32768);
  r.upper_address = true;
  CHECK_FALSE(get(r));
  CHECK(why == vk::Failure::invalid);
  // In a default pool the block allocation is refused and dedicated memory taken.
  vk::AllocRequest d = req(4096);
  d.upper_address = true;
  vk::Allocation* v = get(d);
  REQUIRE(v);
  CHECK(v->dedicated);
  for (vk::Allocation* u : {y, z, w, v}) a.free(u);
  CHECK(a.validate() == "");
}

TEST_CASE_FIXTURE(Alloc,
                  "vma_device_alloc: a buddy pool takes power-of-two nodes; nothing in it becomes lost or moves") {
  vk::Pool* pool = make_pool(0x8, 64 * 1024, 0, 2, 1);
  CHECK(a.pool_algorithm(pool) == alloc::Algorithm::buddy);
  vk::AllocRequest r = req(20000, pool);
  r.can_become_lost = true;
  vk::Allocation* x = get(r);
  vk::Allocation* y = get(r);
  vk::Allocation* z = get(r);  // two 32 KiB nodes fill a block
  REQUIRE((x && y && z));
  CHECK(y->offset == 32768);
  CHECK(z->memory != x->memory);
  CHECK(a.total().used == 60000);
  CHECK(a.make_lost(pool, 100) == 0);
  vk::AllocRequest big = req(65536, pool);
  big.can_make_other_lost = true;
  big.frame = 100;
  CHECK_FALSE(get(big));  // the pool is at two blocks, and nobody becomes lost
  CHECK(why == vk::Failure::pool_full);
  CHECK_FALSE(x->lost);
  a.free(y);
  CHECK(a.defragment({x, z}, {pool}, {}, nullptr).allocations_moved == 0);
  CHECK(a.validate() == "");
  a.destroy_pool(pool);
}

namespace {
struct WithMargin : Alloc {
  WithMargin()
      : Alloc([] {
          vk::AllocatorSettings s;
          s.debug_margin = 64;
          return s;
        }()) {}
};
}  // namespace

TEST_CASE_FIXTURE(WithMargin, "vma_device_alloc: VMA_DEBUG_MARGIN around block allocations, not dedicated ones") {
  vk::Allocation* x = get(1000);
  vk::Allocation* y = get(1000);
  REQUIRE((x && y));
  CHECK(x->offset == 256);   // 64 aligned up to 256
  CHECK(y->offset == 1536);  // 1256 + 64 = 1320, aligned up
  vk::AllocRequest d = req(1000);
  d.dedicated = true;
  vk::Allocation* z = get(d);
  REQUIRE(z);
  CHECK(z->offset == 0);
  // In a pool, an allocation and its two margins must fit a block.
  vk::Pool* pool = make_pool(0, 8192, 0, 0, 0);
  vk::AllocRequest p = req(8192 - 127, pool);
  CHECK_FALSE(get(p));
  CHECK(why == vk::Failure::too_large);
  p.pool = make_pool(0x8, 8192, 0, 0, 0);  // no margins in buddy blocks
  p.size = 4096;
  vk::Allocation* whole = get(p);
  REQUIRE(whole);
  CHECK(whole->offset == 0);
  vk::Allocation* half = get(p);
  REQUIRE(half);
  CHECK(half->offset == 4096);
  CHECK(half->memory == whole->memory);
  p.size = 8192;  // but VMA's check of the size and two margins against the block size still applies
  CHECK_FALSE(get(p));
  CHECK(why == vk::Failure::too_large);
  for (vk::Allocation* v : {x, y, z, whole, half}) a.free(v);
  CHECK(a.validate() == "");
}

TEST_CASE_FIXTURE(Alloc,
                  "vma_device_alloc: a one-block linear pool used as a ring buffer makes its oldest allocations lost") {
  for (std::uint64_t max_blocks : {1, 2}) {
    CAPTURE(max_blocks);
    vk::Pool* pool = make_pool(0x4, 64 * 1024, 0, max_blocks, 0);
    vk::AllocRequest r = req(32768, pool);
    r.can_become_lost = true;
    vk::Allocation* x = get(r);
    vk::Allocation* y = get(r);
    REQUIRE((x && y));
    if (max_blocks == 2)  // fill the second block as well
      for (int i = 0; i < 2; ++i) REQUIRE(get(r));
    r.size = 16384;
    r.frame = 5;
    r.can_make_other_lost = true;
    vk::Allocation* z = get(r);
    if (max_blocks == 1) {
      // Wrapped to the start, where x was.
      REQUIRE(z);
      CHECK(x->lost);
      CHECK_FALSE(y->lost);
      CHECK(z->offset == 0);
      CHECK(z->memory == y->memory);
    } else {
      CHECK_FALSE(z);  // VMA allows it only in a pool of one block
      CHECK_FALSE(x->lost);
    }
    a.destroy_pool(pool);
    CHECK(a.validate() == "");
  }
}
