// SPDX-License-Identifier: MIT
// trak-stat on a VMA recording: chunks of lines are parsed and counted on two
// threads (vma_stat_chunk.cpp), and merged here in file order: counts, live
// allocations over time, leaks, pools.
#include "libtrace/vma_stat.hpp"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_set>

#include "ptr_map.hpp"
#include "vma_stat_chunk.hpp"

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

using detail::ChunkStats;
using detail::Event;
using detail::EventKind;

// Applies the chunks' counts and events in file order.
class Merger {
 public:
  Merger(Stats& s, const StatOptions& opt, std::uint64_t header_lines, std::uint64_t header_warnings)
      : s_(s), opt_(opt), lines_(header_lines) {
    s_.warnings = header_warnings;
    s_.peak_bytes_per_heap.assign(s_.header.config.heaps.size(), 0);
    s_.peak_bytes_per_type.assign(s_.header.config.types.size(), 0);
    heap_bytes_.assign(s_.header.config.heaps.size(), 0);
    type_bytes_.assign(s_.header.config.types.size(), 0);
    for (const MemoryType& t : s_.header.config.types) type_heap_.push_back(t.heap);
    rows_.resize(Stats::kTimelinePoints * heap_bytes_.size());
  }

  // False when nothing may follow: the last chunk, or an error.
  bool merge(const detail::Chunk& chunk, const ChunkStats& cs) {
    const std::uint64_t base = lines_;
    const std::uint64_t calls_before = s_.calls;
    if (cs.calls) {
      if (!s_.calls) s_.first_time = cs.first_time;
      else if (cs.first_time < last_call_time_) ++s_.time_steps_back;
      last_call_time_ = cs.last_time;
    }
    s_.calls += cs.calls;
    s_.time_steps_back += cs.time_steps_back;
    s_.last_time = std::max(s_.last_time, cs.max_time);
    for (std::size_t f = 0; f < kFunctionCount; ++f) s_.calls_per_function[f] += cs.calls_per_function[f];
    for (const auto& [thread, calls] : cs.threads) s_.calls_per_thread[thread] += calls;
    frames_.insert(cs.frames.begin(), cs.frames.end());
    s_.failed_creations += cs.failed_creations;
    s_.allocations_created += cs.allocations_created;
    s_.image_bytes_estimated += cs.image_bytes_estimated;
    for (std::size_t k = 0; k < s_.size_histogram.size(); ++k) s_.size_histogram[k] += cs.size_histogram[k];

    const std::vector<Event>& events = cs.events;
    for (std::size_t i = 0; i < events.size(); ++i) {
      // The live table is larger than the caches on big recordings: the slot
      // for an event a few on is loaded while this one is applied.
      if (i + 8 < events.size()) live_.prefetch(events[i + 8].ptr);
      apply(events[i], base, cs);
    }
    for (const detail::LineNote& n : cs.notes) warn(base + n.line, n.why);
    lines_ += cs.lines;
    if (opt_.progress && (s_.calls >> 16) != (calls_before >> 16)) opt_.progress(chunk.bytes, 0);

    if (cs.error) {
      s_.error = Error(Errc::bad_record, s_.file + ": line " + std::to_string(base + cs.error->line), cs.error->why);
      return false;
    }
    if (chunk.too_long) {
      s_.error = Error(Errc::bad_record, s_.file + ": line " + std::to_string(lines_), "line longer than 64 MiB (not a recording?)");
      return false;
    }
    if (chunk.error) {
      try {
        std::rethrow_exception(chunk.error);
      } catch (const Error& e) {
        s_.error = e;
      }
      return false;
    }
    if (chunk.cut_off) warn(++lines_, "last line has no line end (the recording was cut off); dropped");
    return !chunk.last;
  }

