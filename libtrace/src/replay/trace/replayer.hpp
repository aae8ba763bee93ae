// SPDX-License-Identifier: MIT
// The replay of one capture: the calls in the stream's order, most of them
// decoded and called as they were recorded (replay.cpp), some the replay's
// own business: memory (memory.cpp), surfaces, swapchains and presents
// (present.cpp).
#pragma once

#include <vulkan/vulkan_core.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "libtrace/alloc/suballoc.hpp"
#include "libtrace/apitrace/model.hpp"
#include "libtrace/replay/trace/replay.hpp"
#include "registry/registry.hpp"
#include "replay/trace/decode.hpp"
#include "replay/trace/invoke.hpp"
#include "replay/trace/window.hpp"

namespace libtrace::replay_trace {

// One device memory object of the replay's, suballocated (trak's free-list
// bookkeeping, libtrace/alloc) among the objects of one memory type.
struct Block {
  VkDevice device = VK_NULL_HANDLE;
  std::uint32_t type = 0;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  char* mapped = nullptr;  // the whole block, where the type is host-visible
  bool dedicated = false;  // one object's alone (it asks for that, or is larger than a block)
  std::unique_ptr<alloc::Suballocator> ranges;
};

// Where the replay put one buffer or image.
struct ObjectMemory {
  Block* block = nullptr;
  VkDeviceSize offset = 0;
  char* mapped = nullptr;  // the object's first byte, where the host can see it
  VkDeviceSize size = 0;
  std::uint32_t capture_type = 0;  // the type the application chose at capture
  bool image = false;
};

// A swapchain replaced by images of the replay's own.
struct Swapchain {
  VkDevice device = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{};
  VkImageUsageFlags usage = 0;
  std::uint32_t layers = 1;
  std::vector<VkImage> images;
  std::vector<VkDeviceMemory> memories;
};

// A primary command buffer from `pool`, begun for one submission: the
// replay's own transfers (uploads, snapshots). `cmd` is set first, so the
// caller's cleanup frees it whatever fails after.
void begin_one_time(VkDevice device, VkCommandPool pool, VkCommandBuffer& cmd);

// What trakPhysicalDevice said of the capture's device.
struct CaptureDevice {
  bool known = false;
  VkPhysicalDeviceMemoryProperties real{};
  std::vector<std::uint32_t> to_real;  // the real type behind each type the application saw
  VkMemoryPropertyFlags shown_flags(std::uint32_t shown) const;
};

// The bindings of a descriptor set layout: (number, descriptor count), by number.
struct SetLayoutInfo {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> bindings;
  // "" when elements `element` to `element + count - 1` of `binding` (and
  // the bindings after it) are in the layout; else why not, naming `what`.
  std::string range(const char* what, std::uint32_t binding, std::uint32_t element, std::uint32_t count) const;
};

class Replayer {
 public:
  Replayer(const Options& opt, Result& result);
  ~Replayer();
  Replayer(const Replayer&) = delete;
  Replayer& operator=(const Replayer&) = delete;

  void call(const apitrace::Call& c);
  void finish();
  // Waits for every device (bounded) and destroys those that finished, then
  // the instance if they all did; false if work was still running.
  bool shutdown() noexcept;
  // A trimmed capture (vktrace::kFirstFrameProperty): its presents are
  // frames `first` and on, and its state's images take texels by copies.
  void trimmed(std::uint64_t first) {
    frame_ = first - 1;
    trimmed_ = true;
  }

 private:
  using Handler = void (Replayer::*)(const apitrace::Call&, const registry::Command&);
  Handler handler(std::string_view name) const;
  // What is done with the calls of one signature.
  struct Route {
    enum Way : std::uint8_t {
      physical_device,
      update,
      snapshot,
      image_contents,
      copy_buffer,
      own_other,
      not_vulkan,
      unknown,
      handled,
      skipped,
      generic
    };
    Way way = generic;
    const registry::Command* cmd = nullptr;
    Handler handler = nullptr;
  };
  const Route& route(const apitrace::Call& c);

  // replay.cpp
  void generic(const apitrace::Call& c, const registry::Command& cmd);
  void invoke(const apitrace::Call& c, const registry::Command& cmd, CallDecoder& d, std::vector<void*>& ptrs,
              VkResult* result);
  void map_outputs(const apitrace::Call& c, const registry::Command& cmd, CallDecoder& d,
                   const std::vector<void*>& ptrs);
  // A command's function pointer (the loader's, for the current instance) and invoker.
  struct Proc {
    PFN_vkVoidFunction f = nullptr;
    Invoker invoke = nullptr;
  };
  const Proc& proc(const registry::Command& cmd);
  void skip(const apitrace::Call&, const registry::Command&);
  void create_instance(const apitrace::Call& c, const registry::Command& cmd);
  void create_shader_module(const apitrace::Call& c, const registry::Command& cmd);
  void enumerate_physical_devices(const apitrace::Call& c, const registry::Command& cmd);
  void create_device(const apitrace::Call& c, const registry::Command& cmd);
  void destroy_device(const apitrace::Call& c, const registry::Command& cmd);
  void get_queue(const apitrace::Call& c, const registry::Command& cmd);

