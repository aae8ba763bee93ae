// SPDX-License-Identifier: MIT
// The replay loop: each call decoded from the stream with the registry's
// tables and called through its generated invoker, the handles it makes
// mapped to the ones recorded; the instance, physical device and device
// adapted to this machine.
#include "libtrace/replay/trace/replay.hpp"

#include <volk.h>

#include <algorithm>
#include <cstring>

#include "libtrace/apitrace/call_flags.hpp"
#include "libtrace/apitrace/parser.hpp"
#include "libtrace/vk/device.hpp"
#include "libtrace/vktrace/dialect.hpp"
#include "replay/trace/invoke.hpp"
#include "replay/trace/replayer.hpp"
#include "vk/spirv_val.hpp"
#include "vktrace/calls.hpp"

namespace libtrace::replay_trace {

namespace {

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Failing these at replay ends it: what follows would use what they did not make.
// Why SPIR-V words are not a module a driver can be given, or "". The
// header and every instruction's word count: a damaged module otherwise
// sends the compiler past its end. (Operands are the driver's to check.)
std::string spirv_problem(const std::uint32_t* words, std::size_t bytes) {
  if (!words || bytes < 20 || bytes % 4) return "shader code of " + std::to_string(bytes) + " bytes: not SPIR-V";
  const std::size_t n = bytes / 4;
  if (words[0] != 0x07230203u) return "shader code without the SPIR-V magic number";
  if ((words[1] >> 16) != 1 || ((words[1] >> 8) & 0xff) > 6) return "shader code of an unknown SPIR-V version";
  if (words[3] == 0 || words[3] > (1u << 22)) return "shader code with an ID bound of " + std::to_string(words[3]);
  for (std::size_t at = 5; at < n;) {
    const std::uint32_t count = words[at] >> 16;
    if (count == 0 || count > n - at)
      return "shader code with an instruction of " + std::to_string(count) + " words at word " + std::to_string(at);
    at += count;
  }
  return "";
}

bool must_succeed(std::string_view n) {
  for (const char* p : {"vkCreate", "vkAllocate", "vkBeginCommandBuffer", "vkEndCommandBuffer", "vkQueueSubmit"})
    if (starts(n, p)) return true;
  return false;
}

volatile Replaying g_replaying;

}  // namespace

const volatile Replaying& replaying() { return g_replaying; }

VkMemoryPropertyFlags CaptureDevice::shown_flags(std::uint32_t shown) const {
  if (shown >= to_real.size() || to_real[shown] >= real.memoryTypeCount) return 0;
  VkMemoryPropertyFlags f = real.memoryTypes[to_real[shown]].propertyFlags;
  const bool split = std::count(to_real.begin(), to_real.end(), to_real[shown]) > 1;
  if (!split) return f;
  const VkMemoryPropertyFlags host =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  return shown == to_real[shown] ? (f & ~host) : (f & ~VkMemoryPropertyFlags{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT});
}

Replayer::Replayer(const Options& opt, Result& result) : opt_(opt), r_(result) {
  vk::load_loader();
  load_pipeline_cache();
}

Replayer::~Replayer() { window_.reset(); }

void Replayer::adapted(const std::string& what) {
  if (std::find(r_.adapted.begin(), r_.adapted.end(), what) == r_.adapted.end()) r_.adapted.push_back(what);
}

void Replayer::fail(const apitrace::Call& c, const std::string& why) const {
  throw Error(Errc::bad_record, "call " + std::to_string(c.no) + " " + std::string(c.name()), why);
}

const Replayer::Proc& Replayer::proc(const registry::Command& cmd) {
  auto [it, fresh] = procs_.try_emplace(&cmd);
  if (fresh) it->second = {vkGetInstanceProcAddr(instance_, cmd.name()), find_invoker(cmd.name())};
  return it->second;
}

void Replayer::call(const apitrace::Call& c) {
  ++r_.calls;
  current_ = &c;
  const std::string_view name = c.name();
  g_replaying.active = false;  // a signal between these stores reads no half-written name
  const std::size_t n = std::min(name.size(), sizeof g_replaying.name);
  for (std::size_t i = 0; i < n; ++i) g_replaying.name[i] = name[i];
  g_replaying.name_size = n;
  g_replaying.call = c.no;
  g_replaying.active = true;
  const Route& r = route(c);
  switch (r.way) {
    case Route::physical_device: return physical_device_info(c);
    case Route::update: return update(c);
    case Route::snapshot: return snapshot_record(c);
    case Route::image_contents: return image_contents(c);
    case Route::copy_buffer: return copy_buffer(c);
    case Route::own_other: return;
    case Route::not_vulkan: fail(c, "not a Vulkan capture");
    case Route::unknown: fail(c, "a command this build does not know (a newer Vulkan than its headers?)");
    default: break;
  }
  if (c.flags & apitrace::kCallIncomplete) return;  // never returned at capture (the application was killed)
  if (r.way == Route::handled)
    (this->*r.handler)(c, *r.cmd);
  else if (r.way == Route::skipped)
    skip(c, *r.cmd);
  else
    generic(c, *r.cmd);
  arena_.clear();
}

void Replayer::skip(const apitrace::Call&, const registry::Command&) { ++r_.skipped_calls; }

void Replayer::invoke(const apitrace::Call& c, const registry::Command& cmd, CallDecoder& d, std::vector<void*>& ptrs,
                      VkResult* result) {
  const auto [f, inv] = proc(cmd);
  if (!f || !inv) {
    if (!logged_[cmd.name()]) adapted(std::string(cmd.name()) + ": not available here, left out");
    logged_[cmd.name()] = true;
    ++r_.skipped_calls;
    if (result) *result = VK_SUCCESS;
    return;
  }
  // A handle the replay never made would reach the driver as VK_NULL_HANDLE
  // (a damaged capture, or objects the replay left out): stop here instead.
  if (!d.problems().empty()) fail(c, d.problems().front());
  std::uint64_t ret = 0;
  inv(f, ptrs.data(), &ret);
  if (std::string_view(cmd.return_type()) != "VkResult") return;
  const auto r = static_cast<VkResult>(static_cast<std::int32_t>(ret));
  if (result) *result = r;
  const std::int64_t captured = c.ret == apitrace::kNil ? 0 : c.value(c.ret).num.i;
  if (r < 0 && captured >= 0) {
    const std::string why = std::string(vk::result_name(r)) + " here, " +
                            (captured == 0 ? std::string("VK_SUCCESS") : std::to_string(captured)) + " at capture";
    if (must_succeed(cmd.name())) fail(c, why);
    if (!logged_[std::string("fail ") + cmd.name()] && opt_.warnings)
      opt_.warnings("call " + std::to_string(c.no) + " " + cmd.name(), why);
    logged_[std::string("fail ") + cmd.name()] = true;
  }
}

void Replayer::map_outputs(const apitrace::Call& c, const registry::Command& cmd, CallDecoder& d,
                           const std::vector<void*>& ptrs) {
  (void)c;
  const auto params = cmd.params();
  for (std::size_t i = 0; i < params.size(); ++i) {
    const registry::Member& m = params[i];
    if (m.type != registry::Type::handle || m.pointer_depth < 1 || m.is_const) continue;
    const std::vector<std::uint64_t> recorded = d.handles_of(d.arg(i));
    const auto* out = *static_cast<std::uint64_t* const*>(ptrs[i]);
    for (std::size_t k = 0; out && k < recorded.size(); ++k) handles_.set(recorded[k], out[k]);
  }
  made(cmd, ptrs);
}

void Replayer::create_shader_module(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(cmd.params(), slots, ptrs);
  const auto* ci = *reinterpret_cast<const VkShaderModuleCreateInfo* const*>(&slots[1]);
  if (!ci) fail(c, "no create info");
  if (d.problems().empty()) {
    if (const std::string why = spirv_problem(ci->pCode, ci->codeSize); !why.empty()) fail(c, why);
    if (opt_.validate)
      if (const std::string why =
              vk::run_validator(opt_.spirv_val, reinterpret_cast<const std::uint8_t*>(ci->pCode), ci->codeSize);
          !why.empty())
        fail(c, "spirv-val: " + why);
  }
  VkResult r = VK_SUCCESS;
  invoke(c, cmd, d, ptrs, &r);
  if (r >= 0) map_outputs(c, cmd, d, ptrs);
}

void Replayer::generic(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(cmd.params(), slots, ptrs);
  VkResult r = VK_SUCCESS;
  invoke(c, cmd, d, ptrs, &r);
  if (r >= 0) map_outputs(c, cmd, d, ptrs);
  if (slots.size() >= 2 && std::string_view(cmd.name()).substr(0, 9) == "vkDestroy") destroyed(slots[1]);
}

// ---- instance, physical device, device ----

void Replayer::create_instance(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(cmd.params(), slots, ptrs);
  auto* ci = *reinterpret_cast<VkInstanceCreateInfo**>(&slots[0]);
  if (!ci) fail(c, "no create info");
  if (!d.problems().empty()) fail(c, d.problems().front());
  if (instance_) fail(c, "a second instance (the replay keeps one at a time)");
  std::uint32_t n = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> have(n);
  vkEnumerateInstanceExtensionProperties(nullptr, &n, have.data());
  auto* names = const_cast<const char**>(ci->ppEnabledExtensionNames);
  std::uint32_t kept = 0;
  for (std::uint32_t i = 0; i < ci->enabledExtensionCount; ++i) {
    const std::string_view e = names[i];
    const bool here = std::any_of(have.begin(), have.end(), [&](const auto& p) { return e == p.extensionName; });
    // Offscreen: no window system. VK_KHR_surface stays (swapchain layouts need
    // it), and with --present window the xcb one trak-replay's window uses.
    const bool window = e != "VK_KHR_surface" && e.size() > 8 && e.substr(e.size() - 8) == "_surface" &&
                        !(opt_.present_window && e == "VK_KHR_xcb_surface");
    if (here && !window)
      names[kept++] = names[i];
    else
      adapted("instance extension " + std::string(e) + (window ? ": offscreen, left out" : ": not here, left out"));
  }
  ci->enabledExtensionCount = kept;
  // The replay's own: debug utils for the frame-end labels (what a profiler
  // counts as presents), the window's surfaces with --present window.
  std::vector<const char*> extended(names, names + kept);
  std::vector<const char*> wanted = {"VK_EXT_debug_utils"};
  if (opt_.present_window) wanted.insert(wanted.end(), {"VK_KHR_surface", "VK_KHR_xcb_surface"});
  for (const char* need : wanted) {
    const bool here =
        std::any_of(have.begin(), have.end(), [&](const auto& p) { return std::string_view(need) == p.extensionName; });
    if ((here || opt_.present_window) &&
        std::none_of(extended.begin(), extended.end(), [&](const char* x) { return std::string_view(x) == need; }))
      extended.push_back(need);
  }
  ci->ppEnabledExtensionNames = extended.data();
  ci->enabledExtensionCount = static_cast<std::uint32_t>(extended.size());
  if (ci->enabledLayerCount) adapted("instance layers the application enabled: left out");
  ci->enabledLayerCount = 0;
  if (ci->pNext) adapted("instance create info's pNext (debug callbacks of the application): left out");
  ci->pNext = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  const VkResult r = vkCreateInstance(ci, nullptr, &instance);
  // What the other replays say when the loader has no driver at all.
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER) throw Error(Errc::unsupported, "vulkan", vk::no_device_message());
  if (r != VK_SUCCESS) fail(c, std::string("vkCreateInstance: ") + std::string(vk::result_name(r)));
  volkLoadInstance(instance);  // device functions too: the loader's trampolines, for any device
  instance_ = instance;
  procs_.clear();
  const auto recorded = d.handles_of(d.arg(2));
  if (!recorded.empty()) handles_.set(recorded[0], reinterpret_cast<std::uintptr_t>(instance));
}