  void finish() {
    s_.frames = frames_.size();
    s_.live_at_end = live_.size();
    s_.live_bytes_at_end = live_bytes_;
    // Creation order: by line, and the pages of one call in their order.
    // Sorted as small records, the leaks built after (a large recording leaves
    // tens of thousands, and this runs on one thread at the end).
    struct Left {
      std::uint64_t seq, ptr;
      const Live* live;
    };
    std::vector<Left> order;
    order.reserve(live_.size());
    live_.for_each([&](std::uint64_t ptr, const Live& l) { order.push_back({l.seq, ptr, &l}); });
    std::sort(order.begin(), order.end(), [](const Left& a, const Left& b) { return a.seq < b.seq; });
    s_.lifetime_histogram[7] += order.size();
    s_.leaks.reserve(order.size());
    for (const Left& o : order) {
      const Live& l = *o.live;
      s_.leaks.push_back(Leak{o.ptr, l.line, l.function, l.bytes, l.text ? texts_[l.text - 1] : std::string()});
    }
    const std::size_t heaps = heap_bytes_.size();
    s_.timeline_time.assign(times_.begin(), times_.begin() + static_cast<std::ptrdiff_t>(samples_));
    s_.timeline_heap_bytes.resize(samples_);
    for (std::size_t i = 0; i < samples_; ++i)
      s_.timeline_heap_bytes[i].assign(rows_.begin() + static_cast<std::ptrdiff_t>(i * heaps),
                                       rows_.begin() + static_cast<std::ptrdiff_t>((i + 1) * heaps));
  }

 private:
  void warn(std::uint64_t line, const std::string& why) {
    ++s_.warnings;
    if (opt_.warnings) opt_.warnings(s_.file + ": line " + std::to_string(line), why);
  }

  void apply(const Event& e, std::uint64_t base, const ChunkStats& cs) {
    now_ = e.time;
    static constexpr detail::EventAux kNone{};
    const detail::EventAux& aux = e.aux ? cs.aux[e.aux - 1] : kNone;
    const std::string_view text(cs.texts.data() + aux.text_at, aux.text_size);
    switch (e.kind) {
      case EventKind::create: create(e, aux.pool, base + e.line, text); break;
      case EventKind::destroy: destroy(e.ptr, e.time); break;
      case EventKind::user_data:
        if (const std::size_t slot = live_.find(e.ptr); slot != live_.npos) set_text(live_.value(slot), text);
        break;
      case EventKind::pool_create: {
        Pool p;
        p.pointer = e.ptr;
        p.line = base + e.line;
        p.memory_type = static_cast<std::uint32_t>(aux.pool);
        p.block_size = e.bytes;
        p.min_blocks = aux.min_blocks;
        p.max_blocks = aux.max_blocks;
        if (const std::size_t slot = pool_index_.find(e.ptr); slot != pool_index_.npos) pool_index_.value(slot) = s_.pools.size();
        else pool_index_.insert(e.ptr, s_.pools.size());
        s_.pools.push_back(p);
        break;
      }
      case EventKind::pool_destroy:
        if (const std::size_t slot = pool_index_.find(e.ptr); slot != pool_index_.npos) {
          s_.pools[pool_index_.value(slot)].destroyed = true;
          pool_index_.erase(slot);
        }
        break;
      case EventKind::pool_name:
        if (const std::size_t slot = pool_index_.find(e.ptr); slot != pool_index_.npos)
          s_.pools[pool_index_.value(slot)].name = text;
        break;
    }
  }

  void create(const Event& e, std::uint64_t pool_ptr, std::uint64_t line, std::string_view text) {
    // The memory type VMA would pick: a custom pool's (as the pool is now),
    // else the cheapest allowed type with the required flags, resolved when
    // the chunk was counted.
    int type = e.type;
    if (pool_ptr) {
      type = -1;
      if (const std::size_t slot = pool_index_.find(pool_ptr); slot != pool_index_.npos) {
        Pool& pool = s_.pools[pool_index_.value(slot)];
        type = static_cast<int>(pool.memory_type);
        ++pool.allocations;
      }
    }
    live_.reserve_one();
    std::size_t slot = live_.find_or_free(e.ptr);
    if (live_.holds(slot)) {
      ++s_.reused_live_pointers;  // its free was not recorded
      remove(slot, e.time);
      slot = live_.find_or_free(e.ptr);  // erasing moved the entries after it
    }
    // A lost allocation has no memory, so no type to resolve.
    if (type < 0 && e.function != Function::CreateLostAllocation) ++s_.unresolved_type_allocations;
    Live l{line, e.time, e.bytes, seq_++, type, 0, e.function};
    set_text(l, text);
    live_.insert_at(slot, e.ptr, l);
    add_bytes(type, static_cast<std::int64_t>(e.bytes));
    if (live_.size() > s_.peak_live_allocations) {
      s_.peak_live_allocations = live_.size();
      s_.peak_live_allocations_line = line;
    }
  }

