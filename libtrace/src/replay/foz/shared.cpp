// SPDX-License-Identifier: MIT
// The mapping shared by the parent and its workers.
#include "replay/foz/shared.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "libtrace/core/error.hpp"

namespace libtrace::foz::detail {

namespace {

std::size_t align_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }

// First in the mapping. A worker may be another build of trak-replay than
// its parent (the path is the caller's choice): the magic and the sizes
// catch that before anything is misread.
struct Header {
  std::uint64_t magic;
  std::uint64_t items;
  std::uint64_t bytes;
  std::uint32_t slots;
  std::uint32_t layout;  // sizeof(Control) and sizeof(Slot), as a check
};
constexpr std::uint64_t kMagic = 0x74726b7265706c31;  // "trkrepl1"
constexpr std::uint32_t kLayout = static_cast<std::uint32_t>(sizeof(Control) << 8 | sizeof(Slot));

struct Offsets {
  std::size_t control, slots, items, outcome, owner, bytes;
};

Offsets offsets(std::size_t items, unsigned slots) {
  Offsets o{};
  o.control = align_up(sizeof(Header), 64);
  o.slots = align_up(o.control + sizeof(Control), 64);
  o.items = align_up(o.slots + sizeof(Slot) * slots, 64);
  o.outcome = o.items + sizeof(WorkItem) * items;
  o.owner = align_up(o.outcome + items, 8);
  o.bytes = o.owner + sizeof(std::atomic<std::uint32_t>) * items + 64;
  return o;
}

}  // namespace

SharedState::SharedState(std::size_t items, unsigned slots, bool between_processes) : n_slots_(slots), n_items_(items) {
  bytes_ = offsets(items, slots).bytes;
  if (between_processes) {
    fd_ = ::memfd_create("libtrace-replay-shared", MFD_CLOEXEC);
    if (fd_ < 0) throw_errno("", "memfd_create for the shared state");
    if (::ftruncate(fd_, static_cast<off_t>(bytes_)) != 0) {
      ::close(fd_);
      throw_errno("", "sizing the shared state");
    }
    base_ = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  } else {
    base_ = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
  }
  if (base_ == MAP_FAILED) {
    if (fd_ >= 0) ::close(fd_);
    throw_errno("", "mmap of the shared state");
  }
  // Zero-filled by the kernel: the atomics start at 0, the outcomes pending.
  new (base_) Header{kMagic, items, bytes_, slots, kLayout};
  lay_out();
  new (control_) Control();
  for (unsigned i = 0; i < slots; ++i) new (&slots_[i]) Slot();
}

SharedState::SharedState(int memfd) {
  struct stat st {};
  Header h{};
  const bool readable = ::fstat(memfd, &st) == 0 && static_cast<std::size_t>(st.st_size) >= sizeof h &&
                        ::pread(memfd, &h, sizeof h, 0) == static_cast<ssize_t>(sizeof h);
  if (!readable || h.magic != kMagic || h.layout != kLayout || h.bytes != static_cast<std::uint64_t>(st.st_size) ||
      offsets(h.items, h.slots).bytes != h.bytes) {
    ::close(memfd);
    throw Error(Errc::unsupported, "worker",
                "the shared state is not this build's (is the worker another version of trak-replay?)");
  }
  n_items_ = h.items;
  n_slots_ = h.slots;
  bytes_ = h.bytes;
  base_ = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
  ::close(memfd);  // the mapping keeps the memory; no descriptor to leak
  if (base_ == MAP_FAILED) throw_errno("worker", "mmap of the shared state");
  lay_out();
}

void SharedState::lay_out() {
  const Offsets o = offsets(n_items_, n_slots_);
  auto* b = static_cast<char*>(base_);
  control_ = reinterpret_cast<Control*>(b + o.control);
  slots_ = reinterpret_cast<Slot*>(b + o.slots);
  items_ = reinterpret_cast<WorkItem*>(b + o.items);
  outcome_ = reinterpret_cast<std::atomic<std::uint8_t>*>(b + o.outcome);
  owner_ = reinterpret_cast<std::atomic<std::uint32_t>*>(b + o.owner);
}

SharedState::~SharedState() {
  if (base_) ::munmap(base_, bytes_);
  if (fd_ >= 0) ::close(fd_);
}

void SharedState::set_items(std::span<const WorkItem> items) {
  std::copy_n(items.begin(), std::min(items.size(), n_items_), items_);
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
