// SPDX-License-Identifier: MIT
// VkPipelineCache blobs as files: the version-one header that says which
// device made them, and writing through a temporary renamed into place.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace libtrace::foz::detail {

// VkPipelineCacheHeaderVersionOne, read little-endian.
struct CacheHeader {
  std::uint32_t header_size = 0;
  std::uint32_t header_version = 0;
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  std::array<std::uint8_t, 16> uuid{};
};

// The header of a blob; nullopt with `why` set when the blob is too short or
// its header is not a version-one header.
std::optional<CacheHeader> parse_cache_header(std::span<const std::uint8_t> blob, std::string& why);

// "" when a blob with header `h` was made by this device (vendor, device and
// pipelineCacheUUID all equal), else a sentence saying what differs.
std::string cache_mismatch(const CacheHeader& h, std::uint32_t vendor_id, std::uint32_t device_id,
                           const std::uint8_t (&uuid)[16]);

// "8-4-4-4-12" lowercase hex.
std::string uuid_string(const std::uint8_t* uuid);

// Whole-file read (Error(io) naming the file).
std::vector<std::uint8_t> read_file_bytes(const std::string& path);
// Writes through a temporary next to `path` and renames it into place.
void write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes);

}  // namespace libtrace::foz::detail
