// SPDX-License-Identifier: MIT
// The device replay: one recorded call at a time, in file order, timed per
// function; pools, frees, mapping, lost allocations and defragmentation
// (creations are in replay/vma/create.cpp).
#include "libtrace/replay/vma/replay.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>

#include "replay/vma/internal.hpp"
#include "vma/replay_summary.hpp"

namespace libtrace::vma {

std::string_view compromise_name(Compromise c) {
  switch (c) {
    case Compromise::missing_flags: return "replay type lacks recorded property flags";
    case Compromise::required_flags_unmet: return "no allowed type has the required flags";
    case Compromise::type_fallback: return "another memory type after an allocation failure";
    case Compromise::pool_type_incompatible: return "resource not allowed in its pool's type: allocated outside";
    case Compromise::pool_unknown: return "pool not live here: default pools used";
    case Compromise::pool_type_unrecorded: return "pool memory type not described by the recording";
    case Compromise::buffer_adjusted: return "buffer create-info adjusted (flags, usage, sharing mode)";
    case Compromise::image_adjusted: return "image create-info adjusted (flags, usage, extent, mips, layers, samples)";
    case Compromise::image_unsupported: return "image not possible here: plain memory of its estimated size";
    case Compromise::alignment_rounded: return "recorded alignment not a power of two: rounded up";
    case Compromise::recorded_requirements: return "vmaAllocateMemory*: recorded size and alignment used";
  }
  return "?";
}

vk::DeviceOptions replay_device_options() {
  vk::DeviceOptions o;
  o.extensions = {VK_KHR_GET_MEMORY_REQUIREMENTS_2_EXTENSION_NAME, VK_KHR_DEDICATED_ALLOCATION_EXTENSION_NAME,
                  VK_KHR_BIND_MEMORY_2_EXTENSION_NAME, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME};
  o.features.enable("vulkan12.bufferDeviceAddress");
  o.queue_flags = VK_QUEUE_TRANSFER_BIT;
  return o;
}

namespace detail {

std::string hex(std::uint64_t p) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llX", static_cast<unsigned long long>(p));
  return buf;
}

namespace {

std::uint64_t macro(const Config& c, const char* name, std::uint64_t fallback) {
  auto it = c.macros.find(name);
  if (it == c.macros.end()) return fallback;
  std::uint64_t v = 0;
  const auto r = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  return r.ec == std::errc() ? v : fallback;
}

vk::AllocatorSettings settings_from(const Config& c, const ReplayOptions& opt) {
  vk::AllocatorSettings s;
  s.large_heap_block_size =
      std::max<std::uint64_t>(macro(c, "VMA_DEFAULT_LARGE_HEAP_BLOCK_SIZE", s.large_heap_block_size), 1);
  s.small_heap_max = macro(c, "VMA_SMALL_HEAP_MAX_SIZE", s.small_heap_max);
  s.min_alignment = macro(c, "VMA_MIN_ALIGNMENT", macro(c, "VMA_DEBUG_ALIGNMENT", 1));
  if (!alloc::is_pow2(s.min_alignment) || s.min_alignment > (1ull << 20)) s.min_alignment = 1;
  s.min_granularity = macro(c, "VMA_DEBUG_MIN_BUFFER_IMAGE_GRANULARITY", 1);
  if (!alloc::is_pow2(s.min_granularity) || s.min_granularity > (1ull << 20)) s.min_granularity = 1;
  s.always_dedicated = macro(c, "VMA_DEBUG_ALWAYS_DEDICATED_MEMORY", 0) != 0;
  s.debug_margin = std::min<std::uint64_t>(macro(c, "VMA_DEBUG_MARGIN", 0), alloc::kMaxDebugMargin);
  s.enforce_heap_budget = opt.enforce_heap_budget;
  // A pool's minBlockCount could otherwise ask this device for millions of
  // objects that the recorded device could never have had.
  std::uint64_t recorded = 0;
  if (auto it = c.limits.find("maxMemoryAllocationCount"); it != c.limits.end())
    std::from_chars(it->second.data(), it->second.data() + it->second.size(), recorded);
  for (std::uint64_t limit : {recorded, opt.max_memory_objects})
    if (limit) s.max_memory_objects = s.max_memory_objects ? std::min(s.max_memory_objects, limit) : limit;
  return s;
}

}  // namespace

Replayer::Replayer(const Header& header, const std::string& name, const vk::Device& device, const ReplayOptions& opt,
                   ReplayResult& r)
    : dev_(device),
      opt_(opt),
      r_(r),
      name_(name),
      types_(header.config, device),
      alloc_(device, settings_from(header.config, opt)) {
  const auto names = device.enabled_features().names();
  device_address_ = std::find(names.begin(), names.end(), "vulkan12.bufferDeviceAddress") != names.end();
  r_.device_differences = device_differences(header.config, device);
}

Replayer::~Replayer() {
  if (!finished_) finish();
}

void Replayer::warn(const Call& c, const std::string& why) {
  ++r_.warnings;
  if (opt_.warnings && printed_warnings_++ < opt_.max_warnings)
    opt_.warnings(name_ + ": line " + std::to_string(c.line), why);
}

Live* Replayer::find(const Call& c, std::uint64_t ptr) {
  if (!ptr) return nullptr;
  auto it = live_.find(ptr);
  if (it != live_.end()) return &it->second;
  ++r_.unknown_objects;
  warn(c, std::string(function_name(c.function)) + ": allocation " + hex(ptr) + " not found");
  return nullptr;
}

void Replayer::call(const Call& c) {
  ++r_.calls;
  if (c.line < opt_.first_line || c.line > opt_.last_line) return;
  ++r_.replayed_calls;
  ++per_thread_[c.thread];
  if (r_.replayed_calls == 1) first_time_ = c.time;
  last_time_ = c.time;
  const auto t0 = std::chrono::steady_clock::now();
  dispatch(c);
  FunctionStats& f = r_.functions[static_cast<std::size_t>(c.function)];
  ++f.calls;
  f.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void Replayer::dispatch(const Call& c) {
  const auto& n = c.num;
  auto& ops = r_.ops;
  switch (c.function) {
    case Function::CreatePool: return create_pool(c);
    case Function::DestroyPool: return destroy_pool(c);
    case Function::CreateBuffer: return create_buffer(c);
    case Function::CreateImage: return create_image(c);
    case Function::AllocateMemory: return allocate_memory(c, alloc::Kind::unknown);
    case Function::AllocateMemoryForBuffer: return allocate_memory(c, alloc::Kind::buffer);
    case Function::AllocateMemoryForImage: return allocate_memory(c, alloc::Kind::image_unknown);
    case Function::AllocateMemoryPages: return allocate_pages(c);
    case Function::CreateLostAllocation:
      if (!n[0]) {
        ++r_.originally_failed;
        return;
      }
      ++r_.lost_allocations;
      {
        Live l;
        l.a = alloc_.create_lost();
        return outcome(c, n[0], l, vk::Failure::none);
      }
    case Function::DestroyBuffer:
    case Function::DestroyImage:
    case Function::FreeMemory: return free_allocation(c, n[0]);
    case Function::FreeMemoryPages:
      for (std::uint64_t p : c.lists[0]) free_allocation(c, p);
      return;
    case Function::MapMemory:
      if (Live* l = find(c, n[0]); l && l->a) {
        if (alloc_.map(l->a) == vk::MapResult::ok)
          ++ops.maps;
        else
          ++ops.map_failures;
      }
      return;
    case Function::UnmapMemory:
      if (Live* l = find(c, n[0]); l && l->a) {
        if (alloc_.unmap(l->a))
          ++ops.unmaps;
        else
          ++ops.unmatched_unmaps;
      }
      return;
    case Function::FlushAllocation:
    case Function::InvalidateAllocation:
      if (Live* l = find(c, n[0]); l && l->a) {
        const bool inv = c.function == Function::InvalidateAllocation;
        const vk::SyncResult s = alloc_.sync(l->a, n[1], n[2], inv);
        if (s == vk::SyncResult::done)
          ++(inv ? ops.invalidates : ops.flushes);
        else if (s == vk::SyncResult::not_mapped)
          ++ops.syncs_unmapped;
      }
      return;
    case Function::TouchAllocation:
    case Function::GetAllocationInfo:
      if (Live* l = find(c, n[0]); l && l->a) {
        ++ops.touches;
        if (!alloc_.touch(l->a, c.frame)) ++ops.touches_lost;
      }
      return;
    case Function::MakePoolAllocationsLost:
      if (auto it = pools_.find(n[0]); it != pools_.end()) {
        if (it->second.pool) ops.made_lost += alloc_.make_lost(it->second.pool, c.frame);
      } else {
        ++r_.unknown_objects;
        warn(c, "vmaMakePoolAllocationsLost: pool " + hex(n[0]) + " not found");
      }
      return;
    case Function::ResizeAllocation:
      if (Live* l = find(c, n[0]); l && l->a) {
        ++ops.resizes;
        if (!alloc_.resize(l->a, n[1])) ++ops.resize_failures;
      }
      return;
    case Function::DefragmentationBegin: return defragment(c);
    case Function::DefragmentationEnd:
      if (n[0] && !contexts_.erase(n[0])) {
        ++r_.unknown_objects;
        warn(c, "vmaDefragmentationEnd: context " + hex(n[0]) + " not found");
      }
      return;
    case Function::CreateAllocator:
    case Function::DestroyAllocator:
    case Function::SetAllocationUserData:
    case Function::SetPoolName: return;  // nothing for memory
  }
}

void Replayer::create_pool(const Call& c) {
  const auto& n = c.num;
  const std::uint64_t ptr = n.back();
  if (!ptr) {
    ++r_.originally_failed;
    return;
  }
  ++r_.pools;
  PoolState ps;
  const std::uint64_t rt = n[0];
  int type = -1;
  if (rt < types_.recorded_type_count()) {
    ps.recorded_type = static_cast<int>(rt);
    // A pool's type must keep host access if the recorded one had it.
    type =
        types_
            .choose(ps.recorded_type, 0, types_.recorded_flags(ps.recorded_type) & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                    0, types_.all_types())
            .type;
  } else {
    compromise(Compromise::pool_type_unrecorded);
    type = rt < 32 && (types_.all_types() & (1u << rt)) ? static_cast<int>(rt)
                                                        : types_.choose(-1, 1, 0, 0, types_.all_types()).type;
  }
  const std::uint32_t frame_in_use = n.size() == 7 ? static_cast<std::uint32_t>(n[5]) : 0;
  vk::Failure why = vk::Failure::none;
  if (type >= 0)
    ps.pool = alloc_.create_pool(static_cast<std::uint32_t>(type), n[1], n[2], n[3], n[4], frame_in_use, why);
  if (!ps.pool) {
    ++r_.pool_failures;
    warn(c, "vmaCreatePool failed here (" +
                std::string(vk::failure_name(type < 0 ? vk::Failure::no_memory_type : why)) +
                "), while it succeeded in the recording");
  }
  auto [it, fresh] = pools_.try_emplace(ptr, ps);
  if (!fresh) {
    warn(c, "pool " + hex(ptr) + " created again while live; the old one is destroyed");
    drop_pool(it->second.pool);
    it->second = ps;
  }
}

void Replayer::destroy_pool(const Call& c) {
  auto it = pools_.find(c.num[0]);
  if (it == pools_.end()) {
    if (c.num[0]) {
      ++r_.unknown_objects;
      warn(c, "vmaDestroyPool: pool " + hex(c.num[0]) + " not found");
    }
    return;
  }
  drop_pool(it->second.pool);
  pools_.erase(it);
}

void Replayer::drop_pool(vk::Pool* p) {
  if (!p) return;
  // Allocations still in the pool go with it (VMA would assert).
  for (auto& [ptr, l] : live_)
    if (l.a && l.a->pool == p) destroy(l);
  alloc_.destroy_pool(p);
}

void Replayer::free_allocation(const Call& c, std::uint64_t ptr) {
  if (!ptr) return;  // vmaDestroyBuffer(buffer, null): nothing allocated
  auto it = live_.find(ptr);
  if (it == live_.end()) {
    find(c, ptr);  // counts and warns
    return;
  }
  destroy(it->second);
  live_.erase(it);
}

void Replayer::defragment(const Call& c) {
  // flags, allocations, pools, maxCpuBytes, maxCpuAllocations, maxGpuBytes,
  // maxGpuAllocations, commandBuffer, context.
  const auto& n = c.num;
  ++r_.ops.defragmentations;
  std::vector<vk::Allocation*> allocations;
  std::vector<vk::Pool*> pools;
  for (std::uint64_t p : c.lists[0])
    if (Live* l = find(c, p); l && l->a) allocations.push_back(l->a);
  for (std::uint64_t p : c.lists[1]) {
    auto it = pools_.find(p);
    if (it == pools_.end()) {
      ++r_.unknown_objects;
      warn(c, "vmaDefragmentationBegin: pool " + hex(p) + " not found");
    } else if (it->second.pool) {
      pools.push_back(it->second.pool);
    }
  }
  vk::DefragLimits limits;
  limits.max_bytes = n[1];
  limits.max_allocations = n[2];
  // GPU moves need the command buffer the application passed.
  limits.max_gpu_bytes = n[5] ? n[3] : 0;
  limits.max_gpu_allocations = n[5] ? n[4] : 0;
  const vk::DefragStats st = alloc_.defragment(allocations, pools, limits, [&](vk::Allocation& a) { rebind(a); });
  r_.ops.defrag_moves += st.allocations_moved;
  r_.ops.defrag_bytes_moved += st.bytes_moved;
  r_.ops.defrag_blocks_freed += st.blocks_freed;
  if (n[6]) contexts_.insert(n[6]);
}

void Replayer::finish() {
  finished_ = true;
  for (auto& [ptr, l] : live_) {
    ++r_.leaked_allocations;
    if (l.a && !l.a->lost) r_.leaked_bytes += l.a->size;
    destroy(l);
  }
  live_.clear();
  for (auto& [ptr, ps] : pools_) {
    ++r_.leaked_pools;
    if (ps.pool) alloc_.destroy_pool(ps.pool);
  }
  pools_.clear();
  r_.leaked_defrag_contexts = contexts_.size();
  if (printed_warnings_ > opt_.max_warnings && opt_.warnings)
    opt_.warnings(name_, std::to_string(printed_warnings_ - opt_.max_warnings) + " more warnings not shown");
  r_.heaps = alloc_.heaps();
  r_.total = alloc_.total();
  r_.device_allocations = alloc_.device_allocations();
  r_.mappings = types_.mappings();
  r_.threads = per_thread_.size();
  r_.busiest_thread_percent = busiest_thread_percent(per_thread_, r_.replayed_calls);
  r_.recording_time = last_time_;
  r_.duration = last_time_ - first_time_;
}

}  // namespace detail

ReplayResult replay(std::unique_ptr<Decoder> decoder, const std::string& name, const vk::Device& device,
                    const ReplayOptions& opt) {
  ReplayResult r;
  const auto& props = device.info().properties;
  r.device_name = props.deviceName;
  r.device_type = std::string(vk::device_type_name(props.deviceType));
  r.driver = device.info().driver_info.empty() ? device.info().driver_name
                                               : device.info().driver_name + " " + device.info().driver_info;
  r.api_version = props.apiVersion;
  r.vendor_id = props.vendorID;
  r.device_id = props.deviceID;
  const auto& mem = device.memory();
  r.device_heaps.assign(mem.memoryHeaps, mem.memoryHeaps + mem.memoryHeapCount);
  r.device_types.assign(mem.memoryTypes, mem.memoryTypes + mem.memoryTypeCount);

  ReaderOptions ro;
  ro.keep_going = opt.keep_going;
  ro.warnings = opt.warnings;
  Reader reader(std::move(decoder), name, ro);
  r.version = reader.header().version;
  const auto start = std::chrono::steady_clock::now();
  {
    detail::Replayer replayer(reader.header(), name, device, opt, r);
    try {
      while (const Call* call = reader.next()) replayer.call(*call);
    } catch (const Error& e) {
      r.error = e;
    }
    replayer.finish();
  }
  r.playback_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.warnings += reader.warnings();
  return r;
}

}  // namespace libtrace::vma
