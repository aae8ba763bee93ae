// SPDX-License-Identifier: MIT
// One pass over a VMA recording: counts, live allocations over time, leaks.
#include "libtrace/vma_stat.hpp"
#include "libtrace/vma_sim.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "ptr_map.hpp"

namespace libtrace::vma {

namespace {

// Bytes per texel (or per texel of a 4x4 block, for block formats, as a
// fraction: numerator over 16).
std::uint32_t texel_bytes_x16(std::uint32_t f) {
  if (f >= 1 && f <= 1) return 16;                 // R4G4
  if (f >= 2 && f <= 8) return 32;                 // 16-bit packed
  if (f >= 9 && f <= 15) return 16;                // R8
  if (f >= 16 && f <= 22) return 32;               // R8G8
  if (f >= 23 && f <= 36) return 48;               // R8G8B8, B8G8R8
  if (f >= 37 && f <= 69) return 64;               // RGBA8 variants, A2R10G10B10
  if (f >= 70 && f <= 76) return 32;               // R16
  if (f >= 77 && f <= 83) return 64;               // R16G16
  if (f >= 84 && f <= 90) return 96;               // R16G16B16
  if (f >= 91 && f <= 97) return 128;              // R16G16B16A16
  if (f >= 98 && f <= 100) return 64;              // R32
  if (f >= 101 && f <= 103) return 128;            // R32G32
  if (f >= 104 && f <= 106) return 192;            // R32G32B32
  if (f >= 107 && f <= 109) return 256;            // R32G32B32A32
  if (f >= 110 && f <= 112) return 128;            // R64
  if (f >= 113 && f <= 115) return 256;
  if (f >= 116 && f <= 118) return 384;
  if (f >= 119 && f <= 121) return 512;
  if (f == 122 || f == 123) return 64;             // B10G11R11, E5B9G9R9
  if (f == 124) return 32;                         // D16
  if (f == 125 || f == 126) return 64;             // X8_D24, D32
  if (f == 127) return 16;                         // S8
  if (f == 128) return 48;                         // D16_S8
  if (f == 129) return 64;                         // D24_S8
  if (f == 130) return 128;                        // D32_S8 (padded)
  if (f >= 131 && f <= 134) return 8;              // BC1: 8 bytes / 16 texels
  if (f >= 135 && f <= 138) return 16;             // BC2, BC3
  if (f >= 139 && f <= 140) return 8;              // BC4
  if (f >= 141 && f <= 146) return 16;             // BC5, BC6H, BC7
  if (f >= 147 && f <= 150) return 8;              // ETC2 RGB8, RGB8A1
  if (f >= 151 && f <= 152) return 16;             // ETC2 RGBA8
  if (f >= 153 && f <= 154) return 8;              // EAC R11
  if (f >= 155 && f <= 156) return 16;             // EAC R11G11
  if (f >= 157 && f <= 184) return 16;             // ASTC (4x4 assumed)
  return 64;
}

struct Live {
  std::uint64_t line;
  double created;
  std::uint64_t bytes;
  std::uint64_t seq;   // creation order, which orders the leaks of one line
  int type;            // resolved memory type, -1 if unknown
  std::uint32_t text;  // user data: texts_[text - 1], or none for 0
  Function function;
};

// resolve_memory_type() scans every memory type for each creation, while a
// recording repeats a few argument combinations: remember the last results.
class TypeCache {
 public:
  template <class Resolve>
  int get(std::uint64_t usage, std::uint64_t required, std::uint64_t preferred, std::uint64_t type_bits,
          std::uint32_t req_bits, Resolve&& resolve) {
    const std::uint64_t h = (usage * 31 + required * 17 + preferred * 7 + type_bits * 3 + req_bits) * 0x9E3779B97F4A7C15ull;
    Entry& e = entries_[h >> 58];
    if (!e.valid || e.usage != usage || e.required != required || e.preferred != preferred || e.type_bits != type_bits ||
        e.req_bits != req_bits)
      e = {usage, required, preferred, type_bits, req_bits, resolve(), true};
    return e.type;
  }

 private:
  struct Entry {
    std::uint64_t usage, required, preferred, type_bits;
    std::uint32_t req_bits;
    int type;
    bool valid;
  };
  std::array<Entry, 64> entries_{};
};

class Counter {
 public:
  explicit Counter(Stats& s) : s_(s) {
    s_.peak_bytes_per_heap.assign(s_.header.config.heaps.size(), 0);
    s_.peak_bytes_per_type.assign(s_.header.config.types.size(), 0);
    heap_bytes_.assign(s_.header.config.heaps.size(), 0);
    type_bytes_.assign(s_.header.config.types.size(), 0);
  }

