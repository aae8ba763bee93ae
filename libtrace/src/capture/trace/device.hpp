// SPDX-License-Identifier: MIT
// What the trace keeps of a device: object-based memory (which buffer and
// image lives where in which VkDeviceMemory, a copy of every mapped memory
// to diff against at each submit), the virtual memory types, and what the
// hooks need of queues, swapchains and descriptor update templates.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "capture/trace/encode.hpp"
#include "capture/trace/stream.hpp"
#include "layer/dispatch_tables.hpp"

namespace libtrace::capture::trace {

// Memory types as the application sees them. Every real type that is both
// DEVICE_LOCAL and HOST_VISIBLE is split in two: at its own index a
// device-local type without the host flags, appended at the end a
// host-visible one without DEVICE_LOCAL. The application's choice then says
// which of the two it needs, which a replay on another device must know.
struct VirtualTypes {
  VkPhysicalDeviceMemoryProperties real{};
  VkPhysicalDeviceMemoryProperties shown{};
  std::vector<std::uint32_t> to_real;  // by shown index
  std::uint32_t shown_bits(std::uint32_t real_bits) const;
};
// Computed once per physical device through `get` (the next layer's).
const VirtualTypes& virtual_types(VkPhysicalDevice gpu, PFN_vkGetPhysicalDeviceMemoryProperties get);

// Bytes [lo, hi) of a memory (or of one object's own bytes).
struct Run {
  VkDeviceSize lo, hi;
};
// The blocks of `bytes` that are not all zeros, as runs from 0 (a replay
// starts objects from zeros: only these need writing).
std::vector<Run> nonzero_runs(const char* bytes, VkDeviceSize size);
// Sorts `runs` and joins those that overlap or touch.
void merge_runs(std::vector<Run>& runs);

// A buffer or image bound to memory, by its offset there.
struct Bound {
  std::uint64_t handle = 0;
  bool image = false;
  VkDeviceSize size = 0;  // buffers: their size; images: their memory requirement
};

struct Memory {
  VkDeviceSize size = 0;
  std::uint32_t real_type = 0;
  bool host_visible = false;
  const char* mapped = nullptr;  // the application's pointer to map_offset
  VkDeviceSize map_offset = 0, map_size = 0;
  bool zeroed = false;  // the layer cleared it when it was allocated
  // The memory's bytes as the stream has them: zeros, then each recorded
  // change. What differs at a submit was written since (by the host; or by
  // the device, which the replay's device writes again anyway).
  std::vector<char> shadow;
  std::multimap<VkDeviceSize, Bound> objects;
  // Per object, bytes of the shadow (memory offsets) that the stream has
  // not given it: what the memory held when it was bound (a suballocator
  // reusing a range), and changes recorded while only an alias of it was
  // submitted. They go with the object's next update.
  std::unordered_map<std::uint64_t, std::vector<Run>> owed;
  bool aliased = false;  // two objects were ever bound over the same bytes
};

struct Swapchain {
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{};
  bool readable = false;  // created with TRANSFER_SRC usage
  std::vector<VkImage> images;
};

class Snapshots;

// What a command buffer's recorded commands name, since its last begin;
// for a trimmed capture also the image layouts its barriers and render
// passes leave, in order.
struct CommandRecord {
  VkCommandPool pool = VK_NULL_HANDLE;
  std::vector<Touched> touched;
  std::vector<std::pair<std::uint64_t, VkImageLayout>> layouts;
};

// What a trimmed capture's state needs to know of an image (hooks_trim.cpp).
struct ImageInfo {
  VkImageType type = VK_IMAGE_TYPE_2D;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent3D extent{};
  std::uint32_t mips = 1, layers = 1;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkImageTiling tiling = VK_IMAGE_TILING_OPTIMAL;
  bool readable = false;  // made with TRANSFER_SRC usage (the application's or the layer's)
  // Made as an attachment alone and never loaded by a render pass: what it
  // holds is seen by nothing but a later load, so a trimmed capture leaves
  // its contents out (a render target cleared each frame).
  bool attachment_only = false;
  bool loaded = false;
};

// What a render pass does with each attachment (hooks_trim.cpp).
struct AttachmentUse {
  VkImageLayout final_layout;
  bool loads;  // loadOp or stencilLoadOp LOAD
};

struct DeviceTrace {
  DeviceTrace(VkDevice device, VkPhysicalDevice gpu, const layer::DeviceTable& next, const VirtualTypes& types);
  ~DeviceTrace();

