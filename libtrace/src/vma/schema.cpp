// SPDX-License-Identifier: MIT
// Every recorded function's columns and the spec's parameter names, and the
// lookup of function names.
#include "vma/schema.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>

namespace libtrace::vma {

namespace detail {

namespace {

const std::vector<Schema>& schemas() {
  static const std::vector<Schema> table = [] {
    const Version v10{1, 0}, v11{1, 1}, v12{1, 2}, v14{1, 4}, v15{1, 5}, v17{1, 7}, v18{1, 8};
    std::vector<Schema> t = {
        {Function::CreateAllocator, "vmaCreateAllocator", v10, v18},
        {Function::DestroyAllocator, "vmaDestroyAllocator", v10, v18},
        {Function::CreatePool, "vmaCreatePool", v10, v18},
        {Function::DestroyPool, "vmaDestroyPool", v10, v18},
        {Function::SetAllocationUserData, "vmaSetAllocationUserData", v10, v18},
        {Function::CreateBuffer, "vmaCreateBuffer", v10, v18},
        {Function::DestroyBuffer, "vmaDestroyBuffer", v10, v18},
        {Function::CreateImage, "vmaCreateImage", v10, v18},
        {Function::DestroyImage, "vmaDestroyImage", v10, v18},
        {Function::FreeMemory, "vmaFreeMemory", v11, v18},
        {Function::FreeMemoryPages, "vmaFreeMemoryPages", v15, v18},
        {Function::CreateLostAllocation, "vmaCreateLostAllocation", v12, v18},
        {Function::AllocateMemory, "vmaAllocateMemory", v12, v18},
        {Function::AllocateMemoryPages, "vmaAllocateMemoryPages", v15, v18},
        {Function::AllocateMemoryForBuffer, "vmaAllocateMemoryForBuffer", v12, v18},
        {Function::AllocateMemoryForImage, "vmaAllocateMemoryForImage", v12, v18},
        {Function::MapMemory, "vmaMapMemory", v12, v18},
        {Function::UnmapMemory, "vmaUnmapMemory", v12, v18},
        {Function::FlushAllocation, "vmaFlushAllocation", v12, v18},
        {Function::InvalidateAllocation, "vmaInvalidateAllocation", v12, v18},
        {Function::TouchAllocation, "vmaTouchAllocation", v12, v18},
        {Function::GetAllocationInfo, "vmaGetAllocationInfo", v12, v18},
        {Function::MakePoolAllocationsLost, "vmaMakePoolAllocationsLost", v12, v18},
        {Function::ResizeAllocation, "vmaResizeAllocation", v14, v15},
        {Function::DefragmentationBegin, "vmaDefragmentationBegin", v15, v18},
        {Function::DefragmentationEnd, "vmaDefragmentationEnd", v15, v18},
        {Function::SetPoolName, "vmaSetPoolName", v17, v18},
    };
    const std::vector<std::string_view> aci_names = {
        "allocationCreateInfo.flags",          "allocationCreateInfo.usage",
        "allocationCreateInfo.requiredFlags",  "allocationCreateInfo.preferredFlags",
        "allocationCreateInfo.memoryTypeBits", "allocationCreateInfo.pool"};
    auto names = [](std::vector<std::string_view> a, const std::vector<std::string_view>& b,
                    std::vector<std::string_view> c) {
      a.insert(a.end(), b.begin(), b.end());
      a.insert(a.end(), c.begin(), c.end());
      return a;
    };
    const std::vector<std::string_view> mem_req = {"vkMemoryRequirements.size", "vkMemoryRequirements.alignment",
                                                   "vkMemoryRequirements.memoryTypeBits"};
    for (Schema& x : t) {
      switch (x.function) {
        case Function::CreatePool:
          x.arg_names = {"memoryTypeIndex", "flags",           "blockSize", "minBlockCount",
                         "maxBlockCount",   "frameInUseCount", "pool"};
          break;
        case Function::DestroyPool:
        case Function::MakePoolAllocationsLost: x.arg_names = {"pool"}; break;
        case Function::SetAllocationUserData: x.arg_names = {"allocation", "pUserData"}; break;
        case Function::CreateBuffer:
          x.arg_names = names({"bufferCreateInfo.flags", "bufferCreateInfo.size", "bufferCreateInfo.usage",
                               "bufferCreateInfo.sharingMode"},
                              aci_names, {"allocation", "allocationCreateInfo.pUserData"});
          break;
        case Function::CreateImage:
          x.arg_names = names({"imageCreateInfo.flags", "imageCreateInfo.imageType", "imageCreateInfo.format",
                               "imageCreateInfo.extent.width", "imageCreateInfo.extent.height",
                               "imageCreateInfo.extent.depth", "imageCreateInfo.mipLevels",
                               "imageCreateInfo.arrayLayers", "imageCreateInfo.samples", "imageCreateInfo.tiling",
                               "imageCreateInfo.usage", "imageCreateInfo.sharingMode", "imageCreateInfo.initialLayout"},
                              aci_names, {"allocation", "allocationCreateInfo.pUserData"});
          break;
        case Function::FreeMemoryPages: x.arg_names = {"allocations"}; break;
        case Function::AllocateMemory:
          x.arg_names = names(mem_req, aci_names, {"allocation", "allocationCreateInfo.pUserData"});
          break;
        case Function::AllocateMemoryPages:
          x.arg_names = names(mem_req, aci_names, {"allocations", "allocationCreateInfo.pUserData"});
          break;
        case Function::AllocateMemoryForBuffer:
        case Function::AllocateMemoryForImage: {
          auto m = mem_req;
          m.push_back("requiresDedicatedAllocation");
          m.push_back("prefersDedicatedAllocation");
          x.arg_names = names(m, aci_names, {"allocation", "allocationCreateInfo.pUserData"});
          break;
        }
        case Function::FlushAllocation:
        case Function::InvalidateAllocation: x.arg_names = {"allocation", "offset", "size"}; break;
        case Function::ResizeAllocation: x.arg_names = {"allocation", "newSize"}; break;
        case Function::DefragmentationBegin:
          x.arg_names = {"defragmentationInfo2.flags",
                         "defragmentationInfo2.pAllocations",
                         "defragmentationInfo2.pPools",
                         "defragmentationInfo2.maxCpuBytesToMove",
                         "defragmentationInfo2.maxCpuAllocationsToMove",
                         "defragmentationInfo2.maxGpuBytesToMove",
                         "defragmentationInfo2.maxGpuAllocationsToMove",
                         "defragmentationInfo2.commandBuffer",
                         "context"};
          break;
        case Function::DefragmentationEnd: x.arg_names = {"context"}; break;
        case Function::SetPoolName: x.arg_names = {"pool", "pName"}; break;
        case Function::CreateAllocator:
        case Function::DestroyAllocator: break;
        default: x.arg_names = {"allocation"}; break;
      }
    }
    for (Schema& x : t) {
      const ColList l = columns(x.function);
      x.cols.assign(l.c, l.c + l.n);
      for (Col c : x.cols) {
        if (c == Col::ptr_list)
          ++x.lists;
        else if (c != Col::text)
          ++x.numbers;
      }
      if (x.numbers > kMaxNumbers || x.lists > kMaxLists) std::abort();  // a table edit broke LineCall
    }
    std::sort(t.begin(), t.end(), [](const Schema& a, const Schema& b) { return a.function < b.function; });
    return t;
  }();
  return table;
}

// Where a name of n bytes (12 to 32) is compared, 8 bytes at a time: its two
// ends, and for names over 16 bytes its middle (the loads overlap).
std::array<std::uint8_t, 4> word_offsets(std::size_t n) {
  auto at = [](std::size_t i) { return static_cast<std::uint8_t>(i); };
  return {0, at(n - 8), at(n > 16 ? 8 : 0), at(n > 16 ? n - 16 : 0)};
}

}  // namespace

const Schema& schema(Function f) { return schemas()[static_cast<std::size_t>(f)]; }

const NameTable& name_table() {
  static const NameTable table = [] {
    NameTable t;
    for (const Schema& s : schemas()) {
      auto& slot = t.slots[name_slot(load8(s.name.data() + 3))];
      NameEntry& e = *std::find_if(slot.begin(), slot.end(), [](const NameEntry& x) { return !x.match.size; });
      e.at = word_offsets(s.name.size());
      for (std::size_t i = 0; i < e.at.size(); ++i) e.words[i] = load8(s.name.data() + e.at[i]);
      e.match = {s.function, static_cast<std::uint32_t>(s.name.size()), s.first, s.last};
    }
    return t;
  }();
  return table;
}

const Schema* match_function(const char* p, const char* end) {
  const NameMatch* m = match_name(p, end, name_table());
  return m ? &schema(m->function) : nullptr;
}

}  // namespace detail

using detail::Col;
using detail::Schema;
using detail::schema;

std::string_view function_name(Function f) { return schema(f).name; }

std::optional<Function> function_from_name(std::string_view name) {
  const Schema* s = detail::match_function(name.data(), name.data() + name.size());
  if (!s || s->name.size() != name.size()) return std::nullopt;
  return s->function;
}

std::pair<Version, Version> function_versions(Function f) { return {schema(f).first, schema(f).last}; }

std::vector<Param> params(const Call& call) {
  const Schema& s = schema(call.function);
  const bool six_column_pool = call.function == Function::CreatePool && call.num.size() == 6;
  std::vector<Param> out;
  std::size_t n = 0, l = 0;
  for (std::size_t i = 0; i < s.cols.size(); ++i) {
    if (six_column_pool && i == 5) continue;  // no frameInUseCount
    Param p;
    p.name = s.arg_names[i];
    switch (s.cols[i]) {
      case Col::u32:
      case Col::u64:
        p.kind = ParamKind::number;
        p.value = call.num[n++];
        break;
      case Col::boolean:
        p.kind = ParamKind::boolean;
        p.value = call.num[n++];
        break;
      case Col::ptr:
        p.kind = ParamKind::pointer;
        p.value = call.num[n++];
        break;
      case Col::ptr_list:
        p.kind = ParamKind::pointer_list;
        p.list = &call.lists[l++];
        break;
      case Col::text:
        if (!call.has_text) return out;
        p.kind = ParamKind::text;
        break;
    }
    out.push_back(p);
  }
  return out;
}

}  // namespace libtrace::vma