  void call(const Call& c) {
    ++s_.calls;
    ++s_.calls_per_function[static_cast<std::size_t>(c.function)];
    if (!thread_calls_ || c.thread != last_thread_) {
      thread_calls_ = thread_counter(c.thread);
      last_thread_ = c.thread;
    }
    ++*thread_calls_;
    if (s_.calls == 1) s_.first_time = c.time;
    if (c.time < last_time_ && s_.calls > 1) ++s_.time_steps_back;
    last_time_ = c.time;
    s_.last_time = std::max(s_.last_time, c.time);
    if (s_.calls == 1 || c.frame != last_frame_) {
      frames_.insert(c.frame);
      last_frame_ = c.frame;
    }
    now_ = c.time;
    const auto& n = c.num;
    switch (c.function) {
      case Function::CreatePool: {
        const std::uint64_t ptr = n.back();
        if (!ptr) {
          ++s_.failed_creations;
          break;
        }
        Pool p;
        p.pointer = ptr;
        p.line = c.line;
        p.memory_type = static_cast<std::uint32_t>(n[0]);
        p.block_size = n[2];
        p.min_blocks = n[3];
        p.max_blocks = n[4];
        pool_index_[ptr] = s_.pools.size();
        s_.pools.push_back(p);
        break;
      }
      case Function::DestroyPool:
        if (auto it = pool_index_.find(n[0]); it != pool_index_.end()) {
          s_.pools[it->second].destroyed = true;
          pool_index_.erase(it);
        }
        break;
      case Function::SetPoolName:
        if (auto it = pool_index_.find(n[0]); it != pool_index_.end()) s_.pools[it->second].name = c.text;
        break;
      case Function::SetAllocationUserData:
        if (const std::size_t slot = live_.find(n[0]); slot != live_.npos) set_text(live_.value(slot), c.text);
        break;
      case Function::CreateBuffer:
        create(c, n[10], n[1], resolve(n[9], n[5], n[6], n[7], n[8], 0xffffffffu), n[9]);
        break;
      case Function::CreateImage: {
        const std::uint64_t bytes = estimate_image_bytes(
            static_cast<std::uint32_t>(n[2]), static_cast<std::uint32_t>(n[3]), static_cast<std::uint32_t>(n[4]),
            static_cast<std::uint32_t>(n[5]), static_cast<std::uint32_t>(n[6]), static_cast<std::uint32_t>(n[7]),
            static_cast<std::uint32_t>(n[8]));
        if (n[19]) ++s_.image_bytes_estimated;
        create(c, n[19], bytes, resolve(n[18], n[14], n[15], n[16], n[17], 0xffffffffu), n[18]);
        break;
      }
      case Function::AllocateMemory:
        create(c, n[9], n[0], resolve(n[8], n[4], n[5], n[6], n[7], static_cast<std::uint32_t>(n[2])), n[8]);
        break;
      case Function::AllocateMemoryForBuffer:
      case Function::AllocateMemoryForImage:
        create(c, n[11], n[0], resolve(n[10], n[6], n[7], n[8], n[9], static_cast<std::uint32_t>(n[2])), n[10]);
        break;
      case Function::AllocateMemoryPages: {
        const int type = resolve(n[8], n[4], n[5], n[6], n[7], static_cast<std::uint32_t>(n[2]));
        if (c.lists[0].empty()) ++s_.failed_creations;
        for (std::uint64_t p : c.lists[0]) create(c, p, n[0], type, n[8]);
        break;
      }
      case Function::CreateLostAllocation:
        create(c, n[0], 0, -1);
        break;
      case Function::DestroyBuffer:
      case Function::DestroyImage:
      case Function::FreeMemory:
        destroy(n[0], c.time);
        break;
      case Function::FreeMemoryPages:
        for (std::uint64_t p : c.lists[0]) destroy(p, c.time);
        break;
      default:
        break;
    }
  }

  void finish() {
    s_.frames = frames_.size();
    s_.live_at_end = live_.size();
    s_.live_bytes_at_end = live_bytes_;
    std::vector<std::pair<std::uint64_t, Leak>> leaks;
    leaks.reserve(live_.size());
    live_.for_each([&](std::uint64_t ptr, const Live& l) {
      leaks.push_back({l.seq, Leak{ptr, l.line, l.function, l.bytes, l.text ? texts_[l.text - 1] : std::string()}});
      ++s_.lifetime_histogram[7];
    });
    // Creation order: by line, and the pages of one call in their order.
    std::sort(leaks.begin(), leaks.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& l : leaks) s_.leaks.push_back(std::move(l.second));
    const std::size_t heaps = heap_bytes_.size();
    s_.timeline_heap_bytes.resize(s_.timeline_time.size());
    for (std::size_t i = 0; i < s_.timeline_heap_bytes.size(); ++i)
      s_.timeline_heap_bytes[i].assign(timeline_.begin() + static_cast<std::ptrdiff_t>(i * heaps),
                                       timeline_.begin() + static_cast<std::ptrdiff_t>((i + 1) * heaps));
  }