void Replayer::enumerate_physical_devices(const apitrace::Call& c, const registry::Command&) {
  CallDecoder d(c, arena_, handles_);
  const auto recorded = d.handles_of(d.arg(2));
  if (recorded.empty()) return;
  bool missing = false;
  handles_.get(d.uint_of(d.arg(0)), &missing);
  if (missing || !instance_) fail(c, "an instance the replay never made (no vkCreateInstance before it?)");
  if (!gpu_) {
    std::uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance_, &n, nullptr);
    std::vector<VkPhysicalDevice> gpus(n);
    vkEnumeratePhysicalDevices(instance_, &n, gpus.data());
    gpus.resize(n);
    if (gpus.empty()) throw Error(Errc::unsupported, "vulkan", vk::no_device_message());
    std::size_t pick = 0;
    if (!opt_.device.empty()) {
      const bool index = opt_.device.find_first_not_of("0123456789") == std::string::npos;
      pick = SIZE_MAX;
      for (std::size_t i = 0; i < gpus.size() && pick == SIZE_MAX; ++i) {
        VkPhysicalDeviceProperties p{};
        vkGetPhysicalDeviceProperties(gpus[i], &p);
        if (index ? std::to_string(i) == opt_.device : std::string(p.deviceName).find(opt_.device) != std::string::npos)
          pick = i;
      }
      if (pick == SIZE_MAX) throw Error(Errc::usage, "--device", "no Vulkan device " + opt_.device);
    }
    gpu_ = gpus[pick];
    VkPhysicalDeviceProperties p{};
    vkGetPhysicalDeviceProperties(gpu_, &p);
    r_.device = p.deviceName;
  }
  // Every device the application saw is this one.
  for (const std::uint64_t h : recorded) handles_.set(h, reinterpret_cast<std::uintptr_t>(gpu_));
}

