// SPDX-License-Identifier: MIT
// The mapping shared by the parent and its workers.
#include "foz_replay_shared.hpp"

#include <sys/mman.h>
#include <time.h>

#include <new>

#include "libtrace/error.hpp"

namespace libtrace::foz::detail {

namespace {
std::size_t align_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }
}  // namespace

SharedState::SharedState(std::size_t items, unsigned slots, bool between_processes)
    : n_slots_(slots), n_items_(items) {
  const std::size_t slots_at = align_up(sizeof(Control), 64);
  const std::size_t outcome_at = slots_at + sizeof(Slot) * slots;
  const std::size_t owner_at = align_up(outcome_at + items, 8);
  bytes_ = owner_at + sizeof(std::atomic<std::uint32_t>) * items + 64;
  const int flags = MAP_ANONYMOUS | (between_processes ? MAP_SHARED : MAP_PRIVATE);
  base_ = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, flags, -1, 0);
  if (base_ == MAP_FAILED) throw_errno("trak-replay", "mmap of the shared state");
  auto* b = static_cast<char*>(base_);  // zero-filled by the kernel
  control_ = new (b) Control();
  slots_ = reinterpret_cast<Slot*>(b + slots_at);
  for (unsigned i = 0; i < slots; ++i) new (&slots_[i]) Slot();
  outcome_ = reinterpret_cast<std::atomic<std::uint8_t>*>(b + outcome_at);
  owner_ = reinterpret_cast<std::atomic<std::uint32_t>*>(b + owner_at);
}

SharedState::~SharedState() {
  if (base_) ::munmap(base_, bytes_);
}

bool SharedState::is_banned(std::uint64_t module_hash) const {
  const std::uint32_t n = control_->banned_count.load(std::memory_order_acquire);
  for (std::uint32_t i = 0; i < n && i < kMaxBanned; ++i)
    if (control_->banned[i].load(std::memory_order_relaxed) == module_hash) return true;
  return false;
}

void SharedState::ban(std::uint64_t module_hash) {
  // Only the parent bans, so there is one writer.
  const std::uint32_t n = control_->banned_count.load(std::memory_order_relaxed);
  if (n >= kMaxBanned || is_banned(module_hash)) return;
  control_->banned[n].store(module_hash, std::memory_order_relaxed);
  control_->banned_count.store(n + 1, std::memory_order_release);
}

std::int64_t monotonic_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  const std::int64_t ns = static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
  return ns ? ns : 1;
}

}  // namespace libtrace::foz::detail
