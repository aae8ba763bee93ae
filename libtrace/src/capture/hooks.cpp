// SPDX-License-Identifier: MIT
// VK_LAYER_TRAK_capture's entry points: instance and device bookkeeping, and
// the creation calls whose create infos go into the archive. Without a trace
// every other command is the next layer's own function pointer, so the layer
// costs nothing where it records nothing; with one, every command is the
// trace's entry point (gen_trace.py), which calls down through these.
#include "libtrace/capture/layer.hpp"
#include "libtrace/capture/run.hpp"
#include "libtrace/vktrace/dialect.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "capture/crash_guard.hpp"
#include "capture/foz/capture.hpp"
#include "capture/launcher_report.hpp"
#include "capture/names.hpp"
#include "capture/state.hpp"
#include "capture/trace/call.hpp"
#include "capture/trace/device.hpp"
#include "capture/trace/encode.hpp"
#include "capture/trace/snapshot.hpp"
#include "capture/trace/stream.hpp"
#include "capture/trace/trim.hpp"
#include "layer/instance.hpp"
#include "layer/layer.hpp"

namespace libtrace::capture {

namespace {

struct Config {
  std::string foz_base, report;  // foz_base empty: no archive
  bool trace = false;
  std::set<std::uint64_t> snapshots;  // frames, as TRAK_CAPTURE_SNAPSHOTS says
  bool signals = true;
};

// A setting the layer cannot read is said once and left out: the layer
// decides what it does before the application sees anything of it (memory
// types are split for a trace), so it must not change its mind later.
std::set<std::uint64_t> snapshot_frames(const std::string& list) {
  if (list.empty()) return {};
  try {
    return vktrace::parse_frames(list);
  } catch (const std::exception& e) {
    const std::string why = std::string(kEnvSnapshots) + ": " + e.what() + "; tracing without snapshots";
    layer::log_once(kLayerName, "bad setting", why);
    tell_launcher(kReportProblem, why);
    return {};
  }
}

// Never destroyed: a hook may still run while the process exits.
struct Global {
  Config config;
  layer::KeyedState<layer::Instance> instances;
  layer::KeyedState<Device> devices;
  std::mutex mu;  // recorders, captures
  std::unordered_map<foz::Hash, std::shared_ptr<FozRecorder>> recorders;
  std::vector<std::weak_ptr<FozCapture>> captures;
};

Global& global();

// fork(): every lock of the layer is taken first, so that the child's copy
// of the state is whole, and the child starts with new ones.
template <typename Fn>
void each_capture(Global& g, Fn&& fn) {
  for (const auto& weak : g.captures)
    if (const auto c = weak.lock()) fn(*c);
}
void before_fork() {
  Global& g = global();
  g.mu.lock();
  g.instances.before_fork();
  g.devices.before_fork();
  each_capture(g, [](FozCapture& c) { c.before_fork(); });
  for (auto& [hash, r] : g.recorders) r->before_fork();
  layer::log_before_fork();
}
void after_fork_in_parent() {
  Global& g = global();
  layer::log_after_fork_in_parent();
  for (auto& [hash, r] : g.recorders) r->after_fork_in_parent();
  each_capture(g, [](FozCapture& c) { c.after_fork_in_parent(); });
  g.devices.after_fork_in_parent();
  g.instances.after_fork_in_parent();
  g.mu.unlock();
}
void after_fork_in_child() {
  Global& g = global();
  trace::Stream::forget_in_child();
  FozRecorder::write_synchronously();  // recorders made in the child too
  layer::log_after_fork_in_child();
  for (auto& [hash, r] : g.recorders) r->after_fork_in_child();
  each_capture(g, [](FozCapture& c) { c.after_fork_in_child(); });
  g.devices.after_fork_in_child();
  g.instances.after_fork_in_child();
  new (&g.mu) std::mutex;
}

// At exit (and when the layer's library would be unloaded) every queued
// entry is written and the writer threads are joined.
struct FlushAtExit {
  ~FlushAtExit() {
    Global& g = global();
    const std::lock_guard lock(g.mu);
    for (auto& [hash, r] : g.recorders) r->stop();
    if (trace::Stream* s = trace::Stream::peek()) s->finish();
  }
};

Global& global() {
  static Global* g = [] {
    auto* n = new Global;
    n->config.foz_base = layer::env(kEnvFoz);
    n->config.trace = !layer::env(kEnvTrace).empty();
    n->config.snapshots = snapshot_frames(layer::env(kEnvSnapshots));
    if (n->config.foz_base.empty() && !n->config.trace) n->config.foz_base = "capture";
    n->config.report = layer::env(kEnvReport);
    n->config.signals = layer::env(kEnvSignals) != "0";
    ::pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
    return n;
  }();
  static FlushAtExit flush;
  return *g;
}

std::shared_ptr<FozRecorder> recorder_for(const foz::Object& application) {
  Global& g = global();
  const std::lock_guard lock(g.mu);
  auto& r = g.recorders[application.hash];
  if (!r) r = std::make_shared<FozRecorder>(RecorderOptions{g.config.foz_base, g.config.report}, application);
  return r;
}

std::shared_ptr<Device> device_of(const void* dispatchable) {
  return global().devices.find(layer::dispatch_key(dispatchable));
}

// A trimmed capture traces devices before its first range has a stream.
bool tracing() { return global().config.trace && (trace::Stream::get() || trace::Trim::get()); }

// Bumped whenever a device comes or goes: per-thread lookups start over.
std::atomic<std::uint64_t> g_device_generation{0};

// Recording never fails a call: whatever escapes is logged once.
template <typename Fn>
void quietly(const char* what, Fn&& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    layer::log_once(kLayerName, what, e.what());
  }
}

// ---- trace ----

// The next layer's vkGetDeviceProcAddr for the device being created, with
// the foz recorder's hooks in front where it records too: the trace's
// dispatch table, so that both recorders see every call.
thread_local Device* t_creating = nullptr;
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL down_with_foz(VkDevice device, const char* name) {
  const PFN_vkVoidFunction next = t_creating->t.GetDeviceProcAddr(device, name);
  const PFN_vkVoidFunction foz = t_creating->capture ? foz_hook(name) : nullptr;
  return next && foz ? foz : next;
}

void start_trace(Device& dev, const layer::Instance& inst) {
  t_creating = &dev;
  layer::DeviceTable next;
  layer::load_device_table(next, dev.handle, down_with_foz);
  t_creating = nullptr;
  const trace::VirtualTypes& types = trace::virtual_types(dev.gpu, inst.t.GetPhysicalDeviceMemoryProperties);
  auto t = std::make_shared<trace::DeviceTrace>(dev.handle, dev.gpu, next, types);
  // Beside the file written (another name if this process found the one
  // asked for taken); a trimmed capture's beside the name asked for.
  const trace::Stream* stream = trace::Stream::get();
  const std::string trace_path = stream ? stream->path() : layer::env(kEnvTrace);
  if (!global().config.snapshots.empty())
    t->snapshots = std::make_unique<trace::Snapshots>(global().config.snapshots, vktrace::snapshot_dir(trace_path));
  trace::set_template_lookup(trace::template_entries);
  dev.trace = std::move(t);
}

// ---- instance ----

VkResult CreateInstance(const VkInstanceCreateInfo* ci, const VkAllocationCallbacks* alloc, VkInstance* out) {
  const VkResult r = layer::create_instance(ci, alloc, out, global().instances);
  if (r == VK_SUCCESS) tell_launcher(kReportInstance, std::to_string(::getpid()));
  return r;
}

void DestroyInstance(VkInstance instance, const VkAllocationCallbacks* alloc) {
  layer::destroy_instance(instance, alloc, global().instances);
}

// ---- device ----

VkResult CreateDevice(VkPhysicalDevice gpu, const VkDeviceCreateInfo* ci, const VkAllocationCallbacks* alloc,
                      VkDevice* out) {
  const auto inst = global().instances.find(layer::dispatch_key(gpu));
  const layer::DeviceLink link = layer::take_device_link(ci);
  if (!inst || !link.gipa || !link.gdpa) return VK_ERROR_INITIALIZATION_FAILED;
  const auto create = reinterpret_cast<PFN_vkCreateDevice>(link.gipa(inst->handle, "vkCreateDevice"));
  if (!create) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult r = create(gpu, ci, alloc, out);
  if (r != VK_SUCCESS) return r;
  auto dev = std::make_shared<Device>();
  dev->handle = *out;
  dev->gpu = gpu;
  layer::load_device_table(dev->t, *out, link.gdpa);
  if (!global().config.foz_base.empty())
    quietly("cannot record this device's application info; nothing of it is captured", [&] {
      foz::Arena arena;
      const foz::Object app = foz::application_object(inst->has_app ? &inst->app : nullptr, *ci, arena);
      dev->capture = std::make_shared<FozCapture>(recorder_for(app));
      {
        Global& g = global();
        const std::lock_guard lock(g.mu);
        g.captures.push_back(dev->capture);
      }
      if (global().config.signals) install_crash_handlers();
    });
  if (tracing())
    quietly("cannot trace this device", [&] {
      start_trace(*dev, *inst);
      // Calls up to a crash are in the file: a fatal signal flushes it.
      if (global().config.signals) install_crash_handlers();
    });
  tell_launcher(kReportDevice, std::to_string(::getpid()));
  global().devices.insert(layer::dispatch_key(*out), std::move(dev));
  g_device_generation.fetch_add(1, std::memory_order_release);
  return r;
}

void DestroyDevice(VkDevice device, const VkAllocationCallbacks* alloc) {
  if (!device) return;
  const auto dev = global().devices.erase(layer::dispatch_key(device));
  if (!dev) return;
  g_device_generation.fetch_add(1, std::memory_order_release);
  if (dev->trace && dev->trace->snapshots)
    quietly("cannot release the snapshots' objects", [&] { dev->trace->snapshots->release(*dev->trace); });
  // What this device made is in the file before the application moves on.
  if (dev->capture) quietly("cannot finish writing the archive", [&] { dev->capture->recorder().drain(); });
  dev->t.DestroyDevice(device, alloc);
}

// ---- objects ----

VKAPI_ATTR VkResult VKAPI_CALL CreateSampler(VkDevice device, const VkSamplerCreateInfo* ci,
                                             const VkAllocationCallbacks* alloc, VkSampler* out) {
  const auto d = device_of(device);
  const VkResult r = d->t.CreateSampler(device, ci, alloc, out);
  if (r == VK_SUCCESS && d->capture) d->capture->sampler(*ci, *out);
  return r;
}

template <PFN_vkCreateSamplerYcbcrConversion layer::DeviceTable::*Next>
VKAPI_ATTR VkResult VKAPI_CALL CreateSamplerYcbcrConversion(VkDevice device,
                                                            const VkSamplerYcbcrConversionCreateInfo* ci,
                                                            const VkAllocationCallbacks* alloc,
                                                            VkSamplerYcbcrConversion* out) {
  const auto d = device_of(device);
  const VkResult r = (d->t.*Next)(device, ci, alloc, out);
  if (r == VK_SUCCESS && d->capture)
    quietly("cannot keep a YCbCr conversion", [&] { d->capture->ycbcr_conversion(*ci, *out); });
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorSetLayout(VkDevice device, const VkDescriptorSetLayoutCreateInfo* ci,
                                                         const VkAllocationCallbacks* alloc,
                                                         VkDescriptorSetLayout* out) {
  const auto d = device_of(device);
  const VkResult r = d->t.CreateDescriptorSetLayout(device, ci, alloc, out);
  if (r == VK_SUCCESS && d->capture) d->capture->set_layout(*ci, *out);
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreatePipelineLayout(VkDevice device, const VkPipelineLayoutCreateInfo* ci,
                                                    const VkAllocationCallbacks* alloc, VkPipelineLayout* out) {
  const auto d = device_of(device);
  const VkResult r = d->t.CreatePipelineLayout(device, ci, alloc, out);
  if (r == VK_SUCCESS && d->capture) d->capture->pipeline_layout(*ci, *out);
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* ci,
                                                  const VkAllocationCallbacks* alloc, VkShaderModule* out) {
  const auto d = device_of(device);
  const VkResult r = d->t.CreateShaderModule(device, ci, alloc, out);
  if (r == VK_SUCCESS && d->capture) d->capture->shader_module(*ci, *out);
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateRenderPass(VkDevice device, const VkRenderPassCreateInfo* ci,
                                                const VkAllocationCallbacks* alloc, VkRenderPass* out) {
  const auto d = device_of(device);
  const VkResult r = d->t.CreateRenderPass(device, ci, alloc, out);
  if (r == VK_SUCCESS && d->capture) d->capture->render_pass(ci, *out);
  return r;
}

template <PFN_vkCreateRenderPass2 layer::DeviceTable::*Next>
VKAPI_ATTR VkResult VKAPI_CALL CreateRenderPass2(VkDevice device, const VkRenderPassCreateInfo2* ci,
                                                 const VkAllocationCallbacks* alloc, VkRenderPass* out) {
  const auto d = device_of(device);
  const VkResult r = (d->t.*Next)(device, ci, alloc, out);
  if (r == VK_SUCCESS && d->capture) d->capture->render_pass(ci, *out);
  return r;
}

// The three vkCreate*Pipelines: hashed and serialized first, then guarded
// while the driver compiles, then recorded.
template <typename Call>
VkResult create_pipelines(Device& d, foz::Tag tag, const void* infos, std::uint32_t count, VkPipeline* out,
                          Call&& call) {
  if (!d.capture) return call();
  PreparedPipelines p;
  quietly("cannot record pipelines", [&] { p = d.capture->prepare(tag, infos, count); });
  VkResult r;
  {
    const CrashGuard guard(d.capture->recorder(), p);
    r = call();
  }
  quietly("cannot record pipelines", [&] { d.capture->created(p, out, count); });
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateGraphicsPipelines(VkDevice device, VkPipelineCache cache, std::uint32_t count,
                                                       const VkGraphicsPipelineCreateInfo* ci,
                                                       const VkAllocationCallbacks* alloc, VkPipeline* out) {
  const auto d = device_of(device);
  return create_pipelines(*d, foz::Tag::graphics_pipeline, ci, count, out,
                          [&] { return d->t.CreateGraphicsPipelines(device, cache, count, ci, alloc, out); });
}

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache cache, std::uint32_t count,
                                                      const VkComputePipelineCreateInfo* ci,
                                                      const VkAllocationCallbacks* alloc, VkPipeline* out) {
  const auto d = device_of(device);
  return create_pipelines(*d, foz::Tag::compute_pipeline, ci, count, out,
                          [&] { return d->t.CreateComputePipelines(device, cache, count, ci, alloc, out); });
}

VKAPI_ATTR VkResult VKAPI_CALL CreateRayTracingPipelinesKHR(VkDevice device, VkDeferredOperationKHR deferred,
                                                            VkPipelineCache cache, std::uint32_t count,
                                                            const VkRayTracingPipelineCreateInfoKHR* ci,
                                                            const VkAllocationCallbacks* alloc, VkPipeline* out) {
  const auto d = device_of(device);
  return create_pipelines(*d, foz::Tag::raytracing_pipeline, ci, count, out, [&] {
    return d->t.CreateRayTracingPipelinesKHR(device, deferred, cache, count, ci, alloc, out);
  });
}

// ---- lookup ----

using layer::Hook;
constexpr auto entry = [](auto f) { return layer::hook_fn(f); };

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name);

VKAPI_ATTR VkResult VKAPI_CALL CreateInstanceEntry(const VkInstanceCreateInfo* ci, const VkAllocationCallbacks* alloc,
                                                   VkInstance* out) {
  return CreateInstance(ci, alloc, out);
}
VKAPI_ATTR void VKAPI_CALL DestroyInstanceEntry(VkInstance instance, const VkAllocationCallbacks* alloc) {
  DestroyInstance(instance, alloc);
}
VKAPI_ATTR VkResult VKAPI_CALL CreateDeviceEntry(VkPhysicalDevice gpu, const VkDeviceCreateInfo* ci,
                                                 const VkAllocationCallbacks* alloc, VkDevice* out) {
  return CreateDevice(gpu, ci, alloc, out);
}
VKAPI_ATTR void VKAPI_CALL DestroyDeviceEntry(VkDevice device, const VkAllocationCallbacks* alloc) {
  DestroyDevice(device, alloc);
}

const Hook kDeviceHooks[] = {
    {"vkDestroyDevice", entry(DestroyDeviceEntry)},
    {"vkCreateSampler", entry(CreateSampler)},
    {"vkCreateSamplerYcbcrConversion",
     entry(CreateSamplerYcbcrConversion<&layer::DeviceTable::CreateSamplerYcbcrConversion>)},
    {"vkCreateSamplerYcbcrConversionKHR",
     entry(CreateSamplerYcbcrConversion<&layer::DeviceTable::CreateSamplerYcbcrConversionKHR>)},
    {"vkCreateDescriptorSetLayout", entry(CreateDescriptorSetLayout)},
    {"vkCreatePipelineLayout", entry(CreatePipelineLayout)},
    {"vkCreateShaderModule", entry(CreateShaderModule)},
    {"vkCreateRenderPass", entry(CreateRenderPass)},
    {"vkCreateRenderPass2", entry(CreateRenderPass2<&layer::DeviceTable::CreateRenderPass2>)},
    {"vkCreateRenderPass2KHR", entry(CreateRenderPass2<&layer::DeviceTable::CreateRenderPass2KHR>)},
    {"vkCreateGraphicsPipelines", entry(CreateGraphicsPipelines)},
    {"vkCreateComputePipelines", entry(CreateComputePipelines)},
    {"vkCreateRayTracingPipelinesKHR", entry(CreateRayTracingPipelinesKHR)},
};

const Hook kInstanceHooks[] = {
    {"vkCreateInstance", entry(CreateInstanceEntry)},
    {"vkDestroyInstance", entry(DestroyInstanceEntry)},
    {"vkCreateDevice", entry(CreateDeviceEntry)},
};

// With a trace, the trace's entry point for every command the next layer has.
PFN_vkVoidFunction traced_or_next(PFN_vkVoidFunction next, const char* name) {
  if (!next) return nullptr;
  const PFN_vkVoidFunction t = trace::find_entry_point(name);
  return t ? t : next;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  const auto d = device_of(device);
  if (!d) return nullptr;
  const PFN_vkVoidFunction next = d->t.GetDeviceProcAddr(device, name);
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return entry(GetDeviceProcAddr);
  if (d->trace) return traced_or_next(next, name);
  return layer::hooked_or_next(next, kDeviceHooks, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (std::strcmp(name, "vkGetInstanceProcAddr") == 0) return entry(GetInstanceProcAddr);
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return entry(GetDeviceProcAddr);
  if (tracing()) {
    // vkCreateInstance, vkDestroyInstance, vkCreateDevice: the trace's, which call the hooks below.
    if (layer::find_hook(kInstanceHooks, name)) return trace::find_entry_point(name);
    return traced_or_next(layer::next_instance_proc(global().instances, instance, name), name);
  }
  if (const PFN_vkVoidFunction hook = layer::find_hook(kInstanceHooks, name)) return hook;
  return layer::hooked_or_next(layer::next_instance_proc(global().instances, instance, name), kDeviceHooks, name);
}

}  // namespace

std::shared_ptr<Device> find_device(const void* dispatchable) { return device_of(dispatchable); }

Device* device_for_call(const void* dispatchable) {
  struct Cache {
    const void* key = nullptr;
    std::uint64_t generation = ~std::uint64_t{0};
    std::shared_ptr<Device> device;
  };
  thread_local Cache cache;
  const void* key = layer::dispatch_key(dispatchable);
  const std::uint64_t generation = g_device_generation.load(std::memory_order_acquire);
  if (cache.key != key || cache.generation != generation) {
    cache.device = device_of(dispatchable);
    cache.key = key;
    cache.generation = generation;
  }
  return cache.device.get();
}
std::shared_ptr<layer::Instance> find_instance(const void* dispatchable) {
  return global().instances.find(layer::dispatch_key(dispatchable));
}

PFN_vkVoidFunction foz_hook(const char* name) {
  if (std::strcmp(name, "vkDestroyDevice") == 0) return nullptr;
  return layer::find_hook(kDeviceHooks, name);
}

namespace trace {
VkResult down_vkCreateInstance(const VkInstanceCreateInfo* ci, const VkAllocationCallbacks* alloc, VkInstance* out) {
  return CreateInstance(ci, alloc, out);
}
void down_vkDestroyInstance(VkInstance instance, const VkAllocationCallbacks* alloc) {
  DestroyInstance(instance, alloc);
}
VkResult down_vkCreateDevice(VkPhysicalDevice gpu, const VkDeviceCreateInfo* ci, const VkAllocationCallbacks* alloc,
                             VkDevice* out) {
  return CreateDevice(gpu, ci, alloc, out);
}
void down_vkDestroyDevice(VkDevice device, const VkAllocationCallbacks* alloc) { DestroyDevice(device, alloc); }
}  // namespace trace

VkResult negotiate_layer(VkNegotiateLayerInterface* v) {
  return layer::negotiate(v, GetInstanceProcAddr, GetDeviceProcAddr);
}

}  // namespace libtrace::capture