void Replayer::create_device(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(cmd.params(), slots, ptrs);
  const VkPhysicalDevice gpu = *reinterpret_cast<VkPhysicalDevice*>(&slots[0]);
  auto* ci = *reinterpret_cast<VkDeviceCreateInfo**>(&slots[1]);
  if (!gpu || !ci) fail(c, "no physical device or create info");
  if (!d.problems().empty()) fail(c, d.problems().front());
  std::uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(gpu, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> have(n);
  vkEnumerateDeviceExtensionProperties(gpu, nullptr, &n, have.data());
  auto* names = const_cast<const char**>(ci->ppEnabledExtensionNames);
  std::uint32_t kept = 0;
  for (std::uint32_t i = 0; i < ci->enabledExtensionCount; ++i) {
    const std::string_view e = names[i];
    if (std::any_of(have.begin(), have.end(), [&](const auto& p) { return e == p.extensionName; }))
      names[kept++] = names[i];
    else
      adapted("device extension " + std::string(e) + ": not here, left out");
  }
  ci->enabledExtensionCount = kept;
  std::vector<const char*> with_swapchain;
  if (opt_.present_window &&
      std::none_of(names, names + kept, [](const char* x) { return std::string_view(x) == "VK_KHR_swapchain"; })) {
    with_swapchain.assign(names, names + kept);
    with_swapchain.push_back("VK_KHR_swapchain");
    ci->ppEnabledExtensionNames = with_swapchain.data();
    ci->enabledExtensionCount = static_cast<std::uint32_t>(with_swapchain.size());
  }
  ci->enabledLayerCount = 0;
  // Features the capture enabled that this device lacks are turned off, by name.
  VkPhysicalDeviceFeatures have_core{};
  vkGetPhysicalDeviceFeatures(gpu, &have_core);
  static const registry::Struct* core = registry::find_struct("VkPhysicalDeviceFeatures");
  auto clear_missing = [&](const registry::Struct& s, void* want, const void* supported) {
    for (const registry::Member& m : s.members()) {
      if (m.type != registry::Type::bool32) continue;
      VkBool32 w = 0, h = 0;
      std::memcpy(&w, static_cast<char*>(want) + m.offset, 4);
      std::memcpy(&h, static_cast<const char*>(supported) + m.offset, 4);
      if (w && !h) {
        std::memset(static_cast<char*>(want) + m.offset, 0, 4);
        adapted(std::string("feature ") + s.name() + "." + m.name() + ": not here, turned off");
      }
    }
  };
  if (ci->pEnabledFeatures)
    clear_missing(*core, const_cast<VkPhysicalDeviceFeatures*>(ci->pEnabledFeatures), &have_core);
  for (auto* s = static_cast<VkBaseOutStructure*>(const_cast<void*>(ci->pNext)); s; s = s->pNext) {
    const registry::Struct* st = registry::find_struct(s->sType);
    if (!st) continue;
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
      clear_missing(*core, &reinterpret_cast<VkPhysicalDeviceFeatures2*>(s)->features, &have_core);
      continue;
    }
    if (std::string_view(st->name()).find("Features") == std::string_view::npos) continue;
    std::vector<char> supported(st->size, 0);
    reinterpret_cast<VkBaseOutStructure*>(supported.data())->sType = s->sType;
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, supported.data(), {}};
    vkGetPhysicalDeviceFeatures2(gpu, &f2);
    clear_missing(*st, s, supported.data());
  }
  VkDevice device = VK_NULL_HANDLE;
  const VkResult r = vkCreateDevice(gpu, ci, nullptr, &device);
  if (r != VK_SUCCESS) fail(c, std::string("vkCreateDevice: ") + std::string(vk::result_name(r)));
  devices_[device] = gpu;
  const auto recorded = d.handles_of(d.arg(3));
  if (!recorded.empty()) handles_.set(recorded[0], reinterpret_cast<std::uintptr_t>(device));
}

