// SPDX-License-Identifier: MIT
// Feature sets: which VkBool32 flags a caller wants, looked up by name in the
// core structs, queried from a device and intersected with what it has.
#include <algorithm>
#include <cstring>
#include <span>
#include <string_view>

#include "libtrace/vk/device.hpp"
#include "registry/registry.hpp"

namespace libtrace::vk {

namespace {

// The feature structs looked up by name. Their VkBool32 members come from
// the registry (generated from vk.xml), so they follow the installed headers.
struct Known {
  VkStructureType stype;
  const char* prefix;  // for names() of flags that also exist elsewhere
  const char* type;
};
constexpr Known kKnown[] = {
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, "", "VkPhysicalDeviceFeatures"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, "vulkan11.", "VkPhysicalDeviceVulkan11Features"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, "vulkan12.", "VkPhysicalDeviceVulkan12Features"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, "vulkan13.", "VkPhysicalDeviceVulkan13Features"},
};
constexpr std::size_t kCoreCount = sizeof(VkPhysicalDeviceFeatures) / sizeof(VkBool32);

// A struct's feature flags: its members after sType and pNext.
std::span<const registry::Member> flags(const Known& k) {
  const std::span<const registry::Member> m = registry::find_struct(k.type)->members();
  std::size_t skip = 0;
  while (skip < m.size() && (m[skip].type == registry::Type::pnext || std::string_view(m[skip].name()) == "sType"))
    ++skip;
  return m.subspan(skip);
}

// Where the VkBool32 members start in every feature struct.
constexpr std::size_t kHeader = sizeof(VkBaseOutStructure);

const Known* known(VkStructureType s) {
  for (const Known& k : kKnown)
    if (k.stype == s) return &k;
  return nullptr;
}

// The device API version a struct needs to be chained into a query.
std::uint32_t needs_version(VkStructureType s) {
  switch (s) {
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: return VK_API_VERSION_1_2;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: return VK_API_VERSION_1_3;
    default: return 0;
  }
}

}  // namespace

Features::Struct& Features::slot(VkStructureType stype, std::size_t count) {
  if (structs_.empty())
    structs_.push_back({VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, std::vector<VkBool32>(kCoreCount)});
  for (Struct& s : structs_)
    if (s.stype == stype) {
      if (s.bools.size() < count) s.bools.resize(count);
      return s;
    }
  structs_.push_back({stype, std::vector<VkBool32>(count)});
  return structs_.back();
}

void Features::enable(std::string_view name) {
  std::string_view plain = name;
  std::string_view prefix;
  if (const auto dot = name.find('.'); dot != std::string_view::npos) {
    prefix = name.substr(0, dot + 1);
    plain = name.substr(dot + 1);
  }
  for (const Known& k : kKnown) {
    if (!prefix.empty() && prefix != k.prefix) continue;
    for (std::size_t i = 0; i < flags(k).size(); ++i)
      if (plain == flags(k)[i].name()) {
        slot(k.stype, flags(k).size()).bools[i] = VK_TRUE;
        return;
      }
  }
  throw Error(Errc::usage, "vulkan", "unknown device feature '" + std::string(name) + "'");
}

void Features::enable_struct(const void* vk_struct, std::size_t size) {
  if (size < kHeader) throw Error(Errc::usage, "vulkan", "a feature struct is at least sType and pNext");
  VkBaseInStructure base;
  std::memcpy(&base, vk_struct, sizeof base);
  std::size_t count = (size - kHeader) / sizeof(VkBool32);
  // sizeof includes tail padding, which is not a member.
  if (const Known* k = known(base.sType)) count = std::min(count, flags(*k).size());
  Struct& s = slot(base.sType, count);
  for (std::size_t i = 0; i < count; ++i) {
    VkBool32 b;
    std::memcpy(&b, static_cast<const char*>(vk_struct) + kHeader + i * sizeof b, sizeof b);
    if (b) s.bools[i] = VK_TRUE;
  }
}

void Features::enable_core(const VkPhysicalDeviceFeatures& f) {
  VkPhysicalDeviceFeatures2 f2{};
  f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  f2.features = f;
  enable_struct(f2);
}

bool Features::empty() const {
  for (const Struct& s : structs_)
    if (std::any_of(s.bools.begin(), s.bools.end(), [](VkBool32 b) { return b != VK_FALSE; })) return false;
  return true;
}

std::vector<std::string> Features::names() const {
  std::vector<std::string> out;
  for (const Struct& s : structs_) {
    const Known* k = known(s.stype);
    for (std::size_t i = 0; i < s.bools.size(); ++i) {
      if (!s.bools[i]) continue;
      if (k && i < flags(*k).size())
        out.push_back(std::string(k->prefix) + flags(*k)[i].name());
      else
        out.push_back("sType " + std::to_string(static_cast<std::uint32_t>(s.stype)) + " member " + std::to_string(i));
    }
  }
  return out;
}

Features Features::intersect(const Features& supported, std::vector<std::string>& missing) const {
  Features out, lacking;
  for (const Struct& s : structs_) {
    const Struct* have = nullptr;
    for (const Struct& t : supported.structs_)
      if (t.stype == s.stype) have = &t;
    Struct& o = out.slot(s.stype, s.bools.size());
    Struct& l = lacking.slot(s.stype, s.bools.size());
    for (std::size_t i = 0; i < s.bools.size(); ++i) {
      if (!s.bools[i]) continue;
      if (have && i < have->bools.size() && have->bools[i])
        o.bools[i] = VK_TRUE;
      else
        l.bools[i] = VK_TRUE;
    }
  }
  const auto names = lacking.names();
  missing.insert(missing.end(), names.begin(), names.end());
  return out;
}

Features Features::supported(const PhysicalDeviceInfo& dev, std::uint32_t instance_api, const Features& like) {
  Features out;
  out.slot(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, kCoreCount);
  const std::uint32_t api = std::min(instance_api, dev.properties.apiVersion);
  const bool has2 = api >= VK_API_VERSION_1_1 && vkGetPhysicalDeviceFeatures2;
  if (!has2) {
    VkPhysicalDeviceFeatures f{};
    vkGetPhysicalDeviceFeatures(dev.handle, &f);
    std::memcpy(out.structs_[0].bools.data(), &f, sizeof f);
    return out;
  }
  // One zeroed buffer per struct, chained, then copied back.
  std::vector<std::vector<std::uint64_t>> storage;
  std::vector<const Struct*> chained;
  for (const Struct& s : like.structs_) {
    if (s.stype == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) continue;
    if (api < needs_version(s.stype)) continue;
    storage.emplace_back((kHeader + s.bools.size() * sizeof(VkBool32) + 7) / 8 + 1, 0);
    chained.push_back(&s);
  }
  VkPhysicalDeviceFeatures2 f2{};
  f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  void** next = &f2.pNext;
  for (std::size_t i = 0; i < storage.size(); ++i) {
    auto* base = reinterpret_cast<VkBaseOutStructure*>(storage[i].data());
    base->sType = chained[i]->stype;
    *next = base;
    next = reinterpret_cast<void**>(&base->pNext);
  }
  vkGetPhysicalDeviceFeatures2(dev.handle, &f2);
  std::memcpy(out.structs_[0].bools.data(), &f2.features, sizeof f2.features);
  for (std::size_t i = 0; i < storage.size(); ++i) {
    Struct& s = out.slot(chained[i]->stype, chained[i]->bools.size());
    std::memcpy(s.bools.data(), reinterpret_cast<const char*>(storage[i].data()) + kHeader,
                s.bools.size() * sizeof(VkBool32));
  }
  return out;
}

}  // namespace libtrace::vk