  void destroy(std::uint64_t ptr, double time) {
    const std::size_t slot = live_.find(ptr);
    if (slot == live_.npos) {
      ++s_.unknown_pointer_destroys;
      return;
    }
    remove(slot, time);
  }

  void remove(std::size_t slot, double time) {
    Live& l = live_.value(slot);
    // <1ms <10ms ... <100s >=100s: how many of the bounds it reaches, the
    // bounds computed as they always were (0.001, then times 10).
    static constexpr double k1 = 0.001, k2 = k1 * 10, k3 = k2 * 10, k4 = k3 * 10, k5 = k4 * 10, k6 = k5 * 10;
    const double life = time - l.created;
    ++s_.lifetime_histogram[std::size_t{life >= k1} + (life >= k2) + (life >= k3) + (life >= k4) + (life >= k5) + (life >= k6)];
    add_bytes(l.type, -static_cast<std::int64_t>(l.bytes));
    set_text(l, {});
    live_.erase(slot);
  }

  // User data lives beside the table: most allocations have none, and the
  // table's slots stay small.
  void set_text(Live& l, std::string_view text) {
    if (text.empty()) {
      if (l.text) {
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
    const std::uint32_t heap = type_heap_[static_cast<std::size_t>(type)];
    if (heap >= heap_bytes_.size()) return;
    auto& h = heap_bytes_[heap];
    h = static_cast<std::uint64_t>(static_cast<std::int64_t>(h) + delta);
    s_.peak_bytes_per_heap[heap] = std::max(s_.peak_bytes_per_heap[heap], h);
    if (opt_.timeline) sample(heap);
  }

  // The timeline: times_[0, samples_) and rows_ (one value per heap each),
  // copied out by finish(). `changed` is the heap whose bytes changed since
  // the last call: every other heap's value is in the last row already (a row
  // starts as all the heaps' values and only grows).
  void sample(std::size_t changed) {
    const std::size_t heaps = heap_bytes_.size();
    // Threads' stamps can step back a little: the plot's time only advances.
    const double when = samples_ ? std::max(now_, times_[samples_ - 1]) : now_;
    const bool fresh = !samples_ || !(times_[samples_ - 1] == when);
    // The next row is written whether it starts or not: a new time comes on
    // every other line or so, and a branch on it would be mispredicted.
    std::uint64_t* next = rows_.data() + samples_ * heaps;
    for (std::size_t h = 0; h < heaps; ++h) next[h] = heap_bytes_[h];  // a few: no memmove call
    times_[samples_] = when;
    samples_ += fresh;
    std::uint64_t& cell = rows_[(samples_ - 1) * heaps + changed];
    cell = std::max(cell, heap_bytes_[changed]);
    if (samples_ < Stats::kTimelinePoints) return;
    // Full: neighbouring samples merge, keeping their maxima.
    std::size_t out = 0;
    for (std::size_t i = 0; i + 1 < samples_; i += 2, ++out) {
      times_[out] = times_[i];
      for (std::size_t h = 0; h < heaps; ++h)
        rows_[out * heaps + h] = std::max(rows_[i * heaps + h], rows_[(i + 1) * heaps + h]);
    }
    samples_ = out;
  }

  Stats& s_;
  const StatOptions& opt_;
  std::uint64_t lines_;  // lines before the next chunk
  double last_call_time_ = 0;
  libtrace::detail::PtrMap<Live> live_;
  std::uint64_t seq_ = 0;
  std::vector<std::string> texts_;
  std::vector<std::uint32_t> free_texts_;  // unused texts_ entries, 1-based
  libtrace::detail::PtrMap<std::size_t> pool_index_;  // live pools in s_.pools
  std::unordered_set<std::uint32_t> frames_;
  std::vector<std::uint64_t> heap_bytes_, type_bytes_;
  std::vector<std::uint32_t> type_heap_;  // each memory type's heap
  std::vector<double> times_ = std::vector<double>(Stats::kTimelinePoints);
  std::vector<std::uint64_t> rows_;
  std::size_t samples_ = 0;
  std::uint64_t live_bytes_ = 0;
  double now_ = 0;
};

// Chunks go from reading through counting to the merge; each thread takes
// whichever step is due, the merge first, so that it never waits long and
// chunks in flight stay few (memory is flat). One thread per core, up to
// four: the merge, a quarter of the work, is done in file order.
class Pipeline {
 public:
  Pipeline(detail::Source& source, const Header& header, bool keep_going, Merger& merger)
      : source_(source), header_(header), keep_going_(keep_going), merger_(merger),
        threads_(std::clamp(std::thread::hardware_concurrency(), 1u, 4u)), works_(2 * threads_ + 2) {
    for (auto& w : works_) free_.push_back(&w);
  }

  void run() {
    std::vector<std::thread> helpers;
    for (unsigned i = 1; i < threads_; ++i) helpers.emplace_back([this] { work(); });
    work();
    for (auto& h : helpers) h.join();
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  struct Work {
    detail::Chunk chunk;
    ChunkStats stats;
    detail::TypeCache types;
    std::uint64_t seq = 0;
  };

  void work() {
    std::unique_lock lock(mu_);
    for (;;) {
      if (done_) return;
      if (!merging_ && !counted_.empty() && counted_.begin()->first == next_merge_) {
        Work* w = counted_.begin()->second;
        counted_.erase(counted_.begin());
        merging_ = true;
        lock.unlock();
        bool more = false;
        try {
          more = merger_.merge(w->chunk, w->stats);
          give_back(w->chunk, !more);
        } catch (...) {
          lock.lock();
          failure_ = std::current_exception();
          lock.unlock();
        }
        lock.lock();
        merging_ = false;
        ++next_merge_;
        free_.push_back(w);
        done_ = done_ || !more;
        cv_.notify_all();
        continue;
      }
      if (!reading_ && !read_all_ && !free_.empty()) {
        Work* w = free_.back();
        free_.pop_back();
        reading_ = true;
        lock.unlock();
        bool got = false;
        try {
          got = source_.next_chunk(w->chunk);
          if (got) {
            lock.lock();
            w->seq = next_read_++;
            read_all_ = w->chunk.last;
            reading_ = false;
            cv_.notify_all();  // another thread may read on meanwhile
            lock.unlock();
            count_chunk(w->chunk, header_, keep_going_, w->types, w->stats);
          }
        } catch (...) {
          lock.lock();
          failure_ = std::current_exception();
          done_ = true;
          cv_.notify_all();
          return;
        }
        lock.lock();
        if (got) {
          counted_.emplace(w->seq, w);
        } else {
          reading_ = false;
          read_all_ = true;
          free_.push_back(w);
          done_ = done_ || next_merge_ == next_read_;  // nothing left to merge
        }
        cv_.notify_all();
        continue;
      }
      cv_.wait(lock);
    }
  }

  // The merged chunks' memory goes back in file order, 8 MiB at a time: a
  // mapped file's pages then stop counting towards the process, and giving
  // them back chunk by chunk would interrupt the other thread each time (the
  // kernel flushes its TLB entries).
  void give_back(const detail::Chunk& c, bool last) {
    if (!c.in_place) return;
    if (!pending_.data()) pending_ = {c.data, c.size};
    else pending_ = {pending_.data(), static_cast<std::size_t>(c.data + c.size - pending_.data())};
    if (last || pending_.size() >= (8u << 20)) {
      source_.done_with(pending_);
      pending_ = {};
    }
  }

  detail::Source& source_;
  const Header& header_;
  const bool keep_going_;
  std::string_view pending_;  // merged, not given back yet
  Merger& merger_;
  const unsigned threads_;
  std::vector<Work> works_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Work*> free_;
  std::map<std::uint64_t, Work*> counted_;  // by seq, waiting for the merge
  std::uint64_t next_read_ = 0, next_merge_ = 0;
  bool reading_ = false, read_all_ = false, merging_ = false, done_ = false;
  std::exception_ptr failure_;
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
  detail::Source source(std::move(decoder), name, ro);
  s.header = source.header();
  Merger merger(s, opt, source.lines_read(), source.header_warnings());
  Pipeline(source, s.header, opt.keep_going, merger).run();
  merger.finish();
  return s;
}

}  // namespace libtrace::vma
