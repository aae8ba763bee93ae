// SPDX-License-Identifier: MIT
// A VMA 2.x-like block suballocator over the recorded memory types, driven by
// a recording: committed memory, blocks, and their unused memory and its
// fragmentation, without a device. Custom pools keep their algorithm (linear
// and buddy blocks are the device replay's own), VMA_DEBUG_MARGIN spaces
// allocations in blocks, and the recorded bufferImageGranularity keeps
// buffers and images off each other's pages (vma/sim_block.hpp).
#include "libtrace/vma/sim.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <map>
#include <unordered_map>

#include "core/ptr_map.hpp"
#include "libtrace/alloc/suballoc.hpp"
#include "libtrace/vma/stat.hpp"
#include "vma/replay_summary.hpp"
#include "vma/sim_block.hpp"

namespace libtrace::vma {

namespace {

constexpr std::uint32_t kDeviceLocal = 1, kHostVisible = 2, kHostCoherent = 4, kHostCached = 8, kLazy = 16;
constexpr std::uint64_t kDedicatedFlag = 0x1;        // VMA_ALLOCATION_CREATE_DEDICATED_MEMORY_BIT
constexpr std::uint64_t kUpperAddressFlag = 0x40;    // VMA_ALLOCATION_CREATE_UPPER_ADDRESS_BIT
constexpr std::uint64_t kTilingLinear = 1;           // VK_IMAGE_TILING_LINEAR
constexpr std::uint64_t kSmallHeapMax = 1ull << 30;  // VMA_SMALL_HEAP_MAX_SIZE default
constexpr std::uint64_t kLargeBlock = 256ull << 20;  // VMA_DEFAULT_LARGE_HEAP_BLOCK_SIZE default
// Buffers and images have requirements only a device knows; these are
// typical alignments (a device replay uses the real ones).
constexpr std::uint64_t kBufferAlign = 256, kImageAlign = 4096;

std::pair<std::uint32_t, std::uint32_t> usage_flags(std::uint64_t usage) {
  switch (usage) {
    case 1: return {0, kDeviceLocal};
    case 2: return {kHostVisible | kHostCoherent, 0};
    case 3: return {kHostVisible, kDeviceLocal};
    case 4: return {kHostVisible, kHostCached};
    case 6: return {kLazy, 0};
    default: return {0, 0};
  }
}

using detail::Block;
using detail::round_up;

// The blocks of one memory type, or of one custom pool.
struct BlockList {
  std::uint64_t block_size = 0;
  std::uint32_t type = 0;
  alloc::Algorithm algorithm = alloc::Algorithm::free_list;
  std::uint64_t min_blocks = 0;  // a custom pool's minBlockCount
  std::uint64_t live = 0;        // allocations placed in the blocks
  std::vector<std::unique_ptr<Block>> blocks;
};

struct Placement {
  BlockList* list = nullptr;  // null: dedicated
  Block* block = nullptr;
  std::uint64_t offset = 0, bytes = 0;
  int type = -1;
};

class Model {
 public:
  Model(const Config& c, SimResult& r) : c_(c), r_(r) {
    r_.heaps.resize(c.heaps.size());
    for (std::size_t h = 0; h < c.heaps.size(); ++h) r_.heaps[h].size = c.heaps[h].size;
    heap_committed_.assign(c.heaps.size(), 0);
    heap_blocks_.assign(c.heaps.size(), 0);
    heap_used_.assign(c.heaps.size(), 0);
    peaked_.assign(c.heaps.size(), false);
    auto macro = [&](const char* name, std::uint64_t fallback) {
      auto it = c.macros.find(name);
      if (it == c.macros.end()) return fallback;
      std::uint64_t v = 0;
      const auto parsed = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
      return parsed.ec == std::errc() ? v : fallback;
    };
    std::uint64_t large = macro("VMA_DEFAULT_LARGE_HEAP_BLOCK_SIZE", kLargeBlock);
    if (large == 0) large = kLargeBlock;  // VMA's default
    large = std::min(large, kMaxBytes);
    margin_ = std::min(macro("VMA_DEBUG_MARGIN", 0), alloc::kMaxDebugMargin);
    // As VMA takes it: the device's limit, raised to the debug minimum. Not
    // a power of two (no device reports one): left out, as VMA would assert.
    std::uint64_t recorded = 1;
    if (auto it = c.limits.find("bufferImageGranularity"); it != c.limits.end())
      std::from_chars(it->second.data(), it->second.data() + it->second.size(), recorded);
    granularity_ = std::max<std::uint64_t>(recorded, macro("VMA_DEBUG_MIN_BUFFER_IMAGE_GRANULARITY", 1));
    if (!alloc::is_pow2(granularity_) || granularity_ > (1ull << 40)) granularity_ = 1;
    for (std::size_t t = 0; t < c.types.size(); ++t) {
      BlockList l;
      l.type = static_cast<std::uint32_t>(t);
      const std::uint32_t heap = c.types[t].heap;
      const std::uint64_t heap_size = heap < c.heaps.size() ? c.heaps[heap].size : 0;
      l.block_size = heap_size && heap_size <= kSmallHeapMax ? heap_size / 8 : large;
      default_.push_back(std::move(l));
    }
  }

