// SPDX-License-Identifier: MIT
#include "capture/trace/trim.hpp"

#include <signal.h>

#include <algorithm>

#include "capture/launcher_report.hpp"
#include "capture/names.hpp"
#include "capture/trace/call.hpp"
#include "capture/trace/device.hpp"
#include "layer/layer.hpp"
#include "libtrace/vktrace/dialect.hpp"

namespace libtrace::capture::trace {

namespace {

std::atomic<std::uint32_t> g_signals{0};  // SIGUSR1s so far: odd while a range is asked for

void on_signal(int) { g_signals.fetch_add(1, std::memory_order_relaxed); }

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

template <typename T>
std::uint64_t bits(T h) {
  if constexpr (std::is_pointer_v<T>)
    return reinterpret_cast<std::uintptr_t>(h);
  else
    return static_cast<std::uint64_t>(h);
}

// The (binding, element) pairs a descriptor update writes, by set.
using Slots = std::vector<std::pair<std::uint64_t, std::vector<std::uint64_t>>>;
void add_slots(Slots& out, std::uint64_t set, std::uint32_t binding, std::uint32_t element, std::uint32_t count) {
  auto it = std::find_if(out.begin(), out.end(), [&](const auto& s) { return s.first == set; });
  if (it == out.end()) it = out.insert(out.end(), {set, {}});
  for (std::uint32_t k = 0; k < count; ++k)
    it->second.push_back(std::uint64_t{binding} << 32 | (std::uint64_t{element} + k));
}

Slots update_slots(Call& c) {
  Slots out;
  const std::string_view name = c.info.cmd->name();
  if (name == "vkUpdateDescriptorSets") {
    const auto* writes = c.arg<const VkWriteDescriptorSet*>(2);
    for (std::uint32_t i = 0; writes && i < c.arg<std::uint32_t>(1); ++i)
      add_slots(out, bits(writes[i].dstSet), writes[i].dstBinding, writes[i].dstArrayElement,
                writes[i].descriptorCount);
    const auto* copies = c.arg<const VkCopyDescriptorSet*>(4);
    for (std::uint32_t i = 0; copies && i < c.arg<std::uint32_t>(3); ++i)
      add_slots(out, bits(copies[i].dstSet), copies[i].dstBinding, copies[i].dstArrayElement,
                copies[i].descriptorCount);
    return out;
  }
  // vkUpdateDescriptorSetWithTemplate(device, set, template, data)
  std::vector<TemplateEntry> entries;
  if (!template_entries(c.arg<void*>(0), c.arg<std::uint64_t>(2), entries)) return out;
  for (const TemplateEntry& e : entries) add_slots(out, c.arg<std::uint64_t>(1), e.binding, e.element, e.count);
  return out;
}

std::vector<std::uint64_t> destroyed_handles(Call& c) {
  const std::string_view name = c.info.cmd->name();
  std::vector<std::uint64_t> out;
  if (name == "vkFreeCommandBuffers" || name == "vkFreeDescriptorSets") {
    const auto* h = c.arg<const std::uint64_t*>(3);
    for (std::uint32_t i = 0; h && i < c.arg<std::uint32_t>(2); ++i) out.push_back(h[i]);
  } else if (c.info.params.size() > 1 && c.info.params[1].type == registry::Type::handle) {
    out.push_back(c.arg<std::uint64_t>(1));
  } else {
    out.push_back(bits(c.arg<void*>(0)));
  }
  return out;
}

std::uint64_t parent_of(Call& c) {
  const std::string_view name = c.info.cmd->name();
  if (name == "vkAllocateCommandBuffers")
    if (const auto* ai = c.arg<const VkCommandBufferAllocateInfo*>(1)) return bits(ai->commandPool);
  if (name == "vkAllocateDescriptorSets")
    if (const auto* ai = c.arg<const VkDescriptorSetAllocateInfo*>(1)) return bits(ai->descriptorPool);
  if (name == "vkGetSwapchainImagesKHR") return c.arg<std::uint64_t>(1);
  return 0;
}

}  // namespace

Keep keep_class(std::string_view name, const CommandInfo& info) {
  if (starts(name, "vkCmd") || name == "vkBeginCommandBuffer" || name == "vkEndCommandBuffer") return Keep::record;
  if (starts(name, "vkDestroy") || starts(name, "vkFree")) return Keep::destroy;
  if (starts(name, "vkBind") && name.find("Memory") != std::string_view::npos) return Keep::bind;
  if (starts(name, "vkUpdateDescriptorSet")) return Keep::update;
  if (name == "vkResetCommandBuffer" || name == "vkResetCommandPool" || name == "vkResetDescriptorPool")
    return Keep::reset;
  for (const std::uint8_t i : info.outputs)
    if (info.params[i].type == registry::Type::handle) return Keep::create;
  return Keep::none;
}

bool trim_asked() {
  static const bool asked =
      !layer::env(kEnvTrace).empty() && (!layer::env(kEnvTraceFrames).empty() || !layer::env(kEnvTraceTrigger).empty());
  return asked;
}

Trim* Trim::get() {
  static Trim* const t = []() -> Trim* {
    if (!trim_asked()) return nullptr;
    const std::string trigger = layer::env(kEnvTraceTrigger);
    if (!trigger.empty() && trigger != "signal")
      layer::log_once(kLayerName, "unknown " + std::string(kEnvTraceTrigger) + " (signal): none", trigger);
    return new Trim(layer::env(kEnvTrace), layer::env(kEnvTraceFrames), trigger == "signal");
  }();
  return t;
}

Trim::Trim(const std::string& path, const std::string& frames, bool trigger) : path_(path), trigger_(trigger) {
  if (!frames.empty()) {
    try {
      ranges_ = vktrace::parse_frame_ranges(frames);
    } catch (const std::exception& e) {
      layer::log_once(kLayerName, "cannot read " + std::string(kEnvTraceFrames) + "; nothing is recorded", e.what());
      tell_launcher(kReportProblem, std::string("cannot read the frame ranges: ") + e.what());
    }
  }
  several_ = ranges_.size() > 1 || trigger_;
  if (trigger_) {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGUSR1, &sa, nullptr);
  }
  keeping_ = more_locked();
  const std::lock_guard lock(mu_);
  if (!ranges_.empty() && ranges_[0].first == 1) start_locked(1);  // nothing to keep: the run starts with it
}

