// SPDX-License-Identifier: MIT
// A flat open-addressing map keyed by (tag, hash), never shrinking: the
// per-entry bookkeeping of merge, stat and the writer, where a node-based
// std::unordered_map costs an allocation per entry.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "libtrace/foz_archive.hpp"

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

using KeySet = KeyMap<NoValue>;

}  // namespace libtrace::foz::detail