  void create_pool(std::uint64_t ptr, std::uint32_t type, std::uint64_t flags, std::uint64_t block_size,
                   std::uint64_t min_blocks) {
    if (type >= c_.types.size()) return;
    auto l = std::make_unique<BlockList>();
    l->type = type;
    l->algorithm = alloc::pool_algorithm(flags);
    l->block_size = block_size ? std::min(block_size, kMaxBytes) : default_[type].block_size;
    l->min_blocks = std::min<std::uint64_t>(min_blocks, 1024);
    for (std::uint64_t i = 0; i < l->min_blocks; ++i) new_block(*l, l->block_size);
    std::unique_ptr<BlockList>& slot = pools_[ptr];
    if (slot) retire(*slot);  // created again at a live pool's address: its destruction was not recorded
    slot = std::move(l);
    settle();
  }

  void destroy_pool(std::uint64_t ptr) {
    auto it = pools_.find(ptr);
    if (it == pools_.end()) return;
    retire(*it->second);
    pools_.erase(it);
  }

  // `upper`: VMA_ALLOCATION_CREATE_UPPER_ADDRESS_BIT, honoured in linear
  // pools (the model does not hold pools to their block count).
  void allocate(std::uint64_t ptr, std::uint64_t bytes, std::uint64_t align, int type, std::uint64_t pool,
                bool dedicated, bool upper, alloc::Kind kind) {
    if (!ptr) return;
    free(ptr);  // a live pointer reused: its free was not recorded
    bytes = std::min(bytes, kMaxBytes);
    Placement p;
    p.bytes = bytes;
    p.type = type;
    if (type < 0 || static_cast<std::size_t>(type) >= c_.types.size()) {
      ++r_.unresolved;
      p.type = -1;  // free() must not look an out-of-range type up either
      live_.insert(ptr, p);
      return;
    }
    BlockList* list = nullptr;
    if (pool) {
      auto it = pools_.find(pool);
      if (it != pools_.end()) list = it->second.get();
    }
    if (!list) list = &default_[static_cast<std::size_t>(type)];
    // Counted as used first, so a peak of committed memory sees its bytes.
    used(list->type, static_cast<std::int64_t>(bytes));
    if (!pool && (dedicated || bytes > list->block_size / 2)) {
      ++r_.dedicated;
      commit(static_cast<std::uint32_t>(type), static_cast<std::int64_t>(bytes), 1);
      live_.insert(ptr, p);
      settle();
      return;
    }
    upper = upper && list->algorithm == alloc::Algorithm::linear;
    // A linear pool allocates from its last block only, as VMA's does.
    auto& bl = list->blocks;
    for (auto it = list->algorithm == alloc::Algorithm::linear && !bl.empty() ? bl.end() - 1 : bl.begin();
         it != bl.end(); ++it) {
      if ((*it)->allocate(bytes, align, upper, kind, p.offset)) {
        p.list = list;
        p.block = it->get();
        ++list->live;
        break;
      }
    }
    if (!p.block) {
      Block& b = new_block(*list, block_size_for(*list, bytes, align));
      if (b.allocate(bytes, align, upper, kind, p.offset)) {
        p.list = list;
        p.block = &b;
        ++list->live;
      } else {
        // Nothing VMA could place either (an alignment beyond any block):
        // the recording says it succeeded, so it counts as its own memory.
        const std::uint64_t size = b.size;
        list->blocks.pop_back();
        commit(list->type, -static_cast<std::int64_t>(size), -1);
        commit(list->type, static_cast<std::int64_t>(bytes), 1);
      }
    }
    live_.insert(ptr, p);
    settle();
  }