 private:
  // calls_per_thread's counter for `thread`. Recordings interleave a few
  // threads line by line: a handful of recent ones are kept at hand.
  std::uint64_t* thread_counter(std::uint32_t thread) {
    for (auto& [t, counter] : recent_threads_)
      if (counter && t == thread) return counter;
    auto& slot = recent_threads_[next_recent_++ % recent_threads_.size()];
    slot = {thread, &s_.calls_per_thread[thread]};  // std::map nodes are stable
    return slot.second;
  }

  // The memory type VMA would pick on the recorded device: a custom pool's,
  // else the cheapest type with the required flags among those allowed.
  int resolve(std::uint64_t pool, std::uint64_t usage, std::uint64_t required, std::uint64_t preferred,
              std::uint64_t type_bits, std::uint32_t req_bits) {
    if (pool) {
      if (auto it = pool_index_.find(pool); it != pool_index_.end())
        return static_cast<int>(s_.pools[it->second].memory_type);
      return -1;
    }
    return types_.get(usage, required, preferred, type_bits, req_bits, [&] {
      return resolve_memory_type(s_.header.config, usage, required, preferred, type_bits, req_bits);
    });
  }

  void create(const Call& c, std::uint64_t ptr, std::uint64_t bytes, int type, std::uint64_t pool = 0) {
    if (!ptr) {
      ++s_.failed_creations;
      return;
    }
    ++s_.allocations_created;
    if (pool)
      if (auto it = pool_index_.find(pool); it != pool_index_.end()) ++s_.pools[it->second].allocations;
    if (const std::size_t slot = live_.find(ptr); slot != live_.npos) {
      ++s_.reused_live_pointers;  // its free was not recorded
      remove(slot, c.time);
    }
    // A lost allocation has no memory, so no type to resolve.
    if (type < 0 && c.function != Function::CreateLostAllocation) ++s_.unresolved_type_allocations;
    // [k]: sizes in [2^k, 2^(k+1)), the last bucket open-ended.
    const std::size_t bucket = bytes < 2 ? 0 : std::min<std::size_t>(63 - __builtin_clzll(bytes), s_.size_histogram.size() - 1);
    ++s_.size_histogram[bucket];
    Live l{c.line, c.time, bytes, s_.allocations_created, type, 0, c.function};
    if (c.has_text) set_text(l, c.text);
    live_.insert(ptr, l);
    add_bytes(type, static_cast<std::int64_t>(bytes));
    if (live_.size() > s_.peak_live_allocations) {
      s_.peak_live_allocations = live_.size();
      s_.peak_live_allocations_line = c.line;
    }
  }

  void destroy(std::uint64_t ptr, double time) {
    if (!ptr) return;
    const std::size_t slot = live_.find(ptr);
    if (slot == live_.npos) {
      ++s_.unknown_pointer_destroys;
      return;
    }
    remove(slot, time);
  }

  void remove(std::size_t slot, double time) {
    Live& l = live_.value(slot);
    const double life = time - l.created;
    std::size_t b = 0;
    for (double limit = 0.001; b < 6 && life >= limit; limit *= 10) ++b;
    ++s_.lifetime_histogram[b];
    add_bytes(l.type, -static_cast<std::int64_t>(l.bytes));
    set_text(l, {});
    live_.erase(slot);
  }

  // User data lives beside the table: most allocations have none, and the
  // table's slots stay small.
  void set_text(Live& l, std::string_view text) {
    if (text.empty()) {
      if (l.text) {
        texts_[l.text - 1].clear();
        free_texts_.push_back(l.text);
        l.text = 0;
      }
      return;
    }
    if (!l.text) {
      if (free_texts_.empty()) {
        texts_.emplace_back();
        l.text = static_cast<std::uint32_t>(texts_.size());
      } else {
        l.text = free_texts_.back();
        free_texts_.pop_back();
      }
    }
    texts_[l.text - 1].assign(text);
  }

