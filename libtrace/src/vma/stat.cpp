// SPDX-License-Identifier: MIT
// trak-stat on a VMA recording: chunks of lines are parsed and counted on two
// threads (vma/stat_chunk.cpp), and merged here in file order: counts, live
// allocations over time, leaks, pools.
#include "libtrace/vma/stat.hpp"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_set>

#include "core/thread.hpp"
#include "vma/stat_chunk.hpp"
#include "vma/stat_merge.hpp"

namespace libtrace::vma {

namespace {

// Bytes per texel (or per texel of a 4x4 block, for block formats, as a
// fraction: numerator over 16).
std::uint32_t texel_bytes_x16(std::uint32_t f) {
  if (f >= 1 && f <= 1) return 16;       // R4G4
  if (f >= 2 && f <= 8) return 32;       // 16-bit packed
  if (f >= 9 && f <= 15) return 16;      // R8
  if (f >= 16 && f <= 22) return 32;     // R8G8
  if (f >= 23 && f <= 36) return 48;     // R8G8B8, B8G8R8
  if (f >= 37 && f <= 69) return 64;     // RGBA8 variants, A2R10G10B10
  if (f >= 70 && f <= 76) return 32;     // R16
  if (f >= 77 && f <= 83) return 64;     // R16G16
  if (f >= 84 && f <= 90) return 96;     // R16G16B16
  if (f >= 91 && f <= 97) return 128;    // R16G16B16A16
  if (f >= 98 && f <= 100) return 64;    // R32
  if (f >= 101 && f <= 103) return 128;  // R32G32
  if (f >= 104 && f <= 106) return 192;  // R32G32B32
  if (f >= 107 && f <= 109) return 256;  // R32G32B32A32
  if (f >= 110 && f <= 112) return 128;  // R64
  if (f >= 113 && f <= 115) return 256;
  if (f >= 116 && f <= 118) return 384;
  if (f >= 119 && f <= 121) return 512;
  if (f == 122 || f == 123) return 64;  // B10G11R11, E5B9G9R9
  if (f == 124) return 32;              // D16
  if (f == 125 || f == 126) return 64;  // X8_D24, D32
  if (f == 127) return 16;              // S8
  if (f == 128) return 48;              // D16_S8
  if (f == 129) return 64;              // D24_S8
  if (f == 130) return 128;             // D32_S8 (padded)
  if (f >= 131 && f <= 134) return 8;   // BC1: 8 bytes / 16 texels
  if (f >= 135 && f <= 138) return 16;  // BC2, BC3
  if (f >= 139 && f <= 140) return 8;   // BC4
  if (f >= 141 && f <= 146) return 16;  // BC5, BC6H, BC7
  if (f >= 147 && f <= 150) return 8;   // ETC2 RGB8, RGB8A1
  if (f >= 151 && f <= 152) return 16;  // ETC2 RGBA8
  if (f >= 153 && f <= 154) return 8;   // EAC R11
  if (f >= 155 && f <= 156) return 16;  // EAC R11G11
  if (f >= 157 && f <= 184) return 16;  // ASTC (4x4 assumed)
  return 64;
}

using detail::ChunkStats;
using detail::Delta;
using detail::LiveTable;
using detail::SecondChange;

// The chunks' counts and events applied in file order: with one part, by one
// thread as they come (merge); with more, each part's events by whichever
// thread is free (merge_part, a part's chunks in file order), then the
// deltas added up in file order (merge_deltas).
class Merger {
 public:
  Merger(Stats& s, const StatOptions& opt, std::uint64_t header_lines, std::uint64_t header_warnings,
         std::uint64_t header_dropped, unsigned parts)
      : s_(s),
        opt_(opt),
        lines_(header_lines),
        totals_(s, opt.timeline),
        tables_(parts),
        part_lines_(parts, header_lines) {
    s_.warnings = header_warnings;
    s_.dropped_lines = header_dropped;
    for (LiveTable& t : tables_) t.set_type_count(s.header.config.types.size());
  }