  void free(std::uint64_t ptr) {
    const std::size_t slot = ptr ? live_.find(ptr) : live_.npos;
    if (slot == live_.npos) return;
    const Placement p = live_.value(slot);
    live_.erase(slot);
    if (p.type < 0) return;
    const auto type = static_cast<std::uint32_t>(p.type);
    used(type, -static_cast<std::int64_t>(p.bytes));
    if (!p.block) {
      commit(type, -static_cast<std::int64_t>(p.bytes), -1);
      return;
    }
    p.block->release(p.offset, p.bytes);
    --p.list->live;
    // VMA keeps at most one empty block per list, custom pools included
    // (never fewer blocks than their minBlockCount).
    if (p.block->used == 0 && p.list->blocks.size() > p.list->min_blocks) {
      std::size_t empty = 0;
      for (auto& b : p.list->blocks) empty += b->used == 0;
      if (empty > 1) {
        auto& bl = p.list->blocks;
        auto bi = std::find_if(bl.begin(), bl.end(), [&](auto& b) { return b.get() == p.block; });
        commit(type, -static_cast<std::int64_t>(p.block->size), -1);
        bl.erase(bi);
      }
    }
  }

  void finish() {
    for (std::size_t h = 0; h < r_.heaps.size(); ++h) r_.heaps[h].committed_at_end = heap_committed_[h];
  }

 private:
  // The list's block size, or more where one allocation needs more (VMA
  // would have failed; the recording says it did not).
  std::uint64_t block_size_for(const BlockList& l, std::uint64_t bytes, std::uint64_t align) const {
    if (l.algorithm == alloc::Algorithm::buddy)
      return std::bit_floor(l.block_size) >= bytes ? l.block_size
                                                   : std::bit_ceil(std::min<std::uint64_t>(bytes, 1ull << 62));
    // Margins, and room to align past the first one.
    const std::uint64_t slack = margin_ ? 2 * margin_ + (align > 1 && align <= alloc::kMaxDebugMargin ? align : 0) : 0;
    return std::max(l.block_size, bytes + slack);
  }

  Block& new_block(BlockList& l, std::uint64_t size) {
    l.blocks.push_back(std::make_unique<Block>(size, margin_, granularity_, l.algorithm));
    commit(l.type, static_cast<std::int64_t>(size), 1);
    return *l.blocks.back();
  }

  // A pool's blocks go (destroyed, or replaced by a pool created at its
  // address) while allocations may still be in them, which VMA asserts
  // against: those stay live, in no block, and their bytes leave the used
  // figures now as the blocks leave the committed ones.
  void retire(BlockList& l) {
    if (l.live) {
      live_.for_each([&](std::uint64_t, Placement& p) {
        if (p.list != &l) return;
        used(l.type, -static_cast<std::int64_t>(p.bytes));
        p = Placement{};  // type -1: free() has nothing left to do
      });
    }
    for (auto& b : l.blocks) commit(l.type, -static_cast<std::int64_t>(b->size), -1);
    l.blocks.clear();
    l.live = 0;
  }

  // The blocks' unused ranges of each heap whose committed memory peaked
  // during the last call (a walk over the heap's blocks, once per peak).
  void settle() {
    if (!any_peaked_) return;
    any_peaked_ = false;
    // One walk for every heap (a call can raise several heaps' peaks).
    std::vector<alloc::UnusedSpace> space(peaked_.size());
    auto add = [&](const BlockList& l) {
      const std::uint32_t h = c_.types[l.type].heap;
      if (h >= space.size() || !peaked_[h]) return;
      for (const auto& b : l.blocks) space[h].add(b->size, b->used, b->free_ranges(), b->largest_free());
    };
    for (const BlockList& l : default_) add(l);
    for (const auto& [ptr, l] : pools_) add(*l);
    for (std::size_t h = 0; h < peaked_.size(); ++h) {
      if (!peaked_[h]) continue;
      peaked_[h] = false;
      SimHeap& sh = r_.heaps[h];
      sh.unused_ranges_at_peak = space[h].ranges;
      sh.largest_usable_at_peak = space[h].largest;
      sh.fragmentation_at_peak = space[h].fragmentation();
    }
  }

  // Byte sums stop at UINT64_MAX rather than wrap: only a recording of
  // sizes no device has gets there, and it should read as huge, not small.
  static void add(std::uint64_t& sum, std::int64_t delta) {
    if (delta >= 0)
      sum = __builtin_add_overflow(sum, static_cast<std::uint64_t>(delta), &sum) ? UINT64_MAX : sum;
    else
      sum -= std::min(sum, static_cast<std::uint64_t>(-delta));
  }