void Trim::add(DeviceTrace* dt) {
  const std::lock_guard lock(mu_);
  devices_.push_back(dt);
}

void Trim::remove(DeviceTrace* dt) {
  const std::lock_guard lock(mu_);
  std::erase(devices_, dt);
}

void Trim::frame_ended(std::uint64_t frame) {
  const std::lock_guard lock(mu_);
  const bool asked = (g_signals.load(std::memory_order_relaxed) & 1) != 0;
  if (recording_ && (trigger_ ? !asked : frame >= ranges_[next_].second)) end_locked();
  if (recording_ || !more_locked()) return;
  if (trigger_ ? asked : ranges_[next_].first == frame + 1) start_locked(frame + 1);
}

void Trim::start_locked(std::uint64_t first) {
  const std::string path = several_ ? vktrace::range_trace_path(path_, first) : path_;
  try {
    // What the state is read from must be done: the device is waited for.
    for (DeviceTrace* dt : devices_) dt->next.DeviceWaitIdle(dt->device);
    Stream* s = Stream::open_range(path, first);
    keeper_.write(*s);
    for (DeviceTrace* dt : devices_) write_state(*s, *dt);
    recording_ = true;
  } catch (const std::exception& e) {
    layer::log_once(kLayerName, "cannot start the trimmed capture's range at frame " + std::to_string(first), e.what());
    tell_launcher(kReportProblem, "cannot start the range at frame " + std::to_string(first) + ": " + e.what());
    if (!trigger_) ++next_;
  }
  // Nothing after this range needs the state.
  if (!trigger_ && next_ + 1 >= ranges_.size()) keeping_ = false;
}

