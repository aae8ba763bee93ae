// SPDX-License-Identifier: MIT
#include "capture/trace/call.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "capture/names.hpp"
#include "capture/trace/device.hpp"
#include "capture/trace/encode.hpp"
#include "capture/trace/stream.hpp"
#include "capture/trace/trim.hpp"
#include "layer/layer.hpp"

namespace libtrace::capture::trace {

namespace {

CommandInfo make_info(const char* name, Level level) {
  CommandInfo info;
  info.level = level;
  info.hooks = find_hooks(name);
  info.cmd = registry::find_command(name);
  if (!info.cmd) return info;
  info.id = static_cast<std::uint32_t>(info.cmd - registry::commands().data());
  info.params = info.cmd->params();
  for (std::size_t i = 0; i < info.params.size(); ++i) {
    info.param_names.push_back(info.params[i].name());
    if (is_output(info.params[i])) info.outputs.push_back(static_cast<std::uint8_t>(i));
  }
  info.records_commands = !info.params.empty() && std::string_view(info.params[0].type_name()) == "VkCommandBuffer";
  info.presents = std::string_view(name) == "vkQueuePresentKHR";
  info.flushes = std::string_view(name).substr(0, 13) == "vkQueueSubmit" || info.presents;
  info.whole = info.records_commands && info.outputs.empty() && std::string_view(name).substr(0, 5) == "vkCmd" &&
               std::string_view(info.cmd->return_type()) == "void";
  const std::string_view ret = info.cmd->return_type();
  if (ret == "VkResult") {
    info.ret = Ret::result;
  } else if (ret == "VkBool32") {
    info.ret = Ret::boolean;
  } else if (ret == "uint32_t") {
    info.ret = Ret::uint;
    info.ret_size = 4;
  } else if (ret == "uint64_t" || ret == "VkDeviceAddress" || ret == "VkDeviceSize" || ret == "size_t") {
    info.ret = Ret::uint;
    info.ret_size = 8;
  }
  info.keep = keep_class(name, info);
  return info;
}

// This thread's event buffer, for the stream of this process: a child of
// fork() writes a stream of its own, whose signatures start undefined (and
// so does each range of a trimmed capture).
Event& thread_event(Stream& s) {
  thread_local std::optional<Event> e;
  if (!e || e->stream() != &s) e.emplace(s);
  e->clear();
  return *e;
}

void quietly_log(const CommandInfo& info, const std::exception& ex) {
  layer::log_once(kLayerName, std::string("cannot trace ") + (info.cmd ? info.cmd->name() : "a call"), ex.what());
}

}  // namespace

const CommandInfo& command_info(const char* name, Level level) {
  static std::mutex mu;
  static std::map<std::string, CommandInfo, std::less<>>* infos = new std::map<std::string, CommandInfo, std::less<>>;
  const std::lock_guard lock(mu);
  auto it = infos->find(std::string_view(name));
  if (it == infos->end()) it = infos->emplace(name, make_info(name, level)).first;
  return it->second;
}

Call::Call(const CommandInfo& info_, void** a) : info(info_), args(a) {
  switch (info.level) {
    case Level::global: level_ok_ = true; break;
    case Level::instance:
      inst = find_instance(*static_cast<void**>(args[0]));
      level_ok_ = inst != nullptr;
      break;
    case Level::device:
      dev = device_for_call(*static_cast<void**>(args[0]));
      level_ok_ = dev != nullptr;
      break;
  }
  Stream* s = Stream::get();
  Keeper* k = trim_asked() && info.keep != Keep::none ? Trim::get()->keeper() : nullptr;
  // A trimmed capture's hooks run outside its ranges too (frames, layouts).
  if (!info.cmd || (!s && !trim_asked())) return;
  try {
    if (info.hooks && info.hooks->before_enter && level_ok_) info.hooks->before_enter(*this);
    DeviceTrace* const dt = info.records_commands && dev ? dev->trace.get() : nullptr;
    thread_local std::vector<Touched> named;
    named.clear();
    if (s) {
      const std::uint32_t tid = Stream::thread_id();
      const auto serialize = [&](Event& e) { put_enter(e, tid, info, args); };
      Event& e = thread_event(*s);
      if (dt) collect_handles(&named);
      serialize(e);
      no_ = s->commit(e, info.whole ? Stream::Kind::whole : Stream::Kind::enter, serialize);
      collect_handles(nullptr);
      entered_ = true;
    }
    if (k && info.keep != Keep::reset) kept_ = keep_enter(*k, info, args, dt && !s ? &named : nullptr);
    if (dt && !named.empty()) dt->touch(*static_cast<VkCommandBuffer*>(args[0]), named);
    if (info.hooks && info.hooks->before_call && level_ok_) info.hooks->before_call(*this);
  } catch (const std::exception& ex) {
    collect_handles(nullptr);
    quietly_log(info, ex);
  }
}

void put_enter(Event& e, std::uint32_t thread, const CommandInfo& info, void* const* args) {
  begin_enter(e, thread, info.id, info.cmd->name(), info.param_names, false);
  for (std::size_t i = 0; i < info.params.size(); ++i) {
    if (is_output(info.params[i])) continue;
    put_arg(e, static_cast<std::uint32_t>(i));
    put_param(e, info.params, i, args);
  }
  end_details(e);
}

void put_leave_details(Event& e, const CommandInfo& info, void* const* args, const void* ret) {
  for (const std::uint8_t i : info.outputs) {
    put_arg(e, i);
    put_param(e, info.params, i, args);
  }
  if (ret && info.ret != Ret::none) {
    put_ret(e);
    if (info.ret == Ret::result) {
      static const registry::Enum* result = registry::find_enum("VkResult");
      put_enum(e, *result, *static_cast<const VkResult*>(ret));
    } else if (info.ret == Ret::boolean) {
      put_bool(e, *static_cast<const VkBool32*>(ret) != 0);
    } else if (info.ret_size == 4) {
      put_uint(e, *static_cast<const std::uint32_t*>(ret));
    } else {
      put_uint(e, *static_cast<const std::uint64_t*>(ret));
    }
  }
  end_details(e);
}

layer::DeviceTable& Call::device_table() { return dev->trace ? dev->trace->next : dev->t; }

void Call::leave(const void* r) {
  ret = r;
  Stream* s = Stream::get();
  try {
    if (info.hooks && info.hooks->after_call && level_ok_) info.hooks->after_call(*this);
    if (trim_asked() && info.keep != Keep::none)
      if (Keeper* k = Trim::get()->keeper()) {
        if (kept_)
          keep_leave(*k, *this, kept_);
        else if (info.keep == Keep::reset)
          keep_reset(*k, *this);
      }
    if (s && entered_ && !info.whole) {
      const auto serialize = [&](Event& e) {
        begin_leave(e, no_);
        put_leave_details(e, info, args, ret);
      };
      Event& e = thread_event(*s);
      serialize(e);
      s->commit(e, Stream::Kind::leave, serialize);
      if (info.flushes) s->nudge();
    }
    if (info.presents && trim_asked()) Trim::get()->frame_ended(Stream::frames_so_far());
  } catch (const std::exception& ex) {
    quietly_log(info, ex);
  }
}

PFN_vkVoidFunction find_entry_point(const char* name) {
  const EntryPoint* e = find_named(std::span<const EntryPoint>(kEntryPoints, kEntryPointCount), name);
  return e ? e->fn : nullptr;
}

}  // namespace libtrace::capture::trace
