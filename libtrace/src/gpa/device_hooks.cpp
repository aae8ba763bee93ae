// SPDX-License-Identifier: MIT
// VK_LAYER_TRAK_gpa at device level: device creation (the extension taken
// out of the list the driver sees, the features the emulation needs turned
// on, and for trak-gpa profile the device's file of rows and its profiler),
// the extension's 12 entry points, and the proc-address lookups (the
// profiling hooks themselves are in profile_hooks.cpp).
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "gpa/profile_hooks.hpp"
#include "gpa/state.hpp"
#include "layer/chain.hpp"

namespace libtrace::gpa {

namespace {

// The device create info the driver sees: without VK_AMD_gpa_interface, with
// pipeline statistics queries and host query reset turned on.
struct PatchedCreateInfo {
  VkDeviceCreateInfo ci;
  std::vector<const char*> extensions;
  VkPhysicalDeviceFeatures features{};
  VkPhysicalDeviceHostQueryResetFeatures host_reset{};
  layer::ChainCopy chain;

  PatchedCreateInfo(const VkDeviceCreateInfo& in, const Support& s)
      : ci(in), chain(in.pNext, {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD}) {
    for (std::uint32_t i = 0; i < in.enabledExtensionCount; ++i)
      if (std::strcmp(in.ppEnabledExtensionNames[i], kExtension) != 0)
        extensions.push_back(in.ppEnabledExtensionNames[i]);
    if (s.host_reset_extension) extensions.push_back(VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME);
    ci.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    ci.ppEnabledExtensionNames = extensions.data();
    const bool statistics = s.statistics != 0;
    if (auto* f2 = chain.find<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)) {
      if (statistics) f2->features.pipelineStatisticsQuery = VK_TRUE;
    } else {
      if (in.pEnabledFeatures) features = *in.pEnabledFeatures;
      if (statistics) features.pipelineStatisticsQuery = VK_TRUE;
      ci.pEnabledFeatures = &features;
    }
    if (auto* v12 = chain.find<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES))
      v12->hostQueryReset = VK_TRUE;
    else if (auto* h = chain.find<VkPhysicalDeviceHostQueryResetFeatures>(
                 VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES))
      h->hostQueryReset = VK_TRUE;
    else {
      host_reset.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES;
      host_reset.hostQueryReset = VK_TRUE;
      chain.prepend(&host_reset);
    }
    ci.pNext = chain.head();
  }
};

bool asks_for_extension(const VkDeviceCreateInfo& ci) {
  for (std::uint32_t i = 0; i < ci.enabledExtensionCount; ++i)
    if (std::strcmp(ci.ppEnabledExtensionNames[i], kExtension) == 0) return true;
  return false;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo* ci,
                                            const VkAllocationCallbacks* alloc, VkDevice* out) {
  const auto inst = instance_of(pd);
  const layer::DeviceLink link = layer::take_device_link(ci);
  if (!inst || !link.gipa || !link.gdpa) return VK_ERROR_INITIALIZATION_FAILED;
  const auto create = reinterpret_cast<PFN_vkCreateDevice>(link.gipa(inst->handle, "vkCreateDevice"));
  if (!create) return VK_ERROR_INITIALIZATION_FAILED;
  const Support s = support_of(*inst, pd);
  ProfileOptions profile = profile_options_from_environment();
  const bool emulate = s.offered && (asks_for_extension(*ci) || !profile.dir.empty());
  VkResult r;
  if (emulate) {
    const PatchedCreateInfo patched(*ci, s);
    r = create(pd, &patched.ci, alloc, out);
  } else {
    r = create(pd, ci, alloc, out);
  }
  if (r != VK_SUCCESS) return r;
  auto dev = std::make_shared<Device>();
  layer::load_device_table(dev->t, *out, link.gdpa);
  if (emulate) {
    DeviceContext ctx;
    ctx.device = *out;
    ctx.t = &dev->t;
    inst->t.GetPhysicalDeviceMemoryProperties(pd, &ctx.memory);
    ctx.statistics = s.statistics;
    dev->emulation = std::make_unique<Emulation>(ctx);
  }
  dev->handle = *out;
  Device& d = *dev;
  global().devices.insert(layer::dispatch_key(*out), std::move(dev));
  if (!profile.dir.empty()) {
    RowsFile rows(profile.dir);  // says that a device was made, whatever comes next
    // The profiler is a client of the extension like any other: its entry
    // points come from this layer's lookup (the emulation's, or the driver's).
    ExtensionEntryPoints fns;
    const auto get = [&](auto& f, const char* name) {
      f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(GetDeviceProcAddr(*out, name));
    };
    get(fns.create, "vkCreateGpaSessionAMD");
    get(fns.destroy, "vkDestroyGpaSessionAMD");
    get(fns.begin_session, "vkCmdBeginGpaSessionAMD");
    get(fns.end_session, "vkCmdEndGpaSessionAMD");
    get(fns.begin_sample, "vkCmdBeginGpaSampleAMD");
    get(fns.end_sample, "vkCmdEndGpaSampleAMD");
    get(fns.status, "vkGetGpaSessionStatusAMD");
    get(fns.results, "vkGetGpaSessionResultsAMD");
    get(fns.reset, "vkResetGpaSessionAMD");
    if (fns.complete()) {
      d.profiler = std::make_unique<Profiler>(*out, fns, std::move(profile), std::move(rows),
                                              s.properties.limits.timestampPeriod, asks_for_extension(*ci));
    } else {
      rows.write("# unprofiled=no-extension\n");
      layer::log_once(kLayerName, "cannot profile this device", "it has no VK_AMD_gpa_interface to sample with");
    }
  }
  return r;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* alloc) {
  if (!device) return;
  // The profiler reads what is still out through the extension's entry
  // points, which find the device by its key: before the device is forgotten.
  if (const auto d = device_of(device)) d->profiler.reset();
  const auto dev = global().devices.erase(layer::dispatch_key(device));
  if (!dev) return;
  dev->emulation.reset();  // its sessions' pools and buffers go before the device
  dev->t.DestroyDevice(device, alloc);
}

