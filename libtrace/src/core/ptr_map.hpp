// SPDX-License-Identifier: MIT
// A hash map from object addresses to values, for the live objects of a
// recording (internal to libtrace). Open addressing with linear probing in one
// array: a lookup costs one cache miss where std::unordered_map's node chains
// cost two or three and a malloc per insertion, which made its find() a third
// of trak-stat's time on a large recording.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/huge_pages.hpp"

namespace libtrace::detail {

// Keys are nonzero (0 marks an empty slot; a null pointer is never live).
// Slot indices stay valid until the next insert().
template <class V>
class PtrMap {
 public:
  static constexpr std::size_t npos = ~std::size_t{0};

  PtrMap() { slots_.resize(kMinSlots); }

  std::size_t size() const { return size_; }

  // The slot holding `key`, or npos.
  std::size_t find(std::uint64_t key) const {
    for (std::size_t i = home(key);; i = (i + 1) & mask()) {
      if (slots_[i].key == key) return i;
      if (slots_[i].key == 0) return npos;
    }
  }

  // Adds `key`, which must be absent, with `value`; returns its slot.
  std::size_t insert(std::uint64_t key, V value) {
    reserve_one();
    return insert_at(find_or_free(key), key, std::move(value));
  }

  // Room for one more entry: slot indices change here, not in insert_at().
  void reserve_one() {
    // At most half full, so that probe runs (and the shifts of erase()) stay
    // short.
    if ((size_ + 1) * 2 > slots_.size()) grow();
  }

  // The slot holding `key`, or else the free slot where it would go: one
  // probe for "is it there? then add it".
  std::size_t find_or_free(std::uint64_t key) const {
    std::size_t i = home(key);
    while (slots_[i].key && slots_[i].key != key) i = (i + 1) & mask();
    return i;
  }
  bool holds(std::size_t slot) const { return slots_[slot].key != 0; }

  // Adds `key` in the free slot find_or_free() gave (after reserve_one()).
  std::size_t insert_at(std::size_t slot, std::uint64_t key, V value) {
    slots_[slot].key = key;
    slots_[slot].value = std::move(value);
    ++size_;
    return slot;
  }

  // Like insert_at(), but gives the new entry's value (V{}, as every free
  // slot holds) to be filled in place: a V built aside and copied in is read
  // back before its last stores have landed (a stall per insertion; 2 % of
  // trak-stat's time on one thread).
  V& claim(std::size_t slot, std::uint64_t key) {
    slots_[slot].key = key;
    ++size_;
    return slots_[slot].value;
  }

  V& value(std::size_t slot) { return slots_[slot].value; }

  // Starts loading the slot where a lookup of `key` begins, so that the
  // lookup a few calls later does not wait for memory.
  void prefetch(std::uint64_t key) const {
    const char* at = reinterpret_cast<const char*>(&slots_[home(key)]);
    __builtin_prefetch(at);
    if constexpr (sizeof(Slot) > 64) __builtin_prefetch(at + sizeof(Slot) - 1);  // it spans two lines
  }

  // Removes the entry in `slot`. Later entries of its probe run move back into
  // the hole (no tombstones, so lookups never slow down with churn).
  void erase(std::size_t slot) {
    std::size_t hole = slot;
    for (std::size_t j = (hole + 1) & mask(); slots_[j].key; j = (j + 1) & mask()) {
      const std::size_t h = home(slots_[j].key);
      // The entry at j may fill the hole unless its home lies cyclically in
      // (hole, j]: then it would end up before its home.
      const bool stays = hole < j ? (h > hole && h <= j) : (h > hole || h <= j);
      if (!stays) {
        slots_[hole] = std::move(slots_[j]);
        hole = j;
      }
    }
    slots_[hole].key = 0;
    slots_[hole].value = V{};
    --size_;
  }

  // Calls f(key, value) for every entry, in no particular order.
  template <class F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_)
      if (s.key) f(s.key, s.value);
  }
  template <class F>
  void for_each(F&& f) {
    for (Slot& s : slots_)
      if (s.key) f(s.key, s.value);
  }

 private:
  static constexpr std::size_t kMinSlots = 64;
  // A cache line each: a lookup then touches one line, not two (a 56-byte
  // slot straddled two lines most of the time).
  struct alignas(64) Slot {
    std::uint64_t key = 0;
    V value{};
  };

  std::size_t mask() const { return slots_.size() - 1; }
  // Addresses of one allocator differ by multiples of their object size:
  // multiplying alone (Fibonacci hashing) put such keys into long runs of
  // neighbouring slots (7 slots walked per erase for a generated recording's
  // 20,000 live allocations), so the high half is folded into the low one
  // first, then the multiplication carries it all into the top bits used as
  // the index (under 1 slot walked per erase).
  std::size_t home(std::uint64_t key) const {
    return static_cast<std::size_t>(((key ^ (key >> 32)) * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  void grow() {
    std::vector<Slot, HugePageAllocator<Slot>> old = std::move(slots_);
    slots_.clear();
    slots_.resize(old.size() * 2);
    --shift_;
    size_ = 0;
    for (Slot& s : old)
      if (s.key) insert(s.key, std::move(s.value));
  }

  std::vector<Slot, HugePageAllocator<Slot>> slots_;  // core/huge_pages.hpp: tables of megabytes
  int shift_ = 64 - 6;                                // log2(kMinSlots) index bits
  std::size_t size_ = 0;
};

}  // namespace libtrace::detail
