// SPDX-License-Identifier: MIT
// trak-stat's second pass over a VMA recording (internal to libtrace): the
// chunks' events applied in file order to the live allocations, pools and
// running totals.
//
// With up to five threads one task does it all (LiveTable with Totals as its
// sink). With more, the live allocations are split by pointer into parts,
// each part applied by whichever thread is free (its chunks in file order),
// and what each event changed is left as a Delta; one short pass in file
// order then adds the deltas up and keeps the peaks. Both give the same
// figures.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/ptr_map.hpp"
#include "libtrace/vma/stat.hpp"
#include "vma/stat_chunk.hpp"

namespace libtrace::vma::detail {

// What one event changed: live bytes (of a memory type) and the number of
// live allocations. A creation that reuses a live pointer changes bytes twice
// (the old allocation's go, the new one's come); the second change is in the
// part's `seconds`.
struct Delta {
  std::int64_t bytes = 0;
  std::int16_t type = -1;
  std::int8_t count = 0;
  std::uint8_t second = 0;
  std::uint32_t part = 0;
};

struct SecondChange {
  std::int64_t bytes;
  int type;
};

// The part that owns a pointer; independent of PtrMap's slot hash.
inline unsigned part_of(std::uint64_t ptr, unsigned parts) {
  return static_cast<unsigned>((((ptr ^ (ptr >> 29)) * 0xD6E8FEB86659FD93ull) >> 32) % parts);
}

// Pool events go to every part (each needs the pools' memory types); the
// others only to the pointer's owner.
inline bool to_every_part(EventKind k) {
  return k == EventKind::pool_create || k == EventKind::pool_destroy || k == EventKind::pool_name;
}

// Live bytes and allocations over time, with their peaks, in file order.
class Totals {
 public:
  Totals(Stats& s, bool timeline);

  void set_time(double t) { now_ = t; }
  void bytes(int type, std::int64_t delta);
  void count(int delta, std::uint64_t line);
  // Live figures at the end, and the timeline.
  void finish();

 private:
  void sample(std::size_t changed);

  Stats& s_;
  const bool timeline_;
  std::uint64_t live_ = 0, live_bytes_ = 0;
  // Live bytes and their peaks per memory type and heap, each table with a
  // first entry that takes what belongs to no type or heap (an unknown type,
  // a heap index out of range): bytes() then needs no branch.
  struct Level {
    std::uint64_t bytes = 0, peak = 0;
  };
  struct TypeLevel : Level {
    std::size_t heap = 0;  // in heaps_
  };
  std::vector<TypeLevel> types_;  // type t in [t + 1]
  std::vector<Level> heaps_;      // heap h in [h + 1]
  std::vector<double> times_;
  std::vector<std::uint64_t> rows_;
  std::size_t samples_ = 0;
  double now_ = 0;
};

// Inline: called once or twice per event.
inline void Totals::count(int delta, std::uint64_t line) {
  live_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(live_) + delta);
  if (live_ > s_.peak_live_allocations) {
    s_.peak_live_allocations = live_;
    s_.peak_live_allocations_line = line;
  }
}

inline void Totals::bytes(int type, std::int64_t delta) {
  live_bytes_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(live_bytes_) + delta);
  s_.peak_live_bytes = std::max(s_.peak_live_bytes, live_bytes_);
  // -1 (unknown) wraps to entry 0, and so does a type past the table.
  const std::size_t at = static_cast<unsigned>(type) + 1u;
  TypeLevel& t = types_[at < types_.size() ? at : 0];
  t.bytes = static_cast<std::uint64_t>(static_cast<std::int64_t>(t.bytes) + delta);
  t.peak = std::max(t.peak, t.bytes);
  Level& h = heaps_[t.heap];
  h.bytes = static_cast<std::uint64_t>(static_cast<std::int64_t>(h.bytes) + delta);
  h.peak = std::max(h.peak, h.bytes);
  if (timeline_ && t.heap) sample(t.heap - 1);
}

// Writes an event's changes into its Delta.
struct DeltaSink {
  Delta* d;
  std::vector<SecondChange>* seconds;

  void bytes(int type, std::int64_t delta) {
    if (!delta) return;  // a lost allocation's: changes nothing
    if (!d->bytes) {
      d->bytes = delta;
      d->type = static_cast<std::int16_t>(type);
    } else {
      d->second = 1;
      seconds->push_back({delta, type});
    }
  }
  void count(int delta, std::uint64_t) { d->count = static_cast<std::int8_t>(d->count + delta); }
};

// The indices of a chunk's events each part applies, in file order: those of
// its pointers, and every pool event. Done where the chunk was counted, so
// that each part reads its own events only.
void split_events(const ChunkStats& cs, unsigned parts, std::vector<std::vector<std::uint32_t>>& mine);

// A leak found by LiveTable::leaks(), to be sorted by creation before it is
// built.
struct LeakRef {
  std::uint64_t seq, ptr;
  const void* live;
  unsigned part;
};

// The live allocations and pools of one part (or of all, with one part).
class LiveTable {
 public:
  // The recorded memory types: a pool on another is no type of this device.
  void set_type_count(std::size_t n) { type_count_ = n; }

  // Applies a chunk's events in order: all of them, the totals kept at once.
  // `base`: the file's lines before the chunk; `seq`: the chunk's place, for
  // the order of creations.
  void apply_all(const ChunkStats& cs, std::uint64_t base, std::uint64_t seq, Totals& totals);
  // Only the events `mine` lists (part `part`'s, from split_events), leaving
  // what each changed in deltas[i] for the pass in file order.
  void apply_part(const ChunkStats& cs, std::uint64_t base, std::uint64_t seq, unsigned part,
                  const std::vector<std::uint32_t>& mine, Delta* deltas, std::vector<SecondChange>& seconds);

  // Adds this part's counters and pools' allocation counts to `s` (pools
  // themselves come from part 0: every part sees every pool event) and its
  // leaks to `leaks`.
  void collect(Stats& s, bool with_pools, unsigned part, std::vector<LeakRef>& leaks) const;
  Leak leak(const LeakRef& r) const;

 private:
  struct Live {
    std::uint64_t line;
    double created;
    std::uint64_t bytes;
    std::uint64_t seq;   // creation order, which orders the leaks of one line
    int type;            // resolved memory type, -1 if unknown
    std::uint32_t text;  // user data: texts_[text - 1], or none for 0
    Function function;
  };

  template <class Sink>
  void apply(const Event& e, const ChunkStats& cs, std::uint64_t base, std::uint64_t seq, Sink& sink);
  template <class Sink>
  void create(const Event& e, std::uint64_t pool_ptr, std::uint64_t line, std::uint64_t seq, std::string_view text,
              Sink& sink);
  template <class Sink>
  void remove(std::size_t slot, double time, Sink& sink);
  void set_text(Live& l, std::string_view text);

  libtrace::detail::PtrMap<Live> live_;
  std::vector<std::string> texts_;
  std::vector<std::uint32_t> free_texts_;             // unused texts_ entries, 1-based
  libtrace::detail::PtrMap<std::size_t> pool_index_;  // live pools in pools_
  std::vector<Pool> pools_;
  std::array<std::uint64_t, 8> lifetimes_{};
  std::uint64_t unknown_destroys_ = 0, reused_ = 0, unresolved_ = 0;
  std::size_t type_count_ = 0;
};

}  // namespace libtrace::vma::detail