  void used(std::uint32_t type, std::int64_t delta) {
    const std::uint32_t h = c_.types[type].heap;
    if (h < heap_used_.size()) add(heap_used_[h], delta);
  }

  void commit(std::uint32_t type, std::int64_t delta, int blocks) {
    const std::uint32_t h = c_.types[type].heap;
    if (h >= heap_committed_.size()) return;
    add(heap_committed_[h], delta);
    heap_blocks_[h] = static_cast<std::uint64_t>(static_cast<std::int64_t>(heap_blocks_[h]) + blocks);
    add(total_committed_, delta);
    total_blocks_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(total_blocks_) + blocks);
    SimHeap& sh = r_.heaps[h];
    if (delta > 0 && sh.size && heap_committed_[h] > sh.size) ++sh.over_budget_allocations;
    if (heap_committed_[h] > sh.peak_committed) {
      sh.peak_committed = heap_committed_[h];
      sh.used_at_peak = heap_used_[h];
      // The blocks are looked at once the call is done: a new block is
      // committed before the allocation that needed it is placed.
      peaked_[h] = true;
      any_peaked_ = true;
    }
    sh.peak_blocks = std::max(sh.peak_blocks, heap_blocks_[h]);
    r_.peak_committed = std::max(r_.peak_committed, total_committed_);
    r_.peak_blocks = std::max(r_.peak_blocks, total_blocks_);
  }

  const Config& c_;
  SimResult& r_;
  std::vector<BlockList> default_;
  std::unordered_map<std::uint64_t, std::unique_ptr<BlockList>> pools_;
  libtrace::detail::PtrMap<Placement> live_;  // by allocation
  std::vector<std::uint64_t> heap_committed_, heap_blocks_, heap_used_;
  std::uint64_t total_committed_ = 0, total_blocks_ = 0;
  std::vector<bool> peaked_;  // per heap: committed memory peaked in this call
  bool any_peaked_ = false;
  // Sizes beyond any device are taken as this (2^62 bytes), so that they
  // fit the signed changes passed to used() and commit().
  static constexpr std::uint64_t kMaxBytes = std::uint64_t{1} << 62;
  std::uint64_t margin_ = 0;       // VMA_DEBUG_MARGIN
  std::uint64_t granularity_ = 1;  // bufferImageGranularity
};

}  // namespace

int resolve_memory_type(const Config& config, std::uint64_t usage, std::uint64_t required, std::uint64_t preferred,
                        std::uint64_t type_bits, std::uint32_t requirement_bits) {
  const auto& types = config.types;
  const auto [ureq, upref] = usage_flags(usage);
  const std::uint32_t req = static_cast<std::uint32_t>(required) | ureq;
  const std::uint32_t pref = static_cast<std::uint32_t>(preferred) | upref;
  const std::uint32_t allowed = (type_bits ? static_cast<std::uint32_t>(type_bits) : 0xffffffffu) & requirement_bits;
  int best = -1, best_cost = 1 << 30;
  for (std::size_t i = 0; i < types.size() && i < 32; ++i) {
    if (!(allowed & (1u << i))) continue;
    const std::uint32_t flags = types[i].property_flags;
    if ((flags & req) != req) continue;
    const int cost = __builtin_popcount(pref & ~flags);
    if (cost < best_cost) {
      best = static_cast<int>(i);
      best_cost = cost;
    }
  }
  return best;
}