// ---- the extension ----

// The emulation of the device a handle belongs to. Reached only where the
// device lookup handed out these entry points, that is where it emulates;
// the instance lookup hands them out before any device exists, and a device
// whose driver has the extension then gets the driver's own.
Emulation* emulation(const void* dispatchable) {
  const auto d = device_of(dispatchable);
  return d ? d->emulation.get() : nullptr;
}
template <typename Pfn>
Pfn native(const void* dispatchable, const char* name) {
  const auto d = device_of(dispatchable);
  return d ? reinterpret_cast<Pfn>(d->t.GetDeviceProcAddr(d->handle, name)) : nullptr;
}
#define TRAK_GPA_FORWARD(name, pfn, handle, fallback, ...) \
  do {                                                     \
    Emulation* e = emulation(handle);                      \
    if (!e) {                                              \
      const auto f = native<pfn>(handle, name);            \
      if (f) return f(handle, __VA_ARGS__);                \
      return fallback;                                     \
    }                                                      \
  } while (false)

VKAPI_ATTR VkResult VKAPI_CALL CreateGpaSessionAMD(VkDevice device, const VkGpaSessionCreateInfoAMD* ci,
                                                   const VkAllocationCallbacks* alloc, VkGpaSessionAMD* out) {
  TRAK_GPA_FORWARD("vkCreateGpaSessionAMD", PFN_vkCreateGpaSessionAMD, device, VK_ERROR_EXTENSION_NOT_PRESENT, ci,
                   alloc, out);
  return emulation(device)->create_session(ci, out);
}
VKAPI_ATTR void VKAPI_CALL DestroyGpaSessionAMD(VkDevice device, VkGpaSessionAMD s,
                                                const VkAllocationCallbacks* alloc) {
  TRAK_GPA_FORWARD("vkDestroyGpaSessionAMD", PFN_vkDestroyGpaSessionAMD, device, void(), s, alloc);
  emulation(device)->destroy_session(s);
}
VKAPI_ATTR VkResult VKAPI_CALL SetGpaDeviceClockModeAMD(VkDevice device, VkGpaDeviceClockModeInfoAMD* info) {
  TRAK_GPA_FORWARD("vkSetGpaDeviceClockModeAMD", PFN_vkSetGpaDeviceClockModeAMD, device, VK_ERROR_EXTENSION_NOT_PRESENT,
                   info);
  if (!info) return VK_ERROR_INITIALIZATION_FAILED;
  switch (info->clockMode) {
    case VK_GPA_DEVICE_CLOCK_MODE_QUERY_AMD:
      // Vulkan tells nothing of clocks: 0 is "unknown".
      info->memoryClockRatioToPeak = info->engineClockRatioToPeak = 0.0f;
      return VK_SUCCESS;
    case VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD: return VK_SUCCESS;  // clocks are the driver's: the default
    default: return VK_ERROR_FEATURE_NOT_PRESENT;                  // Vulkan has no control of a device's clocks
  }
}
VKAPI_ATTR VkResult VKAPI_CALL GetGpaDeviceClockInfoAMD(VkDevice device, VkGpaDeviceGetClockInfoAMD* info) {
  TRAK_GPA_FORWARD("vkGetGpaDeviceClockInfoAMD", PFN_vkGetGpaDeviceClockInfoAMD, device, VK_ERROR_EXTENSION_NOT_PRESENT,
                   info);
  if (!info) return VK_ERROR_INITIALIZATION_FAILED;
  info->memoryClockRatioToPeak = info->engineClockRatioToPeak = 0.0f;  // unknown
  info->memoryClockFrequency = info->engineClockFrequency = 0;
  return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL CmdBeginGpaSessionAMD(VkCommandBuffer cb, VkGpaSessionAMD s) {
  TRAK_GPA_FORWARD("vkCmdBeginGpaSessionAMD", PFN_vkCmdBeginGpaSessionAMD, cb, VK_ERROR_EXTENSION_NOT_PRESENT, s);
  return emulation(cb)->cmd_begin_session(cb, s);
}
VKAPI_ATTR VkResult VKAPI_CALL CmdEndGpaSessionAMD(VkCommandBuffer cb, VkGpaSessionAMD s) {
  TRAK_GPA_FORWARD("vkCmdEndGpaSessionAMD", PFN_vkCmdEndGpaSessionAMD, cb, VK_ERROR_EXTENSION_NOT_PRESENT, s);
  return emulation(cb)->cmd_end_session(cb, s);
}
VKAPI_ATTR VkResult VKAPI_CALL CmdBeginGpaSampleAMD(VkCommandBuffer cb, VkGpaSessionAMD s,
                                                    const VkGpaSampleBeginInfoAMD* info, std::uint32_t* id) {
  TRAK_GPA_FORWARD("vkCmdBeginGpaSampleAMD", PFN_vkCmdBeginGpaSampleAMD, cb, VK_ERROR_EXTENSION_NOT_PRESENT, s, info,
                   id);
  return emulation(cb)->cmd_begin_sample(cb, s, info, id);
}
VKAPI_ATTR void VKAPI_CALL CmdEndGpaSampleAMD(VkCommandBuffer cb, VkGpaSessionAMD s, std::uint32_t id) {
  TRAK_GPA_FORWARD("vkCmdEndGpaSampleAMD", PFN_vkCmdEndGpaSampleAMD, cb, void(), s, id);
  emulation(cb)->cmd_end_sample(cb, s, id);
}
VKAPI_ATTR VkResult VKAPI_CALL GetGpaSessionStatusAMD(VkDevice device, VkGpaSessionAMD s) {
  TRAK_GPA_FORWARD("vkGetGpaSessionStatusAMD", PFN_vkGetGpaSessionStatusAMD, device, VK_ERROR_EXTENSION_NOT_PRESENT, s);
  return emulation(device)->status(s);
}
VKAPI_ATTR VkResult VKAPI_CALL GetGpaSessionResultsAMD(VkDevice device, VkGpaSessionAMD s, std::uint32_t id,
                                                       std::size_t* size, void* data) {
  TRAK_GPA_FORWARD("vkGetGpaSessionResultsAMD", PFN_vkGetGpaSessionResultsAMD, device, VK_ERROR_EXTENSION_NOT_PRESENT,
                   s, id, size, data);
  return emulation(device)->results(s, id, size, data);
}
VKAPI_ATTR VkResult VKAPI_CALL ResetGpaSessionAMD(VkDevice device, VkGpaSessionAMD s) {
  TRAK_GPA_FORWARD("vkResetGpaSessionAMD", PFN_vkResetGpaSessionAMD, device, VK_ERROR_EXTENSION_NOT_PRESENT, s);
  return emulation(device)->reset_session(s);
}
VKAPI_ATTR void VKAPI_CALL CmdCopyGpaSessionResultsAMD(VkCommandBuffer cb, VkGpaSessionAMD s) {
  TRAK_GPA_FORWARD("vkCmdCopyGpaSessionResultsAMD", PFN_vkCmdCopyGpaSessionResultsAMD, cb, void(), s);
  emulation(cb)->cmd_copy_results(cb, s);
}

// ---- lookup ----

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name);

