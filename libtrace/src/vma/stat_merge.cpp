// SPDX-License-Identifier: MIT
// trak-stat's second pass: live allocations, pools and running totals.
#include "vma/stat_merge.hpp"

#include <algorithm>

namespace libtrace::vma::detail {

namespace {

struct NoSink {
  void bytes(int, std::int64_t) {}
  void count(int, std::uint64_t) {}
};

}  // namespace

Totals::Totals(Stats& s, bool timeline) : s_(s), timeline_(timeline) {
  const std::size_t heaps = s_.header.config.heaps.size();
  s_.peak_bytes_per_heap.assign(heaps, 0);
  s_.peak_bytes_per_type.assign(s_.header.config.types.size(), 0);
  heaps_.resize(heaps + 1);
  types_.resize(s_.header.config.types.size() + 1);
  for (std::size_t t = 0; t < s_.header.config.types.size(); ++t) {
    const std::uint32_t heap = s_.header.config.types[t].heap;
    types_[t + 1].heap = heap < heaps ? heap + 1 : 0;
  }
  if (timeline_) {
    times_.resize(Stats::kTimelinePoints);
    rows_.resize(Stats::kTimelinePoints * heaps);
  }
}

// The timeline: times_[0, samples_) and rows_ (one value per heap each),
// copied out by finish(). `changed` is the heap whose bytes changed since the
// last call: every other heap's value is in the last row already (a row
// starts as all the heaps' values and only grows).
void Totals::sample(std::size_t changed) {
  const std::size_t heaps = heaps_.size() - 1;
  // Threads' stamps can step back a little: the plot's time only advances.
  const double when = samples_ ? std::max(now_, times_[samples_ - 1]) : now_;
  const bool fresh = !samples_ || !(times_[samples_ - 1] == when);
  // The next row is written whether it starts or not: a new time comes on
  // every other line or so, and a branch on it would be mispredicted.
  std::uint64_t* next = rows_.data() + samples_ * heaps;
  for (std::size_t h = 0; h < heaps; ++h) next[h] = heaps_[h + 1].bytes;  // a few: no memmove call
  times_[samples_] = when;
  samples_ += fresh;
  std::uint64_t& cell = rows_[(samples_ - 1) * heaps + changed];
  cell = std::max(cell, heaps_[changed + 1].bytes);
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

void Totals::finish() {
  s_.live_at_end = live_;
  s_.live_bytes_at_end = live_bytes_;
  for (std::size_t t = 1; t < types_.size(); ++t) s_.peak_bytes_per_type[t - 1] = types_[t].peak;
  for (std::size_t h = 1; h < heaps_.size(); ++h) s_.peak_bytes_per_heap[h - 1] = heaps_[h].peak;
  const std::size_t heaps = heaps_.size() - 1;
  s_.timeline_time.assign(times_.begin(), times_.begin() + static_cast<std::ptrdiff_t>(samples_));
  s_.timeline_heap_bytes.resize(samples_);
  for (std::size_t i = 0; i < samples_; ++i)
    s_.timeline_heap_bytes[i].assign(rows_.begin() + static_cast<std::ptrdiff_t>(i * heaps),
                                     rows_.begin() + static_cast<std::ptrdiff_t>((i + 1) * heaps));
}

template <class Sink>
[[gnu::always_inline]] inline void LiveTable::apply(const Event& e, const ChunkStats& cs, std::uint64_t base,
                                                    std::uint64_t seq, Sink& sink) {
  const EventAux& aux = cs.aux[e.aux];
  const std::string_view text(cs.texts.data() + aux.text_at, aux.text_size);
  const std::uint64_t line = base + e.line;
  switch (e.kind) {
    case EventKind::create: create(e, aux.pool, line, seq, text, sink); break;
    case EventKind::destroy:
      if (const std::size_t slot = live_.find(e.ptr); slot != live_.npos)
        remove(slot, e.time, sink);
      else
        ++unknown_destroys_;
      break;
    case EventKind::user_data:
      if (const std::size_t slot = live_.find(e.ptr); slot != live_.npos) set_text(live_.value(slot), text);
      break;
    case EventKind::pool_create: {
      Pool p;
      p.pointer = e.ptr;
      p.line = line;
      p.memory_type = static_cast<std::uint32_t>(aux.pool);
      p.block_size = e.bytes;
      p.min_blocks = aux.min_blocks;
      p.max_blocks = aux.max_blocks;
      if (const std::size_t slot = pool_index_.find(e.ptr); slot != pool_index_.npos)
        pool_index_.value(slot) = pools_.size();
      else
        pool_index_.insert(e.ptr, pools_.size());
      pools_.push_back(p);
      break;
    }
    case EventKind::pool_destroy:
      if (const std::size_t slot = pool_index_.find(e.ptr); slot != pool_index_.npos) {
        pools_[pool_index_.value(slot)].destroyed = true;
        pool_index_.erase(slot);
      }
      break;
    case EventKind::pool_name:
      if (const std::size_t slot = pool_index_.find(e.ptr); slot != pool_index_.npos)
        pools_[pool_index_.value(slot)].name = text;
      break;
  }
}

template <class Sink>
[[gnu::always_inline]] inline void LiveTable::create(const Event& e, std::uint64_t pool_ptr, std::uint64_t line,
                                                     std::uint64_t seq, std::string_view text, Sink& sink) {
  // The memory type VMA would pick: a custom pool's (as the pool is now),
  // else the cheapest allowed type with the required flags, resolved when
  // the chunk was counted.
  int type = e.type;
  if (pool_ptr) {
    type = -1;
    if (const std::size_t slot = pool_index_.find(pool_ptr); slot != pool_index_.npos) {
      Pool& pool = pools_[pool_index_.value(slot)];
      if (pool.memory_type < type_count_) type = static_cast<int>(pool.memory_type);
      ++pool.allocations;
    }
  }
  live_.reserve_one();
  std::size_t slot = live_.find_or_free(e.ptr);
  if (live_.holds(slot)) {
    ++reused_;  // its free was not recorded
    remove(slot, e.time, sink);
    slot = live_.find_or_free(e.ptr);  // erasing moved the entries after it
  }
  // A lost allocation has no memory, so no type to resolve.
  if (type < 0 && e.function != Function::CreateLostAllocation) ++unresolved_;
  Live& l = live_.claim(slot, e.ptr);
  l.line = line;
  l.created = e.time;
  l.bytes = e.bytes;
  l.seq = seq;
  l.type = type;
  l.function = e.function;
  set_text(l, text);  // l.text is 0 in a free slot
  sink.bytes(type, static_cast<std::int64_t>(e.bytes));
  sink.count(1, line);
}

template <class Sink>
[[gnu::always_inline]] inline void LiveTable::remove(std::size_t slot, double time, Sink& sink) {
  Live& l = live_.value(slot);
  // <1ms <10ms ... <100s >=100s: how many of the bounds it reaches, the
  // bounds computed as they always were (0.001, then times 10).
  static constexpr double k1 = 0.001, k2 = k1 * 10, k3 = k2 * 10, k4 = k3 * 10, k5 = k4 * 10, k6 = k5 * 10;
  const double life = time - l.created;
  ++lifetimes_[std::size_t{life >= k1} + (life >= k2) + (life >= k3) + (life >= k4) + (life >= k5) + (life >= k6)];
  sink.bytes(l.type, -static_cast<std::int64_t>(l.bytes));
  sink.count(-1, 0);
  set_text(l, {});
  live_.erase(slot);
}

// User data lives beside the table: most allocations have none, and the
// table's slots stay small.
[[gnu::always_inline]] inline void LiveTable::set_text(Live& l, std::string_view text) {
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

void LiveTable::apply_all(const ChunkStats& cs, std::uint64_t base, std::uint64_t seq, Totals& totals) {
  const Events& events = cs.events;
  for (std::size_t i = 0; i < events.size(); ++i) {
    // The live table is larger than the caches on big recordings: the slot
    // for an event a few on is loaded while this one is applied.
    if (i + 8 < events.size()) live_.prefetch(events[i + 8].ptr);
    totals.set_time(events[i].time);
    apply(events[i], cs, base, (seq << 32) | i, totals);
  }
}

void LiveTable::apply_part(const ChunkStats& cs, std::uint64_t base, std::uint64_t seq, unsigned part,
                           const std::vector<std::uint32_t>& mine, Delta* deltas, std::vector<SecondChange>& seconds) {
  const Events& events = cs.events;
  for (std::size_t k = 0; k < mine.size(); ++k) {
    const std::uint32_t i = mine[k];
    if (k + 8 < mine.size()) live_.prefetch(events[mine[k + 8]].ptr);
    const Event& e = events[i];
    if (to_every_part(e.kind)) {
      NoSink none;  // pools change no live figure
      apply(e, cs, base, (seq << 32) | i, none);
    } else {
      deltas[i].part = part;
      DeltaSink sink{&deltas[i], &seconds};
      apply(e, cs, base, (seq << 32) | i, sink);
    }
  }
}

void split_events(const ChunkStats& cs, unsigned parts, std::vector<std::vector<std::uint32_t>>& mine) {
  for (auto& m : mine) m.clear();
  const Events& events = cs.events;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto index = static_cast<std::uint32_t>(i);
    if (to_every_part(events[i].kind)) {
      for (auto& m : mine) m.push_back(index);
    } else {
      mine[part_of(events[i].ptr, parts)].push_back(index);
    }
  }
}

void LiveTable::collect(Stats& s, bool with_pools, unsigned part, std::vector<LeakRef>& leaks) const {
  for (std::size_t k = 0; k < lifetimes_.size(); ++k) s.lifetime_histogram[k] += lifetimes_[k];
  s.lifetime_histogram[7] += live_.size();
  s.unknown_pointer_destroys += unknown_destroys_;
  s.reused_live_pointers += reused_;
  s.unresolved_type_allocations += unresolved_;
  if (with_pools) {
    s.pools = pools_;
  } else {
    for (std::size_t i = 0; i < pools_.size() && i < s.pools.size(); ++i)
      s.pools[i].allocations += pools_[i].allocations;
  }
  live_.for_each([&](std::uint64_t ptr, const Live& l) { leaks.push_back({l.seq, ptr, &l, part}); });
}

Leak LiveTable::leak(const LeakRef& r) const {
  const Live& l = *static_cast<const Live*>(r.live);
  return Leak{r.ptr, l.line, l.function, l.bytes, l.text ? texts_[l.text - 1] : std::string()};
}

}  // namespace libtrace::vma::detail
