// SPDX-License-Identifier: MIT
// Every recorded function's columns and the spec's parameter names, and the
// lookup of function names.
#include "vma_schema.hpp"

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
        "allocationCreateInfo.flags",         "allocationCreateInfo.usage",
        "allocationCreateInfo.requiredFlags", "allocationCreateInfo.preferredFlags",
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
          x.arg_names = {"memoryTypeIndex", "flags", "blockSize", "minBlockCount", "maxBlockCount", "frameInUseCount", "pool"};
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
                               "imageCreateInfo.extent.depth", "imageCreateInfo.mipLevels", "imageCreateInfo.arrayLayers",
                               "imageCreateInfo.samples", "imageCreateInfo.tiling", "imageCreateInfo.usage",
                               "imageCreateInfo.sharingMode", "imageCreateInfo.initialLayout"},
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
          x.arg_names = {"defragmentationInfo2.flags", "defragmentationInfo2.pAllocations",
                         "defragmentationInfo2.pPools", "defragmentationInfo2.maxCpuBytesToMove",
                         "defragmentationInfo2.maxCpuAllocationsToMove", "defragmentationInfo2.maxGpuBytesToMove",
                         "defragmentationInfo2.maxGpuAllocationsToMove", "defragmentationInfo2.commandBuffer", "context"};
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
        if (c == Col::ptr_list) ++x.lists;
        else if (c != Col::text) ++x.numbers;
      }
      if (x.numbers > kMaxNumbers || x.lists > kMaxLists) std::abort();  // a table edit broke LineCall
    }
    std::sort(t.begin(), t.end(), [](const Schema& a, const Schema& b) { return a.function < b.function; });
    return t;
  }();
  return table;
}


// Names are told apart by the 8 bytes after "vma" (the shortest name has 12
// characters), mixed by a multiplication whose top bits index the table. Names
// sharing those bytes (vmaFreeMemory and vmaFreeMemoryPages, the four
// vmaAllocateMemory*, the two vmaDefragmentation*) share a slot and are
// compared in turn.
constexpr int kSlotBits = 6;
// Found by trying odd constants until the 22 distinct prefixes got distinct
// slots; the unit test of every name's round trip would fail otherwise.
constexpr std::uint64_t kNameMul = 0x144c2177516369ebull;
constexpr std::size_t kMaxPerSlot = 4;

std::uint64_t load8(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Where a name of n bytes (12 to 32) is compared, 8 bytes at a time: its two
// ends, and for names over 16 bytes its middle (the loads overlap).
std::array<std::size_t, 4> word_offsets(std::size_t n) {
  return {0, n - 8, n > 16 ? std::size_t{8} : std::size_t{0}, n > 16 ? n - 16 : 0};
}

std::size_t slot_of(std::uint64_t prefix) { return static_cast<std::size_t>((prefix * kNameMul) >> (64 - kSlotBits)); }

// A name's bytes at word_offsets() are kept in its slot: the lookup compares
// them without first following a pointer to the name (which made the
// function known, and the line's columns parsed, later).
struct NameEntry {
  std::array<std::uint64_t, 4> words{};
  NameMatch match;  // match.size 0: none
};

struct NameTable {
  std::array<std::array<NameEntry, kMaxPerSlot>, std::size_t{1} << kSlotBits> slots{};
};

const NameTable& name_table() {
  static const NameTable table = [] {
    NameTable t;
    for (const Schema& s : schemas()) {
      auto& slot = t.slots[slot_of(load8(s.name.data() + 3))];
      NameEntry& e = *std::find_if(slot.begin(), slot.end(), [](const NameEntry& x) { return !x.match.size; });
      const auto at = word_offsets(s.name.size());
      for (std::size_t i = 0; i < at.size(); ++i) e.words[i] = load8(s.name.data() + at[i]);
      e.match = {s.function, static_cast<std::uint32_t>(s.name.size()), s.first, s.last};
    }
    return t;
  }();
  return table;
}

}  // namespace

const Schema& schema(Function f) { return schemas()[static_cast<std::size_t>(f)]; }

const Schema* match_function(const char* p, const char* end) {
  const NameMatch* m = match_name(p, end);
  return m ? &schema(m->function) : nullptr;
}

const NameMatch* match_name(const char* p, const char* end) {
  const std::size_t avail = static_cast<std::size_t>(end - p);
  if (avail < 11) return nullptr;
  for (const NameEntry& e : name_table().slots[slot_of(load8(p + 3))]) {
    const std::size_t n = e.match.size;
    if (!n) return nullptr;
    if (n > avail) continue;
    const auto at = word_offsets(n);
    const bool same = (load8(p + at[0]) == e.words[0]) & (load8(p + at[1]) == e.words[1]) &
                      (load8(p + at[2]) == e.words[2]) & (load8(p + at[3]) == e.words[3]);
    if (same && (n == avail || p[n] == ',' || p[n] == '\n' || p[n] == '\r')) return &e.match;
  }
  return nullptr;
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
      case Col::u64: p.kind = ParamKind::number; p.value = call.num[n++]; break;
      case Col::boolean: p.kind = ParamKind::boolean; p.value = call.num[n++]; break;
      case Col::ptr: p.kind = ParamKind::pointer; p.value = call.num[n++]; break;
      case Col::ptr_list: p.kind = ParamKind::pointer_list; p.list = &call.lists[l++]; break;
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
