// SPDX-License-Identifier: MIT
// What gpa_client's two files share: the counters it asks for, its checks,
// the extension's entry points, the device and the workload.
#pragma once

#include "libtrace/gpa/vk_amd_gpa_interface.h"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pipelines.hpp"

namespace test_apps::gpa_client {

// The emulated counters: block GRBM, instance 0, event = log2 of the
// pipeline statistic.
constexpr VkGpaPerfBlockAMD kBlock = VK_GPA_PERF_BLOCK_GRBM_AMD;
constexpr std::uint32_t kMaxEvent = 10;
enum Event : std::uint32_t {
  kIaVertices = 0,
  kIaPrimitives = 1,
  kVsInvocations = 2,
  kCsInvocations = 10,
};

// The workload: a compute shader of local size 8x4x1, a draw of 300
// vertices as a triangle list.
constexpr std::uint32_t kLocalSize = 8 * 4 * 1;
constexpr std::uint32_t kDrawVertices = 300;
constexpr std::uint32_t kImageSize = 64;

// The options.
inline bool g_quiet = false;
inline std::uint32_t g_api_version = VK_API_VERSION_1_1;
inline bool g_gpa_features_first = false;
// How long a submission may take: the session status polls and the fence.
inline unsigned g_timeout_s = 5;

// Vulkan could not be set up, or a check failed that the rest depends on.
class Abort : public std::runtime_error {
 public:
  explicit Abort(const std::string& what) : std::runtime_error(what) {}
};

// No device lists the extension.
class Skip : public std::runtime_error {
 public:
  explicit Skip(const std::string& what) : std::runtime_error(what) {}
};

inline std::string text(VkResult r) { return std::string(result_name(r)) + " (" + std::to_string(r) + ")"; }
inline std::string text(bool b) { return b ? "true" : "false"; }
template <typename T>
std::enable_if_t<std::is_integral_v<T>, std::string> text(T v) {
  return std::to_string(v);
}

// A line on stdout, "gpa_client: " first, unless --quiet.
void info(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

class Checks {
 public:
  bool expect(bool ok, const std::string& what, const std::string& got, const std::string& expected) {
    if (ok) {
      ++passed_;
    } else {
      ++failed_;
      std::fprintf(stderr, "gpa_client: FAIL: %s: got %s, expected %s\n", what.c_str(), got.c_str(), expected.c_str());
      std::fflush(stderr);
    }
    return ok;
  }
  template <typename T>
  bool eq(const std::string& what, const T& got, const T& expected) {
    return expect(got == expected, what, text(got), text(expected));
  }
  // A check the rest cannot do without.
  template <typename T>
  void require(const std::string& what, const T& got, const T& expected) {
    if (!eq(what, got, expected)) throw Abort("cannot go on after: " + what);
  }

  int passed() const { return passed_; }
  int failed() const { return failed_; }

 private:
  int passed_ = 0;
  int failed_ = 0;
};

// ---- the extension's entry points ----

// Each named once: the member PFN_vk<name>AMD <name> and its lookup.
// clang-format off
#define GPA_ENTRY_POINTS(X)                                                                    \
  X(CreateGpaSession) X(DestroyGpaSession) X(SetGpaDeviceClockMode) X(GetGpaDeviceClockInfo) \
  X(CmdBeginGpaSession) X(CmdEndGpaSession) X(CmdBeginGpaSample) X(CmdEndGpaSample)          \
  X(GetGpaSessionStatus) X(GetGpaSessionResults) X(ResetGpaSession) X(CmdCopyGpaSessionResults)
// clang-format on

struct Gpa {
#define GPA_MEMBER(name) PFN_vk##name##AMD name = nullptr;
  GPA_ENTRY_POINTS(GPA_MEMBER)
#undef GPA_MEMBER

  // Fetches every entry point with vkGetDeviceProcAddr; each one missing is
  // a failed check, and then nothing can go on.
  void load(VkDevice device, Checks& checks) {
    bool all = true;
    const auto get = [&](auto& pfn, const char* name) {
      pfn = reinterpret_cast<std::remove_reference_t<decltype(pfn)>>(vkGetDeviceProcAddr(device, name));
      all &= checks.expect(pfn != nullptr, std::string("vkGetDeviceProcAddr(") + name + ")", "NULL", "a function");
    };
#define GPA_GET(name) get(name, "vk" #name "AMD");
    GPA_ENTRY_POINTS(GPA_GET)
#undef GPA_GET
    if (!all) throw Abort("cannot go on without the extension's entry points");
  }
};

// ---- instance, device and objects ----

using Session = Owned<VkGpaSessionAMD, &Gpa::DestroyGpaSession>;

// The instance, the chosen physical device and, once made, the device.
struct Context {
  std::optional<Instance> instance;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  std::uint32_t family = 0;
  std::optional<Device> device;
  VkQueue queue = VK_NULL_HANDLE;
  Gpa gpa;

  const VolkDeviceTable& vk() const { return device->vk(); }
  VkDevice dev() const { return device->handle(); }
  void destroy() {
    device.reset();
    instance.reset();
  }
};
// Everything the workload needs: the compute pipeline and its counter
// buffer, the render pass, image and graphics pipeline, a timestamp pool of
// the client's own, command buffers and a fence.
struct Work {
  BoundBuffer counter;  // one uint the compute shader increments once per invocation
  volatile std::uint32_t* counter_value = nullptr;
  StorageSet storage;
  PipelineLayout layout;  // of both pipelines
  Pipeline compute;
  RenderPass render_pass;
  BoundImage image;
  ImageView view;
  Framebuffer framebuffer;
  Pipeline graphics;
  QueryPool timestamps;  // the client's own pair around everything
  CommandPool pool;
  Fence fence;

  explicit Work(const Device& d);
};

inline VkCommandBuffer allocate(const Context& c, const Work& w, VkCommandBufferLevel level) {
  return allocate_commands(*c.device, w.pool.get(), level);
}

inline void begin_primary(const Context& c, VkCommandBuffer cb) {
  begin_commands(*c.device, cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
}
// ---- samples (gpa_samples.cpp) ----

VkGpaPerfCounterAMD counter(std::uint32_t event);
VkGpaSampleBeginInfoAMD sample_info(VkGpaSampleTypeAMD type, const std::vector<VkGpaPerfCounterAMD>& counters = {});
VkGpaSampleBeginInfoAMD cumulative_info(const std::vector<VkGpaPerfCounterAMD>& counters);
// Begins a sample that must be accepted; the id, or ~0u when refused.
std::uint32_t begin_sample(const Context& c, Checks& checks, VkCommandBuffer cb, VkGpaSessionAMD s,
                           const VkGpaSampleBeginInfoAMD& bi, const std::string& what);
// Check 4: samples the extension must refuse, recorded into |cb| within |s|.
void record_refusals(const Context& c, Checks& checks, VkCommandBuffer cb, VkGpaSessionAMD s, const std::string& where);
Session create_session(const Context& c, Checks& checks, VkGpaSessionAMD copy_source, const std::string& what);

// The samples of the main command buffer.
struct MainIds {
  std::uint32_t dispatch_timing = ~0u;
  std::uint32_t dispatch_counters = ~0u;
  std::uint32_t draw_counters = ~0u;
  std::uint32_t draw_timing = ~0u;
  bool operator==(const MainIds&) const = default;
};

// Check 2: records the main command buffer; with |refusals|, check 4's
// refused samples too.
MainIds record_main(const Context& c, const Work& w, Checks& checks, VkCommandBuffer cb, VkGpaSessionAMD s,
                    bool refusals, const std::string& run);
// Submits |cb| and waits for it and its |sessions|; whether the fence signalled.
bool submit_and_wait(const Context& c, const Work& w, Checks& checks, VkCommandBuffer cb,
                     const std::vector<std::pair<VkGpaSessionAMD, std::string>>& sessions, const std::string& run,
                     const std::function<void(std::size_t)>& on_ready = {});

// The values of one run of the main command buffer.
struct MainValues {
  std::vector<std::uint64_t> dispatch;
  std::vector<std::uint64_t> draw;
};

// Check 3: the results of one run of the main command buffer.
MainValues check_main_results(const Context& c, const Work& w, Checks& checks, VkGpaSessionAMD s, const MainIds& ids,
                              bool too_small, const std::string& run);
// Checks 6 and 6b.
void check_secondary(const Context& c, const Work& w, Checks& checks);
void check_spanning(const Context& c, const Work& w, Checks& checks);

}  // namespace test_apps::gpa_client
