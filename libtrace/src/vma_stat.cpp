// SPDX-License-Identifier: MIT
// One pass over a VMA recording: counts, live allocations over time, leaks.
#include "libtrace/vma_stat.hpp"
#include "libtrace/vma_sim.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

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
  Function function;
  std::uint64_t bytes;
  int type;  // resolved memory type, -1 if unknown
  std::string user_data;
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
      thread_calls_ = &s_.calls_per_thread[c.thread];
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
        if (auto it = live_.find(n[0]); it != live_.end()) it->second.user_data = c.text;
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
    for (auto& [ptr, l] : live_) {
      s_.leaks.push_back(Leak{ptr, l.line, l.function, l.bytes, l.user_data});
      ++s_.lifetime_histogram[7];
    }
    std::sort(s_.leaks.begin(), s_.leaks.end(), [](const Leak& a, const Leak& b) { return a.line < b.line; });
  }

 private:
  // The memory type VMA would pick on the recorded device: a custom pool's,
  // else the cheapest type with the required flags among those allowed.
  int resolve(std::uint64_t pool, std::uint64_t usage, std::uint64_t required, std::uint64_t preferred,
              std::uint64_t type_bits, std::uint32_t req_bits) {
    if (pool) {
      if (auto it = pool_index_.find(pool); it != pool_index_.end())
        return static_cast<int>(s_.pools[it->second].memory_type);
      return -1;
    }
    return resolve_memory_type(s_.header.config, usage, required, preferred, type_bits, req_bits);
  }

  void create(const Call& c, std::uint64_t ptr, std::uint64_t bytes, int type, std::uint64_t pool = 0) {
    if (!ptr) {
      ++s_.failed_creations;
      return;
    }
    ++s_.allocations_created;
    if (auto it = pool_index_.find(pool); pool && it != pool_index_.end()) ++s_.pools[it->second].allocations;
    if (auto it = live_.find(ptr); it != live_.end()) {
      ++s_.reused_live_pointers;  // its free was not recorded
      remove(it, c.time);
    }
    // A lost allocation has no memory, so no type to resolve.
    if (type < 0 && c.function != Function::CreateLostAllocation) ++s_.unresolved_type_allocations;
    std::size_t bucket = 0;
    for (std::uint64_t b = bytes; b > 1 && bucket + 1 < s_.size_histogram.size(); b >>= 1) ++bucket;
    ++s_.size_histogram[bucket];
    live_.emplace(ptr, Live{c.line, c.time, c.function, bytes, type, c.has_text ? c.text : std::string()});
    add_bytes(type, static_cast<std::int64_t>(bytes));
    if (live_.size() > s_.peak_live_allocations) {
      s_.peak_live_allocations = live_.size();
      s_.peak_live_allocations_line = c.line;
    }
  }

  void destroy(std::uint64_t ptr, double time) {
    if (!ptr) return;
    auto it = live_.find(ptr);
    if (it == live_.end()) {
      ++s_.unknown_pointer_destroys;
      return;
    }
    remove(it, time);
  }

  void remove(std::unordered_map<std::uint64_t, Live>::iterator it, double time) {
    const double life = time - it->second.created;
    std::size_t b = 0;
    for (double limit = 0.001; b < 6 && life >= limit; limit *= 10) ++b;
    ++s_.lifetime_histogram[b];
    add_bytes(it->second.type, -static_cast<std::int64_t>(it->second.bytes));
    live_.erase(it);
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

  void sample() {
    auto& t = s_.timeline_time;
    auto& b = s_.timeline_heap_bytes;
    // Threads' stamps can step back a little: the plot's time only advances.
    const double when = t.empty() ? now_ : std::max(now_, t.back());
    if (!t.empty() && t.back() == when) {
      for (std::size_t h = 0; h < heap_bytes_.size(); ++h) b.back()[h] = std::max(b.back()[h], heap_bytes_[h]);
      return;
    }
    t.push_back(when);
    b.push_back(heap_bytes_);
    if (t.size() < Stats::kTimelinePoints) return;
    std::size_t out = 0;
    for (std::size_t i = 0; i + 1 < t.size(); i += 2, ++out) {
      t[out] = t[i];
      for (std::size_t h = 0; h < heap_bytes_.size(); ++h) b[i][h] = std::max(b[i][h], b[i + 1][h]);
      if (out != i) b[out] = std::move(b[i]);
    }
    t.resize(out);
    b.resize(out);
  }

  Stats& s_;
  std::unordered_map<std::uint64_t, Live> live_;
  std::unordered_map<std::uint64_t, std::size_t> pool_index_;
  std::unordered_set<std::uint32_t> frames_;
  std::vector<std::uint64_t> heap_bytes_, type_bytes_;
  std::uint64_t live_bytes_ = 0;
  double last_time_ = 0;
  std::uint64_t* thread_calls_ = nullptr;  // std::map nodes are stable
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