constexpr auto entry = [](auto f) { return layer::hook_fn(f); };

// Offered on a device only where the emulation runs.
const layer::Hook kExtensionHooks[] = {
    {"vkCreateGpaSessionAMD", entry(CreateGpaSessionAMD)},
    {"vkDestroyGpaSessionAMD", entry(DestroyGpaSessionAMD)},
    {"vkSetGpaDeviceClockModeAMD", entry(SetGpaDeviceClockModeAMD)},
    {"vkGetGpaDeviceClockInfoAMD", entry(GetGpaDeviceClockInfoAMD)},
    {"vkCmdBeginGpaSessionAMD", entry(CmdBeginGpaSessionAMD)},
    {"vkCmdEndGpaSessionAMD", entry(CmdEndGpaSessionAMD)},
    {"vkCmdBeginGpaSampleAMD", entry(CmdBeginGpaSampleAMD)},
    {"vkCmdEndGpaSampleAMD", entry(CmdEndGpaSampleAMD)},
    {"vkGetGpaSessionStatusAMD", entry(GetGpaSessionStatusAMD)},
    {"vkGetGpaSessionResultsAMD", entry(GetGpaSessionResultsAMD)},
    {"vkResetGpaSessionAMD", entry(ResetGpaSessionAMD)},
    {"vkCmdCopyGpaSessionResultsAMD", entry(CmdCopyGpaSessionResultsAMD)},
};