void Trim::end_locked() {
  Stream::close_range();
  recording_ = false;
  if (!trigger_) ++next_;
}

std::uint64_t keep_enter(Keeper& k, const CommandInfo& info, void** args, std::vector<Touched>* named) {
  thread_local std::vector<Touched> refs;
  refs.clear();
  collect_refs(&refs);
  if (named) collect_handles(named);
  // Reused: the keeper copies the bytes out.
  thread_local Event e;
  e.clear();
  try {
    put_enter(e, Stream::thread_id(), info, args);
  } catch (...) {
    collect_refs(nullptr);
    collect_handles(nullptr);
    throw;
  }
  collect_refs(nullptr);
  if (named) collect_handles(nullptr);
  if (info.whole && info.keep == Keep::record) return k.record(e, refs, bits(*static_cast<VkCommandBuffer*>(args[0])));
  return k.enter(e, info.whole, refs);
}

void keep_reset(Keeper& k, Call& c) {
  const std::string_view name = c.info.cmd->name();
  if (name == "vkResetCommandBuffer")
    k.end_recording(bits(c.arg<VkCommandBuffer>(0)));
  else if (name == "vkResetCommandPool")
    k.end_recordings_of_children(c.arg<std::uint64_t>(1));
  else
    k.kill_children(c.arg<std::uint64_t>(1));
}

void keep_leave(Keeper& k, Call& c, std::uint64_t seq) {
  const CommandInfo& info = c.info;
  if (info.whole && info.keep == Keep::record) return;  // kept whole by keep_enter()
  const bool ok = info.ret != Ret::result || c.result() >= 0;
  thread_local std::vector<Touched> outputs;
  outputs.clear();
  thread_local Event details;
  details.clear();
  if (!info.whole && ok) {
    collect_refs(&outputs);
    try {
      put_leave_details(details, info, c.args, c.ret);
    } catch (...) {
      collect_refs(nullptr);
      k.leave(seq, false, nullptr);
      throw;
    }
    collect_refs(nullptr);
  }
  k.leave(seq, ok, info.whole ? nullptr : &details);
  if (!ok) return;
  const std::string_view name = info.cmd->name();
  switch (info.keep) {
    case Keep::create: k.own_created(seq, outputs, parent_of(c)); break;
    case Keep::bind:
      if (name == "vkBindBufferMemory" || name == "vkBindImageMemory") {
        k.own_by_object(seq, c.arg<std::uint64_t>(1));
      } else if (name.find("Buffer") != std::string_view::npos) {
        const auto* infos = c.arg<const VkBindBufferMemoryInfo*>(2);
        for (std::uint32_t i = 0; infos && i < c.arg<std::uint32_t>(1); ++i)
          k.own_by_object(seq, bits(infos[i].buffer));
      } else {
        const auto* infos = c.arg<const VkBindImageMemoryInfo*>(2);
        for (std::uint32_t i = 0; infos && i < c.arg<std::uint32_t>(1); ++i) k.own_by_object(seq, bits(infos[i].image));
      }
      break;
    case Keep::update:
      for (const auto& [set, slots] : update_slots(c)) k.own_by_slots(seq, set, slots);
      break;
    case Keep::record:
      if (name == "vkBeginCommandBuffer") k.end_recording(bits(c.arg<VkCommandBuffer>(0)));
      k.own_by_recording(seq, bits(c.arg<VkCommandBuffer>(0)));
      break;
    case Keep::destroy: k.destroyed(seq, destroyed_handles(c)); break;
    case Keep::none:
    case Keep::reset: break;
  }
  k.settle(seq);
}

}  // namespace libtrace::capture::trace