  // cache.cpp
  void load_pipeline_cache();
  void create_pipeline_cache(const apitrace::Call& c, const registry::Command& cmd);
  void destroy_pipeline_cache(const apitrace::Call& c, const registry::Command& cmd);
  void save_pipeline_cache();

  // replay.cpp
  void create_template(const apitrace::Call& c, const registry::Command& cmd);
  void with_template(const apitrace::Call& c, const registry::Command& cmd);
  void physical_device_info(const apitrace::Call& c);
  void adapted(const std::string& what);
  [[noreturn]] void fail(const apitrace::Call& c, const std::string& why) const;

  // waits.cpp
  std::uint64_t wait_ns() const;
  std::string wait_limit() const;  // "10 s"
  std::string current_call() const;
  bool queue_idle(VkQueue queue);
  bool device_idle(VkDevice device);
  void wait_queue(VkQueue queue);  // throws naming the current call when its work does not finish
  void submitted(const apitrace::Call& c, VkFence fence);
  void submit(const apitrace::Call& c, const registry::Command& cmd);
  void create_semaphore(const apitrace::Call& c, const registry::Command& cmd);
  // Binary semaphores: what a batch waits on must have a signal pending.
  void waits_on(const apitrace::Call& c, const VkSemaphore* semaphores, std::uint32_t n);
  void signals(const VkSemaphore* semaphores, std::uint32_t n);
  void wait_for_fences(const apitrace::Call& c, const registry::Command& cmd);
  void wait_semaphores(const apitrace::Call& c, const registry::Command& cmd);
  void wait_idle(const apitrace::Call& c, const registry::Command& cmd);
  void destroy_instance(const apitrace::Call& c, const registry::Command& cmd);
  void end_device(VkDevice device);  // the replay's own objects of a device waited for

  // memory.cpp
  void allocate_memory(const apitrace::Call& c, const registry::Command& cmd);
  void bind_memory(const apitrace::Call& c, const registry::Command& cmd);
  void bind_memory2(const apitrace::Call& c, const registry::Command& cmd);
  void destroy_object(const apitrace::Call& c, const registry::Command& cmd);
  void update(const apitrace::Call& c);
  // trakImageContents: a trimmed capture's image texels, through a copy.
  void image_contents(const apitrace::Call& c);
  void copy_buffer(const apitrace::Call& c);
  void create_buffer(const apitrace::Call& c, const registry::Command& cmd);
  // A trimmed capture's images take its texels by a copy: TRANSFER_DST usage.
  void create_image(const apitrace::Call& c, const registry::Command& cmd);
  void place(const apitrace::Call& c, VkDevice device, std::uint64_t object, bool image, std::uint64_t captured_memory);
  // What an object of a memory type the application chose at capture needs here.
  VkMemoryPropertyFlags needs(std::uint32_t capture_type) const;
  // A type in `bits` with the `want` flags (host-coherent preferred where
  // host-visible); failing that, host-visible, then any. UINT32_MAX: none.
  std::uint32_t choose_type(VkPhysicalDevice gpu, std::uint32_t bits, VkMemoryPropertyFlags want) const;
  void free_objects(VkDevice device);
  // Device work of the replay's own on the device's queue, waited for: the
  // copies into objects the host cannot see.
  void upload(const apitrace::Call& c, VkDevice device, VkBuffer dst, const std::vector<VkBufferCopy>& regions,
              const char* data, VkDeviceSize bytes);
  // The same with commands of the caller's, given the staging buffer.
  void upload(const apitrace::Call& c, VkDevice device, const char* data, VkDeviceSize bytes,
              const std::function<void(VkCommandBuffer, VkBuffer)>& record);
  void release(const ObjectMemory& om);
  Block& block_for(const apitrace::Call& c, VkDevice device, std::uint32_t type, VkDeviceSize size,
                   VkDeviceSize alignment, alloc::Kind kind, bool dedicated, VkDeviceSize& offset);

  // checks.cpp: values checked against the layouts they index and the
  // device's limits before the driver sees them.
  template <typename Check, typename After>
  void checked(const apitrace::Call& c, const registry::Command& cmd, Check&& check, After&& after);
  const VkPhysicalDeviceLimits& limits();
  std::string view_mask(std::uint32_t mask);
  std::string writes(const VkWriteDescriptorSet* w, std::uint32_t n, const SetLayoutInfo* push);
  const SetLayoutInfo* push_layout(VkPipelineLayout layout, std::uint32_t set) const;
  std::string template_entries(const VkDescriptorUpdateTemplateCreateInfo& ci);
  void create_set_layout(const apitrace::Call& c, const registry::Command& cmd);
  void allocate_sets(const apitrace::Call& c, const registry::Command& cmd);
  void create_pipeline_layout(const apitrace::Call& c, const registry::Command& cmd);
  void update_sets(const apitrace::Call& c, const registry::Command& cmd);
  void push_descriptors(const apitrace::Call& c, const registry::Command& cmd);
  void bind_sets(const apitrace::Call& c, const registry::Command& cmd);
  void bind_vertex_buffers(const apitrace::Call& c, const registry::Command& cmd);
  void set_viewports(const apitrace::Call& c, const registry::Command& cmd);
  void push_constants(const apitrace::Call& c, const registry::Command& cmd);
  void begin_rendering(const apitrace::Call& c, const registry::Command& cmd);
  void create_render_pass(const apitrace::Call& c, const registry::Command& cmd);
  void create_graphics_pipelines(const apitrace::Call& c, const registry::Command& cmd);