const layer::Hook kDeviceHooks[] = {
    {"vkGetDeviceProcAddr", entry(GetDeviceProcAddr)},
    {"vkDestroyDevice", entry(DestroyDevice)},
};

const layer::Hook kInstanceHooks[] = {
    {"vkGetInstanceProcAddr", entry(GetInstanceProcAddr)},
    {"vkCreateInstance", entry(CreateInstance)},
    {"vkDestroyInstance", entry(DestroyInstance)},
    {"vkCreateDevice", entry(CreateDevice)},
    {"vkEnumerateDeviceExtensionProperties", entry(EnumerateDeviceExtensionProperties)},
    {"vkGetPhysicalDeviceFeatures2", entry(GetPhysicalDeviceFeatures2)},
    {"vkGetPhysicalDeviceFeatures2KHR", entry(GetPhysicalDeviceFeatures2KHR)},
    {"vkGetPhysicalDeviceProperties2", entry(GetPhysicalDeviceProperties2)},
    {"vkGetPhysicalDeviceProperties2KHR", entry(GetPhysicalDeviceProperties2KHR)},
};

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  const auto d = device_of(device);
  if (!d) return nullptr;
  if (const PFN_vkVoidFunction f = layer::find_hook(kExtensionHooks, name))
    return d->emulation ? f : d->t.GetDeviceProcAddr(device, name);  // the driver's own, or none
  const PFN_vkVoidFunction next = d->t.GetDeviceProcAddr(device, name);
  if (d->profiler && next)
    if (const PFN_vkVoidFunction hook = profiling_hook(name, d->profiler->per())) return hook;
  return layer::hooked_or_next(next, kDeviceHooks, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (const PFN_vkVoidFunction hook = layer::find_hook(kInstanceHooks, name)) return hook;
  // Device commands asked of the instance: the loader dispatches them to the
  // device, whose lookup decides.
  if (const PFN_vkVoidFunction f = layer::find_hook(kExtensionHooks, name)) return instance ? f : nullptr;
  const PFN_vkVoidFunction next = layer::next_instance_proc(global().instances, instance, name);
  // Whether this process profiles is read once: the loader asks for hundreds of names.
  static const ProfileOptions profile = profile_options_from_environment();
  if (!profile.dir.empty() && next)
    if (const PFN_vkVoidFunction hook = profiling_hook(name, profile.per)) return hook;
  return layer::hooked_or_next(next, kDeviceHooks, name);
}

// An application that exits without destroying its device still gets its
// profile: the rows still out are read and the file closed.
// In a forked child that leaves with exit(), the profilers are copies of the
// parent's, which let go without writing (Profiler's destructor).
struct FinishProfilesAtExit {
  ~FinishProfilesAtExit() {
    global().devices.for_each([](Device& d) { d.profiler.reset(); });
  }
} g_finish_profiles;

}  // namespace

VkResult negotiate_layer(VkNegotiateLayerInterface* v) {
  return layer::negotiate(v, GetInstanceProcAddr, GetDeviceProcAddr);
}

}  // namespace libtrace::gpa