void Replayer::destroy_device(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  const auto device = reinterpret_cast<VkDevice>(handles_.get(d.uint_of(d.arg(0))));
  if (!device) return;
  if (!device_idle(device))
    fail(c, "the device's work did not finish in " + wait_limit() +
                ": it waits on a semaphore nothing signals (a vkQueueSubmit or vkAcquireNextImageKHR missing?)");
  if (device == cache_device_) save_pipeline_cache();
  end_device(device);
  generic(c, cmd);
}

void Replayer::get_queue(const apitrace::Call& c, const registry::Command& cmd) {
  generic(c, cmd);
  CallDecoder d(c, arena_, handles_);
  const auto device = reinterpret_cast<VkDevice>(handles_.get(d.uint_of(d.arg(0))));
  const bool two = cmd.params().size() == 3;  // vkGetDeviceQueue2(device, info, pQueue)
  const auto queue = reinterpret_cast<VkQueue>(handles_.get(d.uint_of(d.arg(two ? 2 : 3))));
  std::uint32_t family = 0;
  if (two) {
    VkDeviceQueueInfo2 info{};
    d.structure(*registry::find_struct("VkDeviceQueueInfo2"), d.arg(1), &info);
    family = info.queueFamilyIndex;
  } else {
    family = static_cast<std::uint32_t>(d.uint_of(d.arg(1)));
  }
  if (!queue) return;
  queues_[queue] = {device, family};
  device_queue_.emplace(device, queue);
}

