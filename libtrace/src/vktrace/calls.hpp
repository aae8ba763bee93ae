// SPDX-License-Identifier: MIT
// trak's own calls in a Vulkan trace: what the capture must tell a replay
// that no Vulkan command carries (the captured device's memory, the host's
// writes into mapped memory, the snapshots it took). They are apitrace fake
// calls (the stream's call flags say so: grammar::kWireFake), named `trak*`
// and listed with their arguments here, for the writer and the reader alike;
// FORMAT.md describes them for everyone else.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace libtrace::vktrace {

// The order is the order of their signature ids in a stream (after the
// registry's commands): a capture's bytes depend on it.
enum class OwnCall : std::uint8_t {
  physical_device,  // trakPhysicalDevice: before vkCreateDevice
  update_buffer,    // trakUpdateBuffer: host writes into a buffer's memory
  update_image,     // trakUpdateImage: the same for a linear image
  snapshot,         // trakSnapshot: a frame the capture saved as a PNG
  image_contents,   // trakImageContents: an image's texels where a trimmed capture starts
  copy_buffer,      // trakCopyBuffer: a buffer's bytes that another buffer of the stream already has
};
// Their arguments, by position.
enum PhysicalDeviceArg : std::uint32_t {
  kPhysicalDevice,    // the VkPhysicalDevice handle
  kDeviceProperties,  // VkPhysicalDeviceProperties
  kMemoryProperties,  // VkPhysicalDeviceMemoryProperties: the real types
  kMemoryTypes,       // per type the application saw, the real type it stands for
};
enum UpdateArg : std::uint32_t {
  kUpdateDevice,  // the VkDevice
  kUpdateObject,  // the VkBuffer or VkImage
  kUpdateRuns,    // an array of trakUpdateRun
};
enum SnapshotArg : std::uint32_t {
  kSnapshotQueue,  // the VkQueue presented on
  kSnapshotFrame,  // the frame, from 1
  kSnapshotFile,   // the PNG's name in the snapshot folder
};

enum ImageContentsArg : std::uint32_t {
  kContentsDevice,  // the VkDevice
  kContentsImage,   // the VkImage
  kContentsLayout,  // the VkImageLayout it is in afterwards
  kContentsParts,   // an array of trakImagePart
};

enum CopyArg : std::uint32_t {
  kCopyDevice,   // the VkDevice
  kCopySource,   // the VkBuffer whose bytes the stream has
  kCopyObject,   // the VkBuffer they are copied into
  kCopyRegions,  // an array of VkBufferCopy
};

// trak's own structs, with signature ids after the registry's structs.
enum class OwnStruct : std::uint8_t {
  update_run,  // trakUpdateRun: bytes the host wrote, at an offset into the object
  image_part,  // trakImagePart: one subresource's texels, packed as vkCmdCopyImageToBuffer packs them
};
enum UpdateRunMember : std::uint32_t {
  kRunOffset,  // from the object's start
  kRunData,    // a blob
};
enum ImagePartMember : std::uint32_t {
  kPartAspect,  // one VkImageAspectFlagBits, as a uint
  kPartMip,
  kPartLayer,
  kPartWidth,  // the mip level's extent, in texels
  kPartHeight,
  kPartDepth,
  kPartData,  // a blob: rows and slices tightly packed, in texel blocks
};

struct OwnSignature {
  std::string_view name;
  std::span<const char* const> members;  // argument or member names
};
const OwnSignature& signature(OwnCall c);
const OwnSignature& signature(OwnStruct s);

// The signature ids a stream gives them.
std::uint32_t signature_id(OwnCall c);
std::uint32_t signature_id(OwnStruct s);

// Which of trak's calls `name` is. A name of trak's (is_own_name) that is
// not one of these comes from a newer trak: a reader leaves it out.
std::optional<OwnCall> find_own_call(std::string_view name);
bool is_own_name(std::string_view name);

}  // namespace libtrace::vktrace
