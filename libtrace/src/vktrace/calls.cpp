// SPDX-License-Identifier: MIT
#include "vktrace/calls.hpp"

#include "registry/registry.hpp"

namespace libtrace::vktrace {

namespace {

constexpr const char* kPhysicalDeviceArgs[] = {"physicalDevice", "properties", "memoryProperties", "memoryTypes"};
constexpr const char* kUpdateArgs[] = {"device", "object", "runs"};
constexpr const char* kSnapshotArgs[] = {"queue", "frame", "file"};
constexpr const char* kRunMembers[] = {"offset", "data"};
constexpr const char* kImageContentsArgs[] = {"device", "image", "layout", "parts"};
constexpr const char* kCopyArgs[] = {"device", "source", "object", "regions"};
constexpr const char* kPartMembers[] = {"aspectMask", "mipLevel", "arrayLayer", "width", "height", "depth", "data"};

// In OwnCall's order.
const OwnSignature kCalls[] = {
    {"trakPhysicalDevice", kPhysicalDeviceArgs},
    {"trakUpdateBuffer", kUpdateArgs},
    {"trakUpdateImage", kUpdateArgs},
    {"trakSnapshot", kSnapshotArgs},
    {"trakImageContents", kImageContentsArgs},
    {"trakCopyBuffer", kCopyArgs},
};
const OwnSignature kStructs[] = {
    {"trakUpdateRun", kRunMembers},
    {"trakImagePart", kPartMembers},
};

constexpr std::string_view kPrefix = "trak";

}  // namespace

const OwnSignature& signature(OwnCall c) { return kCalls[static_cast<std::size_t>(c)]; }
const OwnSignature& signature(OwnStruct s) { return kStructs[static_cast<std::size_t>(s)]; }

std::uint32_t signature_id(OwnCall c) {
  return static_cast<std::uint32_t>(registry::commands().size()) + static_cast<std::uint32_t>(c);
}
std::uint32_t signature_id(OwnStruct s) {
  return static_cast<std::uint32_t>(registry::structs().size()) + static_cast<std::uint32_t>(s);
}

std::optional<OwnCall> find_own_call(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kCalls); ++i)
    if (kCalls[i].name == name) return static_cast<OwnCall>(i);
  return std::nullopt;
}

bool is_own_name(std::string_view name) { return name.substr(0, kPrefix.size()) == kPrefix; }

}  // namespace libtrace::vktrace