  unsigned parts() const { return static_cast<unsigned>(tables_.size()); }

  // False when nothing may follow: the last chunk, or an error.
  bool merge(const detail::Chunk& chunk, const ChunkStats& cs, std::uint64_t seq) {
    const std::uint64_t base = add_counts(cs);
    tables_[0].apply_all(cs, base, seq, totals_);
    return end_chunk(chunk, cs, base);
  }

  void merge_part(unsigned part, const ChunkStats& cs, std::uint64_t seq, const std::vector<std::uint32_t>& mine,
                  Delta* deltas, std::vector<SecondChange>& seconds) {
    tables_[part].apply_part(cs, part_lines_[part], seq, part, mine, deltas, seconds);
    part_lines_[part] += cs.lines;
  }

  bool merge_deltas(const detail::Chunk& chunk, const ChunkStats& cs, const std::vector<Delta>& deltas,
                    const std::vector<std::vector<SecondChange>>& seconds) {
    const std::uint64_t base = add_counts(cs);
    std::vector<std::size_t>& next = second_at_;
    next.assign(parts(), 0);
    for (std::size_t i = 0; i < deltas.size(); ++i) {
      const Delta& d = deltas[i];
      if (d.bytes) totals_.bytes(d.type, d.bytes);
      if (d.count) totals_.count(d.count, base + cs.events[i].line);
      if (d.second) {
        const SecondChange& c = seconds[d.part][next[d.part]++];
        totals_.bytes(c.type, c.bytes);
      }
    }
    return end_chunk(chunk, cs, base);
  }

  void finish() {
    s_.frames = frames_.size();
    totals_.finish();
    std::vector<detail::LeakRef> leaks;
    leaks.reserve(s_.live_at_end);
    for (unsigned p = 0; p < parts(); ++p) tables_[p].collect(s_, p == 0, p, leaks);
    // Creation order: by line, and the pages of one call in their order.
    // Sorted as small records, the leaks built after (a large recording leaves
    // tens of thousands, and this runs on one thread at the end).
    std::sort(leaks.begin(), leaks.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; });
    s_.leaks.reserve(leaks.size());
    for (const detail::LeakRef& r : leaks) s_.leaks.push_back(tables_[r.part].leak(r));
  }