void Replayer::create_template(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  VkDescriptorUpdateTemplateCreateInfo ci{};
  d.structure(*registry::find_struct("VkDescriptorUpdateTemplateCreateInfo"), d.arg(1), &ci);
  if (d.problems().empty())
    if (const std::string why = template_entries(ci); !why.empty()) fail(c, why);
  generic(c, cmd);
  TemplateLayout t;
  for (std::uint32_t i = 0; i < ci.descriptorUpdateEntryCount && ci.pDescriptorUpdateEntries; ++i)
    t.entries.push_back(vktrace::template_entry(ci.pDescriptorUpdateEntries[i]));
  const auto recorded = d.handles_of(d.arg(3));
  if (!recorded.empty()) templates_[recorded[0]] = std::move(t);
}

void Replayer::with_template(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(cmd.params(), slots, ptrs);
  const auto params = cmd.params();
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (std::string_view(params[i].type_name()) != "VkDescriptorUpdateTemplate") continue;
    const auto t = templates_.find(d.uint_of(d.arg(i)));
    if (t == templates_.end()) fail(c, "a descriptor update template the capture never created");
    const void* data = d.template_data(t->second, d.arg(params.size() - 1));
    std::memcpy(&slots[params.size() - 1], &data, sizeof data);
  }
  invoke(c, cmd, d, ptrs, nullptr);
}

void Replayer::physical_device_info(const apitrace::Call& c) {
  CallDecoder d(c, arena_, handles_);
  d.structure(*registry::find_struct("VkPhysicalDeviceMemoryProperties"), d.arg(vktrace::kMemoryProperties),
              &capture_.real);
  capture_.to_real.clear();
  const std::uint32_t types = d.arg(vktrace::kMemoryTypes);
  if (types != apitrace::kNil && d.value(types).kind == apitrace::Kind::array)
    for (std::uint32_t v = d.value(types).first; v != apitrace::kNil; v = d.value(v).next)
      capture_.to_real.push_back(static_cast<std::uint32_t>(d.value(v).num.u));
  capture_.known = true;
  arena_.clear();
}

