// SPDX-License-Identifier: MIT
// What a trimmed capture keeps before its range starts: the calls that made
// what is alive now, encoded, and nothing else. At the range's start they
// are written first, in their order, so that a replay makes the same
// objects; then the contents of memory and images (trim_state.cpp).
//
// A kept call stays while something it made or did still matters:
//   create   the objects it returned are alive, or a kept call still names
//            one of them (a pipeline names the shader modules and the cache
//            it was made from, long destroyed: those are made, used and
//            destroyed again on replay);
//   bind     the object it bound is alive;
//   update   it is the last write of one descriptor (set, binding, element);
//   record   it is in its command buffer's current recording;
//   destroy  kept only while a kept call names the object it destroyed.
// Handle values come back after a destroy: each object made is an object of
// its own here, whatever its value.
#pragma once

#include <cstdint>
#include <map>
#include <memory_resource>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "capture/trace/encode.hpp"
#include "capture/trace/stream.hpp"

namespace libtrace::capture::trace {

class Keeper {
 public:
  // A call entered: its enter event (made without a stream) and the handles
  // it names. Returns its place in the order of kept calls.
  std::uint64_t enter(Event& e, bool whole, const std::vector<Touched>& refs);
  // A command with nothing to return (a whole call) recorded into
  // `command_buffer`: enter(), leave() and own_by_recording() at once, under
  // one lock (most kept calls are these, every frame). 0 when the command
  // buffer is unknown: nothing is kept.
  std::uint64_t record(Event& e, const std::vector<Touched>& refs, std::uint64_t command_buffer);
  // It returned. Not `ok`: forgotten. Otherwise its leave details (after
  // the call number; none for a whole call).
  void leave(std::uint64_t seq, bool ok, Event* details);

  // What keeps a returned call (see above).
  void own_created(std::uint64_t seq, const std::vector<Touched>& outputs, std::uint64_t parent);
  void own_by_object(std::uint64_t seq, std::uint64_t handle);
  void own_by_recording(std::uint64_t seq, std::uint64_t command_buffer);
  // Descriptor (binding, element) pairs of one set, as binding << 32 | element.
  void own_by_slots(std::uint64_t seq, std::uint64_t set, const std::vector<std::uint64_t>& slots);
  // A destroy: the objects go; the call is kept while a kept call names one.
  void destroyed(std::uint64_t seq, const std::vector<std::uint64_t>& handles);
  // No longer needed: dropped unless something above keeps it.
  void settle(std::uint64_t seq);

  // vkBeginCommandBuffer and the resets: the recording so far is over.
  void end_recording(std::uint64_t command_buffer);
  void end_recordings_of_children(std::uint64_t pool);
  // vkResetDescriptorPool: its sets are gone.
  void kill_children(std::uint64_t pool);

  // Every kept call, in order, into `s`.
  void write(Stream& s);
  std::size_t calls() const;
  std::size_t bytes() const;

 private:
  // Most kept calls are a command buffer's commands, made and dropped again
  // every frame: their bytes come from the keeper's pool, not from malloc
  // (its consolidation, with four lock round trips per command, was about a
  // third of what keeping cost glxgears on zink).
  struct Record {
    explicit Record(std::pmr::memory_resource* m) : enter(m), leave(m), enter_defs(m), leave_defs(m), needs(m) {}
    std::pmr::string enter, leave;
    std::pmr::vector<DefinitionSpan> enter_defs, leave_defs;
    std::pmr::vector<std::uint64_t> needs;  // objects named
    std::uint32_t owners = 0;
    bool whole = false, done = false;
  };
  struct Object {
    std::uint64_t handle = 0;
    std::uint64_t creator = 0;
    std::vector<std::uint64_t> destroys;                     // kept destroy calls
    std::vector<std::uint64_t> attached;                     // binds
    std::vector<std::uint64_t> children;                     // objects that go with it
    std::vector<std::uint64_t> recording;                    // a command buffer's
    std::unordered_map<std::uint64_t, std::uint64_t> slots;  // a descriptor set's: slot -> writer
    std::uint32_t users = 0;                                 // kept calls that name it
    bool dead = false;
  };

  Record& enter_locked(Event& e, bool whole, const std::vector<Touched>& refs);
  std::uint64_t alive_locked(std::uint64_t handle) const;
  void release_locked(std::uint64_t seq);
  void drop_locked(std::uint64_t seq);
  void kill_locked(std::uint64_t id);
  void unuse_locked(std::uint64_t id);
  void end_recording_locked(Object& o);

  mutable std::mutex mu_;
  std::pmr::unsynchronized_pool_resource pool_;  // under mu_, as all below
  std::uint64_t next_seq_ = 1, next_id_ = 1;
  std::pmr::map<std::uint64_t, Record> records_{&pool_};
  std::unordered_map<std::uint64_t, Object> objects_;       // by id
  std::unordered_map<std::uint64_t, std::uint64_t> alive_;  // handle -> id
  std::size_t bytes_ = 0;
  std::vector<std::uint64_t> spare_;  // a recording's list, kept for its capacity
};

}  // namespace libtrace::capture::trace
