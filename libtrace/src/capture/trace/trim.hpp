// SPDX-License-Identifier: MIT
// Trimmed captures (TRAK_CAPTURE_TRACE_FRAMES, TRAK_CAPTURE_TRACE_TRIGGER):
// the layer records only the frames asked for, each range into a file of
// its own that starts with the state at the range's first frame. Before a
// range the layer writes nothing: it keeps the calls that made the live
// objects (keeper.hpp) and what the hooks track anyway (memory, layouts,
// fences); at the range's start the device is waited for, the kept calls are
// written, then what they cannot say (trim_state.cpp): the contents of
// buffers and images, fences, events and timeline semaphores.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "capture/trace/encode.hpp"
#include "capture/trace/keeper.hpp"
#include "capture/trace/stream.hpp"

namespace libtrace::capture::trace {

struct CommandInfo;
struct DeviceTrace;
class Call;

// How the keeper keeps a command's calls (keeper.hpp); `reset` ones are not
// kept but end recordings or descriptor sets.
enum class Keep : std::uint8_t { none, create, bind, update, record, destroy, reset };
Keep keep_class(std::string_view name, const CommandInfo& info);

// Whether the environment asks for a trimmed capture (read once, cheap).
bool trim_asked();

class Trim {
 public:
  // The trimmed capture the environment asks for, or null: the whole run.
  static Trim* get();

  // Null when no range is still to come: nothing is kept then.
  Keeper* keeper() { return keeping_.load(std::memory_order_acquire) ? &keeper_ : nullptr; }
  void add(DeviceTrace* dt);
  void remove(DeviceTrace* dt);
  // After each present's leave event: a range ends after its last frame
  // and starts after the frame before its first.
  void frame_ended(std::uint64_t frame);

 private:
  Trim(const std::string& path, const std::string& frames, bool trigger);
  bool more_locked() const { return trigger_ || next_ < ranges_.size(); }
  void start_locked(std::uint64_t first);
  void end_locked();

  std::string path_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges_;
  bool trigger_ = false;
  bool several_ = false;  // one file per range
  std::mutex mu_;
  std::size_t next_ = 0;  // the range to start or being recorded
  bool recording_ = false;
  std::atomic<bool> keeping_{true};
  Keeper keeper_;
  std::vector<DeviceTrace*> devices_;
};

// The keeper's side of a call (call.cpp): its enter event (`named` gathers
// what a command buffer's command names, when no stream does), and at its
// leave the leave details and what keeps it.
std::uint64_t keep_enter(Keeper& k, const CommandInfo& info, void** args, std::vector<Touched>* named);
void keep_leave(Keeper& k, Call& c, std::uint64_t seq);
// vkResetCommandBuffer, vkResetCommandPool, vkResetDescriptorPool.
void keep_reset(Keeper& k, Call& c);

// The state that the kept calls cannot say, after them (trim_state.cpp).
// The device is idle.
void write_state(Stream& s, DeviceTrace& dt);

}  // namespace libtrace::capture::trace