 private:
  // The counts that need no order; returns the lines before the chunk.
  std::uint64_t add_counts(const ChunkStats& cs) {
    if (cs.calls) {
      if (!s_.calls)
        s_.first_time = cs.first_time;
      else if (cs.first_time < last_call_time_)
        ++s_.time_steps_back;
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
    return lines_;
  }

  bool end_chunk(const detail::Chunk& chunk, const ChunkStats& cs, std::uint64_t base) {
    for (const detail::LineNote& n : cs.notes) warn(base + n.line, n.why);
    lines_ += cs.lines;
    if (opt_.progress && (s_.calls >> 16) != ((s_.calls - cs.calls) >> 16))
      opt_.progress(chunk.file_offset, opt_.input_size);

    if (cs.error) {
      s_.error = Error(Errc::bad_record, s_.file + ": line " + std::to_string(base + cs.error->line), cs.error->why);
      return false;
    }
    if (chunk.too_long) {
      s_.error = Error(Errc::bad_record, s_.file + ": line " + std::to_string(lines_),
                       "line longer than 64 MiB (not a recording?)");
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

  // Each drops a line: a skipped one, or the cut-off last.
  void warn(std::uint64_t line, const std::string& why) {
    ++s_.warnings;
    ++s_.dropped_lines;
    if (opt_.warnings) opt_.warnings(s_.file + ": line " + std::to_string(line), why);
  }

  Stats& s_;
  const StatOptions& opt_;
  std::uint64_t lines_;  // lines before the next chunk
  double last_call_time_ = 0;
  std::unordered_set<std::uint32_t> frames_;
  detail::Totals totals_;
  std::vector<LiveTable> tables_;
  std::vector<std::uint64_t> part_lines_;  // each part's lines_
  std::vector<std::size_t> second_at_;
};

// Chunks go from reading through counting to the merge; each thread takes
// whichever step is due, the merge first, so that it never waits long and
// chunks in flight stay few (memory is flat). With one part the merge, a
// quarter of the work, is done in file order; with parts, each part's share
// goes to whichever thread is free, then the deltas are added up in order.
class Pipeline {
 public:
  Pipeline(detail::Source& source, const Header& header, bool keep_going, Merger& merger, unsigned threads)
      : source_(source),
        header_(header),
        keep_going_(keep_going),
        merger_(merger),
        threads_(threads),
        parts_(merger.parts()),
        works_(2 * threads_ + 2 + parts_),
        part_next_(parts_, 0),
        part_busy_(parts_, 0) {
    for (auto& w : works_) {
      free_.push_back(&w);
      w.seconds.resize(parts_);
      w.mine.resize(parts_);
    }
  }

  void run() {
    // The first helper starts the others while this thread reads and counts
    // the first chunk: on many cores, starting them one after the other
    // here (~40 us each) held up the whole pipeline. A helper that cannot
    // be started is only one fewer: any thread does any step. Each starts
    // on another core than its starter's (core/thread.hpp).
    std::thread first;
    if (threads_ > 1) {
      try {
        first = libtrace::detail::start_thread([this] {
          std::vector<std::thread> more;
          try {
            for (unsigned i = 2; i < threads_; ++i) more.push_back(libtrace::detail::start_thread([this] { work(); }));
          } catch (const std::system_error&) {
          }
          work();
          for (auto& t : more) t.join();
        });
      } catch (const std::system_error&) {
      }
    }
    work();
    if (first.joinable()) first.join();
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  struct Work {
    detail::Chunk chunk;
    ChunkStats stats;
    detail::TypeCache types;
    std::uint64_t seq = 0;
    bool counted = false;
    unsigned parts_done = 0;
    std::vector<Delta> deltas;                       // with parts: one per event
    std::vector<std::vector<SecondChange>> seconds;  //   and per part
    std::vector<std::vector<std::uint32_t>> mine;    //   each part's events
  };

  void work() {
    std::unique_lock lock(mu_);
    for (;;) {
      if (done_) return;
      if (!merging_) {
        const auto it = in_flight_.find(next_merge_);
        if (it != in_flight_.end() && it->second->counted && it->second->parts_done == (parts_ > 1 ? parts_ : 0)) {
          merge(lock, it->second);
          continue;
        }
      }
      if (parts_ > 1 && merge_a_part(lock)) continue;
      if (!reading_ && !read_all_ && !free_.empty()) {
        read_and_count(lock);
        continue;
      }
      cv_.wait(lock);
    }
  }

  // The chunk's merge in file order (with parts: of its deltas).
  void merge(std::unique_lock<std::mutex>& lock, Work* w) {
    in_flight_.erase(w->seq);
    merging_ = true;
    lock.unlock();
    bool more = false;
    try {
      more = parts_ > 1 ? merger_.merge_deltas(w->chunk, w->stats, w->deltas, w->seconds)
                        : merger_.merge(w->chunk, w->stats, w->seq);
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
  }

  // A part whose next chunk is counted applies it; false if none can.
  bool merge_a_part(std::unique_lock<std::mutex>& lock) {
    for (unsigned p = 0; p < parts_; ++p) {
      if (part_busy_[p] || part_next_[p] > last_seq_) continue;
      const auto it = in_flight_.find(part_next_[p]);
      if (it == in_flight_.end() || !it->second->counted) continue;
      Work* w = it->second;
      part_busy_[p] = 1;
      lock.unlock();
      try {
        merger_.merge_part(p, w->stats, w->seq, w->mine[p], w->deltas.data(), w->seconds[p]);
      } catch (...) {
        fail(lock);
        return true;
      }
      lock.lock();
      part_busy_[p] = 0;
      ++part_next_[p];
      ++w->parts_done;
      // Others are woken only when the chunk's merge can start: this thread
      // looks for work again before it waits (and takes this part's next
      // chunk), while waking every thread after each of a chunk's part tasks
      // cost more than the tasks on many cores.
      if (w->parts_done == parts_) cv_.notify_all();
      return true;
    }
    return false;
  }

  void read_and_count(std::unique_lock<std::mutex>& lock) {
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
        w->counted = false;
        w->parts_done = 0;
        in_flight_.emplace(w->seq, w);
        read_all_ = w->chunk.last;
        reading_ = false;
        cv_.notify_all();  // another thread may read on meanwhile
        lock.unlock();
        count_chunk(w->chunk, header_, keep_going_, w->types, w->stats);
        if (parts_ > 1) {
          w->deltas.assign(w->stats.events.size(), Delta{});
          for (auto& s : w->seconds) s.clear();
          detail::split_events(w->stats, parts_, w->mine);
        }
      }
    } catch (...) {
      fail(lock);
      return;
    }
    lock.lock();
    if (got) {
      w->counted = true;
      // The parts stop at the chunk that ends the count: what follows an
      // error must not change the figures.
      const detail::Chunk& c = w->chunk;
      if (c.last || c.too_long || c.error || w->stats.error) last_seq_ = std::min(last_seq_, w->seq);
    } else {
      reading_ = false;
      read_all_ = true;
      free_.push_back(w);
      done_ = done_ || next_merge_ == next_read_;  // nothing left to merge
    }
    cv_.notify_all();
  }

  // Called in a catch block, unlocked: the run ends with the exception.
  void fail(std::unique_lock<std::mutex>& lock) {
    lock.lock();
    failure_ = std::current_exception();
    done_ = true;
    cv_.notify_all();
  }

  // The merged chunks' memory goes back in file order, 8 MiB at a time: a
  // mapped file's pages then stop counting towards the process, and giving
  // them back chunk by chunk would interrupt the other thread each time (the
  // kernel flushes its TLB entries).
  void give_back(const detail::Chunk& c, bool last) {
    if (!c.in_place) return;
    if (!pending_.data())
      pending_ = {c.data, c.size};
    else
      pending_ = {pending_.data(), static_cast<std::size_t>(c.data + c.size - pending_.data())};
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
  const unsigned threads_, parts_;
  std::vector<Work> works_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Work*> free_;
  std::map<std::uint64_t, Work*> in_flight_;  // by seq, read and not merged
  std::uint64_t next_read_ = 0, next_merge_ = 0;
  std::uint64_t last_seq_ = ~std::uint64_t{0};  // the chunk that ends the count, once known
  std::vector<std::uint64_t> part_next_;        // each part's next chunk
  std::vector<char> part_busy_;
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

Stats stats(std::unique_ptr<Decoder> decoder, const std::string& name, const StatOptions& opt) {
  Stats s;
  s.file = name;
  s.container = decoder->container();
  ReaderOptions ro;
  ro.keep_going = opt.keep_going;
  ro.warnings = opt.warnings;
  detail::Source source(std::move(decoder), name, ro);
  s.header = source.header();
  // Up to 12 threads: on a 16-core machine more were no faster.
  const unsigned threads = opt.threads ? opt.threads : std::clamp(std::thread::hardware_concurrency(), 1u, 12u);
  // The merge in file order keeps up with up to five threads (a quarter of
  // the work); with more, it is split (not with the timeline, sampled in file
  // order).
  const unsigned parts = threads >= 6 && !opt.timeline ? threads : 1;
  Merger merger(s, opt, source.lines_read(), source.header_warnings(), source.header_dropped_lines(), parts);
  Pipeline(source, s.header, opt.keep_going, merger, threads).run();
  merger.finish();
  return s;
}

}  // namespace libtrace::vma