  // live.cpp: what the capture made and has not destroyed.
  struct Live {
    std::uint64_t handle = 0, owner = 0;  // the device or instance it is destroyed with
    const registry::Command* destroy = nullptr;
  };
  const registry::Command* destroyer(const registry::Member& m);
  void made(const registry::Command& cmd, const std::vector<void*>& ptrs);
  void destroyed(std::uint64_t handle);
  void end_objects(std::uint64_t owner);  // destroys what `owner` still has, newest first

  // present.cpp
  void create_surface(const apitrace::Call& c, const registry::Command& cmd);
  void create_swapchain(const apitrace::Call& c, const registry::Command& cmd);
  void swapchain_images(const apitrace::Call& c, const registry::Command& cmd);
  void destroy_swapchain(const apitrace::Call& c, const registry::Command& cmd);
  void acquire(const apitrace::Call& c, const registry::Command& cmd);
  void present(const apitrace::Call& c, const registry::Command& cmd);
  void signal(VkDevice device, VkSemaphore semaphore, VkFence fence, const VkSemaphore* waits, std::uint32_t n);
  void snapshot(VkQueue queue, const Swapchain& sc, std::uint32_t index, std::uint64_t frame);
  void snapshot_record(const apitrace::Call& c);

  const Options& opt_;
  Result& r_;
  HandleMap handles_;
  Arena arena_;
  CaptureDevice capture_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice gpu_ = VK_NULL_HANDLE;
  std::unordered_map<VkDevice, VkPhysicalDevice> devices_;
  std::unordered_map<VkDevice, VkQueue> device_queue_;  // one queue per device for the replay's own work
  std::unordered_map<VkQueue, std::pair<VkDevice, std::uint32_t>> queues_;                // queue -> device, family
  std::unordered_map<VkDevice, std::unordered_map<std::uint32_t, VkCommandPool>> pools_;  // the replay's own, by family
  std::unordered_map<std::uint64_t, std::pair<std::uint32_t, VkDeviceSize>> capture_memory_;  // type, size
  std::vector<std::unique_ptr<Block>> blocks_;
  std::unordered_map<std::uint64_t, ObjectMemory> objects_;      // by replay handle
  std::unordered_map<std::uint64_t, Swapchain> swapchains_;      // by captured handle
  std::unordered_map<std::uint64_t, TemplateLayout> templates_;  // by captured handle
  // A trimmed capture's images as created (by replay handle): what their texels are checked against.
  std::unordered_map<std::uint64_t, VkImageCreateInfo> images_;
  std::map<std::uint64_t, std::string> capture_snapshots_;  // frame -> file
  std::unordered_map<const registry::Command*, Proc> procs_;
  std::unordered_map<const apitrace::FunctionSig*, Route> routes_;
  std::map<std::string, bool> logged_;
  std::map<std::uint32_t, MemoryUse> used_here_, used_capture_;  // by memory type
  VkDevice cache_device_ = VK_NULL_HANDLE;  // --pipeline-cache: the first cache, saved when it goes
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  std::string cache_data_;  // --pipeline-cache's file, read before the replay
  bool cache_saved_ = false;
  std::unique_ptr<Window> window_;                      // --present window, made at the first present
  std::unordered_map<VkFence, std::string> signaller_;  // the call that last submitted each fence
  std::set<VkSemaphore> pending_;                       // binary semaphores signalled and not yet waited on
  std::set<VkSemaphore> timeline_;                      // timeline semaphores (waits on values: bounded instead)
  // By replay handle; sets and pipeline layouts share their set layouts'
  // bindings, which outlive a destroyed layout.
  std::unordered_map<std::uint64_t, std::shared_ptr<const SetLayoutInfo>> set_layouts_, sets_;
  std::unordered_map<std::uint64_t, std::vector<std::shared_ptr<const SetLayoutInfo>>> pipeline_layouts_;
  VkPhysicalDeviceLimits limits_{};
  std::uint32_t max_views_ = 1;
  bool limits_known_ = false;
  std::map<std::uint64_t, Live> live_;                         // by creation order
  std::unordered_map<std::uint64_t, std::uint64_t> live_seq_;  // replay handle -> its key in live_
  std::uint64_t live_next_ = 0;
  std::unordered_map<std::string_view, const registry::Command*> destroyers_;  // by handle type
  const apitrace::Call* current_ = nullptr;
  std::uint64_t frame_ = 0;
  bool trimmed_ = false;
  std::chrono::steady_clock::time_point frame_start_ = std::chrono::steady_clock::now();
};

}  // namespace libtrace::replay_trace
