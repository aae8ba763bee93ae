// SPDX-License-Identifier: MIT
// VK_LAYER_TRAK_gpa's profiling mode, for `trak-gpa profile`: the layer
// brackets the application's work with GPA sessions and samples, calling the
// extension's own entry points (the driver's, or the emulation's), and reads
// the results once they are in, one CSV row per sample:
//
//   frame,command_buffer,scope,gpu_ns,<counter>...
//
// frame counts presents (the first frame is 1), command_buffer numbers the
// application's primary command buffers in order of first use, scope is
// "command buffer", "render pass N" or "draw N" (N from 0 within the
// command buffer). The last line is "# cpu_ns=...": the CPU time the layer
// spent in its own work, what the profiler cost the application.
#pragma once

#include <vulkan/vulkan_core.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpa/rows_file.hpp"
#include "libtrace/gpa/vk_amd_gpa_interface.h"

namespace libtrace::gpa {

struct ProfileOptions {
  enum Per { command_buffer, render_pass, draw };
  std::string dir;  // the launcher's folder for the rows; "" when not profiling
  Per per = command_buffer;
  std::vector<std::uint32_t> events;  // the emulated counters sampled (CUMULATIVE), by event
};

// From TRAK_GPA_PROFILE (the folder), TRAK_GPA_PER and TRAK_GPA_COUNTERS
// (names, comma-separated; unknown ones are logged once and left out). dir is
// "" when TRAK_GPA_PROFILE is unset.
ProfileOptions profile_options_from_environment();

// The entry points the profiler calls: the extension's, looked up through
// the layer's own vkGetDeviceProcAddr like any client would.
struct ExtensionEntryPoints {
  PFN_vkCreateGpaSessionAMD create = nullptr;
  PFN_vkDestroyGpaSessionAMD destroy = nullptr;
  PFN_vkCmdBeginGpaSessionAMD begin_session = nullptr;
  PFN_vkCmdEndGpaSessionAMD end_session = nullptr;
  PFN_vkCmdBeginGpaSampleAMD begin_sample = nullptr;
  PFN_vkCmdEndGpaSampleAMD end_sample = nullptr;
  PFN_vkGetGpaSessionStatusAMD status = nullptr;
  PFN_vkGetGpaSessionResultsAMD results = nullptr;
  PFN_vkResetGpaSessionAMD reset = nullptr;
  bool complete() const;
};

class Profiler {
 public:
  // `application_samples`: the application enabled the extension itself.
  Profiler(VkDevice device, ExtensionEntryPoints fns, ProfileOptions opt, RowsFile rows, float timestamp_period,
           bool application_samples);
  // Reads what is still out and closes the file; in a forked child, whose
  // copy of the device is not its own to use, only lets go.
  ~Profiler();

  ProfileOptions::Per per() const { return opt_.per; }

  void allocated(const VkCommandBufferAllocateInfo* info, const VkCommandBuffer* cbs);
  void freed(const VkCommandBuffer* cbs, std::uint32_t count);
  void began(VkCommandBuffer cb);              // after vkBeginCommandBuffer
  void ending(VkCommandBuffer cb);             // before vkEndCommandBuffer
  void render_pass_began(VkCommandBuffer cb);  // after vkCmdBeginRenderPass*/vkCmdBeginRendering*
  void render_pass_ending(VkCommandBuffer cb);
  void draw_before(VkCommandBuffer cb);  // around draws and dispatches
  void draw_after(VkCommandBuffer cb);
  void submitting(const VkCommandBuffer* cbs, std::uint32_t count);
  void presented();

  // Time spent in the layer's own work, for the overhead line.
  class Clock {
   public:
    explicit Clock(Profiler& p) : p_(p), start_(std::chrono::steady_clock::now()) {}
    ~Clock() {
      p_.cpu_ns_ +=
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count();
    }

   private:
    Profiler& p_;
    std::chrono::steady_clock::time_point start_;
  };

 private:
  struct Sample {
    std::string scope;
    std::uint32_t timing = 0;
    std::uint32_t cumulative = UINT32_MAX;  // none
  };
  struct Recording {
    std::uint32_t number = 0;
    VkGpaSessionAMD session = VK_NULL_HANDLE;
    std::vector<Sample> samples;
    std::uint32_t render_passes = 0, draws = 0;
    bool open = false;       // a sample begun and not ended
    bool recorded = false;   // has a complete recording
    bool pending = false;    // submitted, results not read
    bool submitted = false;  // since its queries were last reset
    std::uint64_t frame = 0;
  };
  void begin_sample(VkCommandBuffer cb, Recording& r, std::string scope);
  void end_sample(VkCommandBuffer cb, Recording& r);
  // Reads a submitted recording's results, waiting for them when `wait`.
  bool collect(Recording& r, bool wait);

  VkDevice device_;
  ExtensionEntryPoints fns_;
  ProfileOptions opt_;
  float period_;
  std::mutex mu_;
  std::unordered_map<VkCommandBuffer, Recording> recordings_;  // primary command buffers
  std::uint32_t next_number_ = 0;
  std::uint64_t frame_ = 1;
  RowsFile out_;
  std::atomic<std::int64_t> cpu_ns_{0};
};

}  // namespace libtrace::gpa