  // What the host wrote to mapped memory since it was last recorded, diffed
  // (nothing while no stream is written: a trimmed capture's state at its
  // range's start has all of it)
  // against the copy: update records, before the submit that may read them,
  // for the objects the submitted command buffers name (through descriptor
  // sets, views and secondary command buffers too) and for every buffer
  // whose device address was taken.
  void record_host_writes(const std::vector<VkCommandBuffer>& submitted);
  // Every object in mapped memory (sparse binds: no command buffers to follow).
  void record_host_writes();
  // One memory's mapped range (before it is unmapped).
  void record_host_writes(std::uint64_t memory);
  // What a command of `cmd` named.
  void touch(VkCommandBuffer cmd, const std::vector<Touched>& handles);

  VkDevice device;
  VkPhysicalDevice gpu;
  layer::DeviceTable next;  // down the chain (through the foz recorder's hooks when it records too)
  const VirtualTypes& types;

  std::mutex mu;  // everything below
  std::unordered_map<std::uint64_t, Memory> memories;
  std::unordered_map<std::uint64_t, std::pair<std::uint64_t, VkDeviceSize>> bound_at;  // object -> memory, offset
  std::unordered_map<std::uint64_t, VkDeviceSize> buffer_sizes;
  std::unordered_map<std::uint64_t, std::vector<TemplateEntry>> templates;
  std::unordered_map<VkQueue, std::uint32_t> queue_families;
  std::unordered_map<VkCommandBuffer, CommandRecord> commands;
  std::unordered_map<std::uint64_t, std::vector<Touched>> set_contents;  // what each descriptor set was given
  std::unordered_map<std::uint64_t, std::uint64_t> view_of;              // image or buffer view -> its object
  std::unordered_set<std::uint64_t> addressed;                           // buffers whose device address was taken
  std::unordered_map<std::uint64_t, Swapchain> swapchains;
  std::unique_ptr<Snapshots> snapshots;  // null when none are asked for

  // Kept for a trimmed capture only (hooks_trim.cpp, trim_state.cpp).
  std::unordered_map<std::uint64_t, ImageInfo> images;
  std::unordered_map<std::uint64_t, VkImageLayout> layouts;    // each image's after the last submit
  std::unordered_set<std::uint64_t> readable_buffers;          // made with TRANSFER_SRC usage
  std::unordered_map<std::uint64_t, bool> fences;              // -> made signalled
  std::unordered_map<std::uint64_t, std::uint64_t> timelines;  // timeline semaphore -> its first value
  std::unordered_set<std::uint64_t> events;
  std::unordered_map<std::uint64_t, std::vector<AttachmentUse>> render_passes;
  std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> framebuffers;  // attachments (views)

 private:
  // Diffs the parts of `objects` (all in memory `m`) the host can see.
  void record_locked(Memory& m, const std::vector<const std::pair<const VkDeviceSize, Bound>*>& objects);
  void expand_locked(const Touched& t, std::vector<std::uint64_t>& objects, int depth);
};

// A trakUpdateBuffer or trakUpdateImage of `b`: each run's bytes of
// `bytes`, at lo - object_offset in the object.
void write_update(Stream& s, VkDevice device, const Bound& b, VkDeviceSize object_offset, const std::vector<Run>& runs,
                  const char* bytes);

// A trakCopyBuffer: `regions` of buffer `source`, whose bytes the stream
// has, into buffer `object`.
void write_copy(Stream& s, VkDevice device, std::uint64_t source, std::uint64_t object,
                const std::vector<VkBufferCopy>& regions);

// A template of the device of `dispatchable` (hooks.cpp), for the encoder.
bool template_entries(const void* dispatchable, std::uint64_t handle, std::vector<TemplateEntry>& out);

}  // namespace libtrace::capture::trace
