// SPDX-License-Identifier: MIT
// A flat open-addressing map keyed by (tag, hash), never shrinking: the
// per-entry bookkeeping of merge, stat and the writer, where a node-based
// std::unordered_map costs an allocation per entry.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "core/huge_pages.hpp"
#include "libtrace/foz/archive.hpp"

namespace libtrace::foz::detail {

struct NoValue {};

template <typename V>
class KeyMap {
 public:
  KeyMap() { slots_.resize(kInitial); }

  // The value for (tag, hash), inserted as `v` when absent; second is true
  // when it was inserted. The pointer is valid until the next insertion.
  std::pair<V*, bool> try_emplace(Tag tag, std::uint64_t hash, const V& v = V{}) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    const std::uint32_t t = static_cast<std::uint32_t>(tag) + 1;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = mix(hash, t) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.tag == 0) {
        s.tag = t;
        s.hash = hash;
        s.value = v;
        ++size_;
        return {&s.value, true};
      }
      if (s.tag == t && s.hash == hash) return {&s.value, false};
    }
  }

  V* find(Tag tag, std::uint64_t hash) {
    const std::uint32_t t = static_cast<std::uint32_t>(tag) + 1;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = mix(hash, t) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.tag == 0) return nullptr;
      if (s.tag == t && s.hash == hash) return &s.value;
    }
  }
  const V* find(Tag tag, std::uint64_t hash) const { return const_cast<KeyMap*>(this)->find(tag, hash); }
  bool contains(Tag tag, std::uint64_t hash) const { return find(tag, hash) != nullptr; }
  std::size_t size() const { return size_; }

  // f(Tag, hash, V&) for every key, in no particular order.
  template <typename F>
  void for_each(F&& f) {
    for (Slot& s : slots_)
      if (s.tag) f(static_cast<Tag>(s.tag - 1), s.hash, s.value);
  }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t tag = 0;  // tag + 1; 0 = empty
    [[no_unique_address]] V value{};
  };
  static constexpr std::size_t kInitial = 1024;

  // Hashes are often well spread, but hand-made and synthetic ones are not.
  static std::size_t mix(std::uint64_t h, std::uint32_t t) {
    h ^= static_cast<std::uint64_t>(t) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return static_cast<std::size_t>(h);
  }

  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    size_ = 0;
    for (const Slot& s : old)
      if (s.tag) try_emplace(static_cast<Tag>(s.tag - 1), s.hash, s.value);
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

// The compact form for the per-entry indexes: 16 bytes a slot (a hash, and
// a 60-bit value with the tag in the low 4 bits), so a million entries fit
// in 32 MiB and a probe is one cache line.
class PackedKeyMap {
 public:
  static constexpr std::uint64_t kMaxValue = (std::uint64_t{1} << 60) - 1;

  PackedKeyMap() { slots_.reset(kInitial); }

  // The slot's value for (tag, hash), set to `v` when absent; second is true
  // when it was inserted. Valid until the next insertion.
  std::pair<std::uint64_t, bool> try_emplace(Tag tag, std::uint64_t hash, std::uint64_t v = 0) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    const std::uint64_t t = static_cast<std::uint64_t>(tag) + 1;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = mix(hash, t) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.data == 0) {
        s.hash = hash;
        s.data = v << 4 | t;
        ++size_;
        return {v, true};
      }
      if ((s.data & 0xf) == t && s.hash == hash) return {s.data >> 4, false};
    }
  }
  // Starts loading the cache line a lookup of (tag, hash) will probe first:
  // with a batch of keys prefetched, their misses overlap.
  void prefetch(Tag tag, std::uint64_t hash) const {
    const std::uint64_t t = static_cast<std::uint64_t>(tag) + 1;
    __builtin_prefetch(&slots_[mix(hash, t) & (slots_.size() - 1)]);
  }
  // Room for `n` more keys without growing (call before prefetching a batch).
  void reserve_more(std::size_t n) {
    while ((size_ + n) * 4 > slots_.size() * 3) grow();
  }

  // Replaces the value of a present key.
  void set(Tag tag, std::uint64_t hash, std::uint64_t v) {
    if (Slot* s = slot(tag, hash)) s->data = v << 4 | (s->data & 0xf);
  }
  // The value, or nullopt when absent.
  std::optional<std::uint64_t> find(Tag tag, std::uint64_t hash) const {
    const Slot* s = const_cast<PackedKeyMap*>(this)->slot(tag, hash);
    if (!s) return std::nullopt;
    return s->data >> 4;
  }
  bool contains(Tag tag, std::uint64_t hash) const { return find(tag, hash).has_value(); }
  std::size_t size() const { return size_; }

  template <typename F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_)
      if (s.data) f(static_cast<Tag>((s.data & 0xf) - 1), s.hash, s.data >> 4);
  }

 private:
  struct Slot {
    std::uint64_t hash;
    std::uint64_t data;  // value << 4 | (tag + 1); 0 = empty
  };
  static constexpr std::size_t kInitial = 1024;

  // Zeroed slots, on huge pages once they reach megabytes (core/huge_pages.hpp).
  class Slots {
   public:
    Slots() = default;
    ~Slots() { std::free(p_); }
    Slots(const Slots&) = delete;
    Slots& operator=(const Slots&) = delete;
    void reset(std::size_t n) {
      const std::size_t bytes = n * sizeof(Slot);
      void* p = libtrace::detail::alloc_table(bytes);
      std::memset(p, 0, bytes);
      std::free(p_);
      p_ = static_cast<Slot*>(p);
      n_ = n;
    }
    void swap(Slots& o) noexcept {
      std::swap(p_, o.p_);
      std::swap(n_, o.n_);
    }
    std::size_t size() const { return n_; }
    Slot& operator[](std::size_t i) { return p_[i]; }
    const Slot& operator[](std::size_t i) const { return p_[i]; }
    const Slot* begin() const { return p_; }
    const Slot* end() const { return p_ + n_; }

   private:
    Slot* p_ = nullptr;
    std::size_t n_ = 0;
  };

  static std::size_t mix(std::uint64_t h, std::uint64_t t) {
    h ^= t * 0x9e3779b97f4a7c15ull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return static_cast<std::size_t>(h);
  }

  Slot* slot(Tag tag, std::uint64_t hash) {
    const std::uint64_t t = static_cast<std::uint64_t>(tag) + 1;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = mix(hash, t) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.data == 0) return nullptr;
      if ((s.data & 0xf) == t && s.hash == hash) return &s;
    }
  }

  void grow() {
    Slots old;
    old.reset(slots_.size() * 2);
    old.swap(slots_);
    size_ = 0;
    for (const Slot& s : old)
      if (s.data) try_emplace(static_cast<Tag>((s.data & 0xf) - 1), s.hash, s.data >> 4);
  }

  Slots slots_;
  std::size_t size_ = 0;
};

// Keys only (the value is always 0).
class KeySet {
 public:
  std::pair<NoValue*, bool> try_emplace(Tag tag, std::uint64_t hash) {
    static NoValue none;
    return {&none, map_.try_emplace(tag, hash).second};
  }
  bool contains(Tag tag, std::uint64_t hash) const { return map_.contains(tag, hash); }
  std::size_t size() const { return map_.size(); }

 private:
  PackedKeyMap map_;
};

}  // namespace libtrace::foz::detail
