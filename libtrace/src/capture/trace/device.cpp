// SPDX-License-Identifier: MIT
#include "capture/trace/device.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_set>
#include <utility>

#include "capture/trace/encode.hpp"
#include "capture/trace/snapshot.hpp"
#include "capture/trace/trim.hpp"

namespace libtrace::capture::trace {

namespace {

// Granularity of the diff: a changed byte records the block around it;
// zeros are left out in blocks of this size too.
constexpr VkDeviceSize kBlock = 256;

constexpr VkMemoryPropertyFlags kHostFlags =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;

}  // namespace

void merge_runs(std::vector<Run>& runs) {
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.lo < b.lo; });
  std::size_t n = 0;
  for (const Run& r : runs) {
    if (n && r.lo <= runs[n - 1].hi)
      runs[n - 1].hi = std::max(runs[n - 1].hi, r.hi);
    else
      runs[n++] = r;
  }
  runs.resize(n);
}

std::vector<Run> nonzero_runs(const char* bytes, VkDeviceSize size) {
  std::vector<Run> runs;
  static const char zeros[kBlock] = {};
  for (VkDeviceSize x = 0; x < size; x += kBlock) {
    const VkDeviceSize n = std::min(kBlock, size - x);
    if (std::memcmp(bytes + x, zeros, n) == 0) continue;
    if (!runs.empty() && runs.back().hi == x)
      runs.back().hi = x + n;
    else
      runs.push_back({x, x + n});
  }
  return runs;
}

void write_update(Stream& s, VkDevice device, const Bound& b, VkDeviceSize object_offset, const std::vector<Run>& runs,
                  const char* shadow) {
  const std::uint32_t tid = Stream::thread_id();
  const auto serialize = [&](Event& e) {
    const bool image = b.image;
    begin_own_call(e, tid, image ? vktrace::OwnCall::update_image : vktrace::OwnCall::update_buffer);
    put_arg(e, vktrace::kUpdateDevice);
    put_pointer(e, reinterpret_cast<std::uintptr_t>(device));
    put_arg(e, vktrace::kUpdateObject);
    put_pointer(e, b.handle);
    put_arg(e, vktrace::kUpdateRuns);
    put_array(e, runs.size());
    for (const Run& r : runs) {
      put_own_struct(e, vktrace::OwnStruct::update_run);
      put_uint(e, r.lo - object_offset);
      put_blob(e, shadow + r.lo, r.hi - r.lo);
    }
    end_details(e);
  };
  Event e(s);
  serialize(e);
  s.commit(e, Stream::Kind::whole, serialize);
}

void write_copy(Stream& s, VkDevice device, std::uint64_t source, std::uint64_t object,
                const std::vector<VkBufferCopy>& regions) {
  static const registry::Struct* copy = registry::find_struct("VkBufferCopy");
  const std::uint32_t tid = Stream::thread_id();
  const auto serialize = [&](Event& e) {
    begin_own_call(e, tid, vktrace::OwnCall::copy_buffer);
    put_arg(e, vktrace::kCopyDevice);
    put_pointer(e, reinterpret_cast<std::uintptr_t>(device));
    put_arg(e, vktrace::kCopySource);
    put_pointer(e, source);
    put_arg(e, vktrace::kCopyObject);
    put_pointer(e, object);
    put_arg(e, vktrace::kCopyRegions);
    put_array(e, regions.size());
    for (const VkBufferCopy& r : regions) put_struct(e, *copy, &r);
    end_details(e);
  };
  Event e(s);
  serialize(e);
  s.commit(e, Stream::Kind::whole, serialize);
}

std::uint32_t VirtualTypes::shown_bits(std::uint32_t real_bits) const {
  std::uint32_t out = 0;
  for (std::uint32_t i = 0; i < to_real.size(); ++i)
    if (real_bits & (1u << to_real[i])) out |= 1u << i;
  return out;
}