SimResult simulate(std::unique_ptr<Decoder> decoder, const std::string& name, const SimOptions& opt) {
  SimResult r;
  ReaderOptions ro;
  ro.keep_going = opt.keep_going;
  ro.warnings = opt.warnings;
  Reader reader(std::move(decoder), name, ro);
  const Config& c = reader.header().config;
  r.version = reader.header().version;
  Model m(c, r);
  std::unordered_map<std::uint64_t, std::uint32_t> pool_types;
  std::map<std::uint32_t, std::uint64_t> per_thread;
  double first = 0, last = 0;
  auto resolve = [&](std::uint64_t pool, std::uint64_t usage, std::uint64_t req, std::uint64_t pref, std::uint64_t bits,
                     std::uint32_t req_bits) -> int {
    if (pool) {
      auto it = pool_types.find(pool);
      return it == pool_types.end() ? -1 : static_cast<int>(it->second);
    }
    return resolve_memory_type(c, usage, req, pref, bits, req_bits);
  };
  try {
    while (const Call* call = reader.next()) {
      ++r.calls;
      if (call->line < opt.first_line || call->line > opt.last_line) continue;
      ++r.replayed_calls;
      ++r.calls_per_function[static_cast<std::size_t>(call->function)];
      ++per_thread[call->thread];
      if (r.replayed_calls == 1) first = call->time;
      last = std::max(last, call->time);
      const auto& n = call->num;
      switch (call->function) {
        case Function::CreatePool:
          if (!n.back()) {
            ++r.originally_failed;
            break;
          }
          ++r.pools;
          pool_types[n.back()] = static_cast<std::uint32_t>(n[0]);
          m.create_pool(n.back(), static_cast<std::uint32_t>(n[0]), n[1], n[2], n[3]);
          break;
        case Function::DestroyPool:
          m.destroy_pool(n[0]);
          pool_types.erase(n[0]);
          break;
        case Function::CreateBuffer:
          if (!n[10]) {
            ++r.originally_failed;
            break;
          }
          ++r.buffers;
          m.allocate(n[10], round_up(n[1], kBufferAlign), kBufferAlign, resolve(n[9], n[5], n[6], n[7], n[8], ~0u),
                     n[9], n[4] & kDedicatedFlag, n[4] & kUpperAddressFlag, alloc::Kind::buffer);
          break;
        case Function::CreateImage: {
          if (!n[19]) {
            ++r.originally_failed;
            break;
          }
          ++r.images;
          const std::uint64_t bytes = estimate_image_bytes(
              static_cast<std::uint32_t>(n[2]), static_cast<std::uint32_t>(n[3]), static_cast<std::uint32_t>(n[4]),
              static_cast<std::uint32_t>(n[5]), static_cast<std::uint32_t>(n[6]), static_cast<std::uint32_t>(n[7]),
              static_cast<std::uint32_t>(n[8]));
          m.allocate(n[19], round_up(bytes, kImageAlign), kImageAlign, resolve(n[18], n[14], n[15], n[16], n[17], ~0u),
                     n[18], n[13] & kDedicatedFlag, n[13] & kUpperAddressFlag,
                     n[9] == kTilingLinear ? alloc::Kind::image_linear : alloc::Kind::image_optimal);
          break;
        }
        case Function::AllocateMemory:
          if (!n[9]) {
            ++r.originally_failed;
            break;
          }
          ++r.memory_allocations;
          m.allocate(n[9], n[0], n[1], resolve(n[8], n[4], n[5], n[6], n[7], static_cast<std::uint32_t>(n[2])), n[8],
                     n[3] & kDedicatedFlag, n[3] & kUpperAddressFlag, alloc::Kind::unknown);
          break;
        case Function::AllocateMemoryForBuffer:
        case Function::AllocateMemoryForImage:
          if (!n[11]) {
            ++r.originally_failed;
            break;
          }
          ++r.memory_allocations;
          m.allocate(
              n[11], n[0], n[1], resolve(n[10], n[6], n[7], n[8], n[9], static_cast<std::uint32_t>(n[2])), n[10],
              (n[5] & kDedicatedFlag) || n[3] || n[4], n[5] & kUpperAddressFlag,
              call->function == Function::AllocateMemoryForBuffer ? alloc::Kind::buffer : alloc::Kind::image_unknown);
          break;
        case Function::AllocateMemoryPages: {
          if (call->lists[0].empty()) {
            ++r.originally_failed;
            break;
          }
          const int type = resolve(n[8], n[4], n[5], n[6], n[7], static_cast<std::uint32_t>(n[2]));
          for (std::uint64_t p : call->lists[0]) {
            // A failed call leaves every page null (trak-stat counts each).
            if (!p) {
              ++r.originally_failed;
              continue;
            }
            ++r.pages;
            m.allocate(p, n[0], n[1], type, n[8], n[3] & kDedicatedFlag, n[3] & kUpperAddressFlag,
                       alloc::Kind::unknown);
          }
          break;
        }
        case Function::CreateLostAllocation:
          if (n[0]) ++r.lost_allocations;
          break;
        case Function::DestroyBuffer:
        case Function::DestroyImage:
        case Function::FreeMemory: m.free(n[0]); break;
        case Function::FreeMemoryPages:
          for (std::uint64_t p : call->lists[0]) m.free(p);
          break;
        default: break;
      }
    }
  } catch (const Error& e) {
    r.error = e;
  }
  m.finish();
  r.warnings = reader.warnings();
  r.threads = per_thread.size();
  r.busiest_thread_percent = busiest_thread_percent(per_thread, r.replayed_calls);
  r.duration = last - first;
  return r;
}

}  // namespace libtrace::vma