void Replayer::finish() {
  current_ = nullptr;
  g_replaying.active = false;
  for (auto& [device, gpu] : devices_)
    if (!device_idle(device))
      throw Error(Errc::bad_record, "the capture's end",
                  "the device's work did not finish in " + wait_limit() + " (a semaphore nothing signals?)");
  save_pipeline_cache();
  if (!opt_.pipeline_cache.empty() && !cache_saved_ && opt_.warnings)
    opt_.warnings("--pipeline-cache", "the capture makes no pipeline cache: " + opt_.pipeline_cache + " not saved");
  if (!shutdown()) throw Error(Errc::bad_record, "the capture's end", "the device's work did not finish");
  for (auto& [type, u] : used_here_) r_.memory_here.push_back(u);
  for (auto& [type, u] : used_capture_) {
    u.flags = "type " + std::to_string(type) + " " + vk::memory_property_names(capture_.shown_flags(type));
    r_.memory_capture.push_back(u);
  }
}

Invoker find_invoker(const char* name) {
  const NamedInvoker* end = kInvokers + kInvokerCount;
  const NamedInvoker* it = std::lower_bound(
      kInvokers, end, name, [](const NamedInvoker& e, const char* n) { return std::strcmp(e.name, n) < 0; });
  return it != end && std::strcmp(it->name, name) == 0 ? it->invoke : nullptr;
}

StreamKind stream_kind(std::string_view head) {
  std::size_t at = 0;
  auto uint = [&](std::uint64_t& v) {
    v = 0;
    for (int shift = 0; at < head.size() && shift < 64; shift += 7) {
      const auto b = static_cast<std::uint8_t>(head[at++]);
      v |= std::uint64_t{b & 0x7fu} << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  auto string = [&](std::string_view& s) {
    std::uint64_t n = 0;
    if (!uint(n) || n > head.size() - at) return false;
    s = head.substr(at, n);
    at += n;
    return true;
  };
  std::uint64_t version = 0, semantic = 0, v = 0;
  if (!uint(version) || version > 6) return StreamKind::unparsed;
  // Formats before 6 predate Vulkan captures; a few bytes are no format at all.
  if (version < 6) return head.size() < 16 ? StreamKind::unparsed : StreamKind::other_api;
  if (!uint(semantic)) return StreamKind::unparsed;
  for (std::string_view key, value;;) {  // properties, until an empty name
    if (!string(key)) return StreamKind::unparsed;
    if (key.empty()) break;
    if (!string(value)) return StreamKind::unparsed;
  }
  std::string_view name;
  if (at >= head.size() || head[at++] != 0 || !uint(v) || !uint(v) || !string(name))  // enter, thread, id
    return StreamKind::unparsed;
  return name.substr(0, 2) == "vk" ? StreamKind::vulkan : StreamKind::other_api;
}

bool Result::compare_failed() const {
  return std::any_of(checks.begin(), checks.end(), [](const FrameCheck& f) { return !f.passed; });
}

Result replay(std::unique_ptr<libtrace::Decoder> decoder, const std::string& name, const Options& opt) {
  apitrace::ParserOptions popt;
  popt.keep_blob_data = true;
  popt.warnings = opt.warnings;
  apitrace::Parser parser(std::move(decoder), name, popt);
  Result r;
  r.file = name;
  Replayer replayer(opt, r);
  if (const auto first = parser.header().properties.find(vktrace::kFirstFrameProperty);
      first != parser.header().properties.end()) {
    const std::string& v = first->second;
    if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos || std::stoull(v) == 0)
      throw Error(Errc::bad_record, name + ": header", "a first frame that is no frame: \"" + v + "\"");
    replayer.trimmed(std::stoull(v));
  }
  try {
    while (const apitrace::Call* c = parser.next()) replayer.call(*c);
    replayer.finish();
  } catch (const Error& e) {
    // A call's position in the stream is the file's: "cube.trace: call 42 ...".
    const std::string_view where = e.where();
    const bool in_stream = starts(where, "call ") || starts(where, "the capture's end");
    r.error = in_stream ? Error(e.code(), name + ": " + e.where(), e.message()) : e;
    // Work already submitted still runs in the driver's threads.
    replayer.shutdown();
  }
  g_replaying.active = false;  // the names go with the parser
  return r;
}

}  // namespace libtrace::replay_trace