const VirtualTypes& virtual_types(VkPhysicalDevice gpu, PFN_vkGetPhysicalDeviceMemoryProperties get) {
  static std::mutex mu;
  static auto* known = new std::unordered_map<VkPhysicalDevice, std::unique_ptr<VirtualTypes>>;
  const std::lock_guard lock(mu);
  auto& v = (*known)[gpu];
  if (v) return *v;
  v = std::make_unique<VirtualTypes>();
  get(gpu, &v->real);
  v->shown = v->real;
  for (std::uint32_t i = 0; i < v->real.memoryTypeCount; ++i) v->to_real.push_back(i);
  for (std::uint32_t i = 0; i < v->real.memoryTypeCount; ++i) {
    const VkMemoryType t = v->real.memoryTypes[i];
    const bool both = (t.propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
                      (t.propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    if (!both || v->shown.memoryTypeCount >= VK_MAX_MEMORY_TYPES) continue;
    v->shown.memoryTypes[i].propertyFlags &= ~kHostFlags;
    VkMemoryType host = t;
    host.propertyFlags &= ~VkMemoryPropertyFlags{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT};
    v->shown.memoryTypes[v->shown.memoryTypeCount++] = host;
    v->to_real.push_back(i);
  }
  return *v;
}

DeviceTrace::DeviceTrace(VkDevice d, VkPhysicalDevice g, const layer::DeviceTable& n, const VirtualTypes& t)
    : device(d), gpu(g), next(n), types(t) {
  if (Trim* trim = Trim::get()) trim->add(this);
}

DeviceTrace::~DeviceTrace() {
  if (Trim* trim = Trim::get()) trim->remove(this);
}

void DeviceTrace::touch(VkCommandBuffer cmd, const std::vector<Touched>& handles) {
  const std::lock_guard lock(mu);
  auto& t = commands[cmd].touched;
  for (const Touched& h : handles)
    if (h.handle != reinterpret_cast<std::uintptr_t>(cmd) && (t.empty() || t.back().handle != h.handle)) t.push_back(h);
}

void DeviceTrace::expand_locked(const Touched& t, std::vector<std::uint64_t>& objects, int depth) {
  switch (t.kind) {
    case Kind::buffer:
    case Kind::image: objects.push_back(t.handle); return;
    case Kind::image_view:
    case Kind::buffer_view:
      if (const auto v = view_of.find(t.handle); v != view_of.end()) objects.push_back(v->second);
      return;
    case Kind::descriptor_set:
      if (const auto s = set_contents.find(t.handle); s != set_contents.end() && depth < 2)
        for (const Touched& x : s->second) expand_locked(x, objects, depth + 1);
      return;
    case Kind::command_buffer:  // secondaries run by vkCmdExecuteCommands
      if (const auto c = commands.find(reinterpret_cast<VkCommandBuffer>(t.handle)); c != commands.end() && depth < 2)
        for (const Touched& x : c->second.touched) expand_locked(x, objects, depth + 1);
      return;
    case Kind::none: return;
  }
}

void DeviceTrace::record_host_writes(const std::vector<VkCommandBuffer>& submitted) {
  const std::lock_guard lock(mu);
  std::vector<std::uint64_t> objects(addressed.begin(), addressed.end());
  for (const VkCommandBuffer cmd : submitted)
    if (const auto c = commands.find(cmd); c != commands.end())
      for (const Touched& t : c->second.touched) expand_locked(t, objects, 0);
  std::sort(objects.begin(), objects.end());
  objects.erase(std::unique(objects.begin(), objects.end()), objects.end());
  // By memory, each object's entry in its memory's list.
  std::unordered_map<Memory*, std::vector<const std::pair<const VkDeviceSize, Bound>*>> by_memory;
  for (const std::uint64_t o : objects) {
    const auto at = bound_at.find(o);
    if (at == bound_at.end()) continue;
    const auto m = memories.find(at->second.first);
    if (m == memories.end() || (!m->second.mapped && m->second.owed.empty())) continue;
    auto [lo, hi] = m->second.objects.equal_range(at->second.second);
    for (auto it = lo; it != hi; ++it)
      if (it->second.handle == o) by_memory[&m->second].push_back(&*it);
  }
  for (auto& [m, objs] : by_memory) record_locked(*m, objs);
}

void DeviceTrace::record_host_writes() {
  const std::lock_guard lock(mu);
  for (auto& [handle, m] : memories) {
    std::vector<const std::pair<const VkDeviceSize, Bound>*> objs;
    for (const auto& o : m.objects) objs.push_back(&o);
    record_locked(m, objs);
  }
}

void DeviceTrace::record_host_writes(std::uint64_t memory) {
  const std::lock_guard lock(mu);
  const auto it = memories.find(memory);
  if (it == memories.end()) return;
  std::vector<const std::pair<const VkDeviceSize, Bound>*> objs;
  for (const auto& o : it->second.objects) objs.push_back(&o);
  record_locked(it->second, objs);
}

void DeviceTrace::record_locked(Memory& m, const std::vector<const std::pair<const VkDeviceSize, Bound>*>& objects) {
  Stream* const stream = Stream::get();
  if (!stream || objects.empty()) return;
  std::vector<Run> changed;
  if (m.mapped) {
    const VkDeviceSize map_lo = m.map_offset, map_hi = m.map_offset + m.map_size;
    // The ranges to diff, merged: objects that overlap (aliases, or a
    // buffer over the whole memory) are compared once.
    std::vector<Run> ranges;
    for (const auto* o : objects) {
      const VkDeviceSize lo = std::max(o->first, map_lo), hi = std::min(o->first + o->second.size, map_hi);
      if (lo < hi) ranges.push_back({lo, hi});
    }
    std::sort(ranges.begin(), ranges.end(), [](const Run& a, const Run& b) { return a.lo < b.lo; });
    VkDeviceSize done = 0;  // memory offsets below this were diffed
    for (const Run& r : ranges) {
      for (VkDeviceSize x = std::max(r.lo, done); x < r.hi; x += kBlock) {
        const VkDeviceSize n = std::min(kBlock, r.hi - x);
        const char* now = m.mapped + (x - map_lo);
        char* old = m.shadow.data() + x;
        if (std::memcmp(now, old, n) == 0) continue;
        std::memcpy(old, now, n);
        if (!changed.empty() && changed.back().hi == x)
          changed.back().hi = x + n;
        else
          changed.push_back({x, x + n});
      }
      done = std::max(done, r.hi);
    }
  }
  // Objects over the changed bytes that are not written now (aliases of
  // the submitted ones) are owed them.
  if (!changed.empty() && m.aliased && m.objects.size() > objects.size())
    for (const auto& o : m.objects) {
      const VkDeviceSize lo = o.first, hi = o.first + o.second.size;
      if (std::find(objects.begin(), objects.end(), &o) != objects.end()) continue;
      std::vector<Run>* owed = nullptr;
      for (const Run& c : changed)
        if (c.lo < hi && c.hi > lo) {
          if (!owed) owed = &m.owed[o.second.handle];
          owed->push_back({std::max(c.lo, lo), std::min(c.hi, hi)});
        }
      if (owed) merge_runs(*owed);
    }
  if (changed.empty() && m.owed.empty()) return;
  // Objects of this submit not written yet: until they are, the stream's
  // bytes of them are behind the shadow (only aliases read it).
  std::unordered_set<std::uint64_t> behind;
  if (m.aliased)
    for (const auto* o : objects) behind.insert(o->second.handle);
  std::vector<Run> runs;
  std::vector<VkBufferCopy> copies;
  for (const auto* o : objects) {
    const VkDeviceSize lo = o->first, hi = o->first + o->second.size;
    runs.clear();
    for (const Run& c : changed)
      if (c.lo < hi && c.hi > lo) runs.push_back({std::max(c.lo, lo), std::min(c.hi, hi)});
    if (const auto owed = m.owed.find(o->second.handle); owed != m.owed.end()) {
      runs.insert(runs.end(), owed->second.begin(), owed->second.end());
      m.owed.erase(owed);
      merge_runs(runs);
    }
    behind.erase(o->second.handle);
    if (runs.empty()) continue;
    // A buffer over the same bytes whose stream copy is up to date (an
    // alias; zink binds pairs of buffers to its upload rings) gives them by
    // a copy instead of their bytes again.
    const std::pair<const VkDeviceSize, Bound>* source = nullptr;
    if (!o->second.image && m.aliased)
      for (auto p = m.objects.begin(); p != m.objects.upper_bound(runs.front().lo) && !source; ++p)
        if (!p->second.image && p->second.handle != o->second.handle && p->first + p->second.size >= runs.back().hi &&
            !m.owed.count(p->second.handle) && !behind.count(p->second.handle))
          source = &*p;
    if (!source) {
      write_update(*stream, device, o->second, lo, runs, m.shadow.data());
      continue;
    }
    copies.clear();
    for (const Run& r : runs) copies.push_back({r.lo - source->first, r.lo - lo, r.hi - r.lo});
    write_copy(*stream, device, source->second.handle, o->second.handle, copies);
  }
}

}  // namespace libtrace::capture::trace
