// SPDX-License-Identifier: MIT
// Pipeline-cache blob headers and files.
#include "replay/foz/cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "libtrace/core/error.hpp"
#include "libtrace/core/io.hpp"

namespace libtrace::foz::detail {

namespace {

std::uint32_t le32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

}  // namespace

std::optional<CacheHeader> parse_cache_header(std::span<const std::uint8_t> blob, std::string& why) {
  constexpr std::size_t kSize = 32;  // sizeof(VkPipelineCacheHeaderVersionOne)
  if (blob.size() < kSize) {
    why = blob.empty() ? "empty file, not a pipeline cache"
                       : "only " + std::to_string(blob.size()) + " bytes: shorter than a pipeline cache header (32)";
    return std::nullopt;
  }
  CacheHeader h;
  h.header_size = le32(blob.data());
  h.header_version = le32(blob.data() + 4);
  h.vendor_id = le32(blob.data() + 8);
  h.device_id = le32(blob.data() + 12);
  for (std::size_t i = 0; i < 16; ++i) h.uuid[i] = blob[16 + i];
  if (h.header_version != 1) {
    why = "pipeline cache header version " + std::to_string(h.header_version) + " (only version 1 exists)";
    return std::nullopt;
  }
  if (h.header_size < kSize || h.header_size > blob.size()) {
    why = "pipeline cache header size " + std::to_string(h.header_size) + " does not fit a " +
          std::to_string(blob.size()) + "-byte file";
    return std::nullopt;
  }
  return h;
}

std::string uuid_string(const std::uint8_t* u) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
                u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
  return buf;
}

std::string cache_mismatch(const CacheHeader& h, std::uint32_t vendor_id, std::uint32_t device_id,
                           const std::uint8_t (&uuid)[16]) {
  bool same_uuid = true;
  for (std::size_t i = 0; i < 16; ++i) same_uuid = same_uuid && h.uuid[i] == uuid[i];
  if (h.vendor_id == vendor_id && h.device_id == device_id && same_uuid) return "";
  return "made for vendor " + hex32(h.vendor_id) + " device " + hex32(h.device_id) + " cache UUID " +
         uuid_string(h.uuid.data()) + ", but this device is vendor " + hex32(vendor_id) + " device " +
         hex32(device_id) + " cache UUID " + uuid_string(uuid);
}

std::vector<std::uint8_t> read_file_bytes(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_errno(path);
  std::vector<std::uint8_t> out;
  std::uint8_t buf[1 << 16];
  for (;;) {
    const ssize_t r = ::read(fd, buf, sizeof buf);
    if (r < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      ::close(fd);
      errno = e;
      throw_errno(path, "read");
    }
    if (r == 0) break;
    out.insert(out.end(), buf, buf + r);
  }
  ::close(fd);
  return out;
}

void write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes) {
  OutputFile out(path);
  out.write(bytes.data(), bytes.size());
  out.commit();
}

}  // namespace libtrace::foz::detail