  void add_bytes(int type, std::int64_t delta) {
    live_bytes_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(live_bytes_) + delta);
    s_.peak_live_bytes = std::max(s_.peak_live_bytes, live_bytes_);
    if (type < 0 || static_cast<std::size_t>(type) >= type_bytes_.size()) return;
    auto& t = type_bytes_[static_cast<std::size_t>(type)];
    t = static_cast<std::uint64_t>(static_cast<std::int64_t>(t) + delta);
    s_.peak_bytes_per_type[static_cast<std::size_t>(type)] = std::max(s_.peak_bytes_per_type[static_cast<std::size_t>(type)], t);
    const std::uint32_t heap = s_.header.config.types[static_cast<std::size_t>(type)].heap;
    if (heap >= heap_bytes_.size()) return;
    auto& h = heap_bytes_[heap];
    h = static_cast<std::uint64_t>(static_cast<std::int64_t>(h) + delta);
    s_.peak_bytes_per_heap[heap] = std::max(s_.peak_bytes_per_heap[heap], h);
    sample();
  }

  // The timeline's samples are rows of timeline_ (one value per heap) until
  // finish(), instead of a vector each.
  void sample() {
    auto& t = s_.timeline_time;
    const std::size_t heaps = heap_bytes_.size();
    // Threads' stamps can step back a little: the plot's time only advances.
    const double when = t.empty() ? now_ : std::max(now_, t.back());
    if (!t.empty() && t.back() == when) {
      std::uint64_t* last = timeline_.data() + (t.size() - 1) * heaps;
      for (std::size_t h = 0; h < heaps; ++h) last[h] = std::max(last[h], heap_bytes_[h]);
      return;
    }
    t.push_back(when);
    timeline_.insert(timeline_.end(), heap_bytes_.begin(), heap_bytes_.end());
    if (t.size() < Stats::kTimelinePoints) return;
    // Full: neighbouring samples merge, keeping their maxima.
    std::size_t out = 0;
    for (std::size_t i = 0; i + 1 < t.size(); i += 2, ++out) {
      t[out] = t[i];
      for (std::size_t h = 0; h < heaps; ++h)
        timeline_[out * heaps + h] = std::max(timeline_[i * heaps + h], timeline_[(i + 1) * heaps + h]);
    }
    t.resize(out);
    timeline_.resize(out * heaps);
  }

  Stats& s_;
  detail::PtrMap<Live> live_;
  std::vector<std::string> texts_;
  std::vector<std::uint32_t> free_texts_;  // unused texts_ entries, 1-based
  std::unordered_map<std::uint64_t, std::size_t> pool_index_;
  std::unordered_set<std::uint32_t> frames_;
  std::vector<std::uint64_t> heap_bytes_, type_bytes_;
  std::vector<std::uint64_t> timeline_;
  TypeCache types_;
  std::uint64_t live_bytes_ = 0;
  double last_time_ = 0;
  std::array<std::pair<std::uint32_t, std::uint64_t*>, 8> recent_threads_{};
  std::size_t next_recent_ = 0;
  std::uint64_t* thread_calls_ = nullptr;
  double now_ = 0;
  std::uint32_t last_thread_ = 0, last_frame_ = 0;
};

}  // namespace

std::uint64_t estimate_image_bytes(std::uint32_t format, std::uint32_t width, std::uint32_t height, std::uint32_t depth,
                                   std::uint32_t mips, std::uint32_t layers, std::uint32_t samples) {
  const std::uint64_t x16 = texel_bytes_x16(format);
  std::uint64_t texels = 0;
  for (std::uint32_t m = 0; m < std::max(1u, std::min(mips, 32u)); ++m) {
    const std::uint64_t w = std::max<std::uint64_t>(1, width >> m);
    const std::uint64_t h = std::max<std::uint64_t>(1, height >> m);
    const std::uint64_t d = std::max<std::uint64_t>(1, depth >> m);
    texels += w * h * d;
  }
  return (texels * x16 + 15) / 16 * std::max(1u, layers) * std::max(1u, samples);
}

Stats recording_stats(std::unique_ptr<Decoder> decoder, const std::string& name, const StatOptions& opt) {
  Stats s;
  s.file = name;
  s.container = decoder->container();
  ReaderOptions ro;
  ro.keep_going = opt.keep_going;
  ro.warnings = opt.warnings;
  Reader reader(std::move(decoder), name, ro);
  s.header = reader.header();
  Counter counter(s);
  try {
    while (const Call* c = reader.next()) {
      counter.call(*c);
      if (opt.progress && (s.calls & 0xffff) == 0) opt.progress(reader.bytes_read(), 0);
    }
  } catch (const Error& e) {
    s.error = e;
  }
  counter.finish();
  s.warnings = reader.warnings();
  return s;
}

}  // namespace libtrace::vma
