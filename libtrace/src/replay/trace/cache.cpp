// SPDX-License-Identifier: MIT
// --pipeline-cache: a file of this device's pipeline cache data, given to
// the capture's first pipeline cache and saved from it. The file is looked
// at before the replay starts: only a regular file of a plausible size is
// read (a device or a FIFO never ends), and a file that exists is replaced
// only if it is a pipeline cache (a capture named by mistake is not).
#include <sys/stat.h>
#include <unistd.h>
#include <volk.h>

#include <cerrno>
#include <cstring>

#include "libtrace/core/io.hpp"
#include "libtrace/core/temp_file.hpp"
#include "libtrace/vk/device.hpp"
#include "replay/trace/replayer.hpp"

namespace libtrace::replay_trace {

namespace {

// Far above what a driver keeps for a large game's pipelines.
constexpr std::uint64_t kMaxCacheBytes = std::uint64_t{1} << 30;

// VkPipelineCacheHeaderVersionOne: headerSize (32 or more), headerVersion 1.
bool is_pipeline_cache(const std::string& data) {
  if (data.size() < 32) return false;
  std::uint32_t size = 0, version = 0;
  std::memcpy(&size, data.data(), 4);
  std::memcpy(&version, data.data() + 4, 4);
  return size >= 32 && size <= data.size() && version == VK_PIPELINE_CACHE_HEADER_VERSION_ONE;
}

}  // namespace

void Replayer::load_pipeline_cache() {
  const std::string& path = opt_.pipeline_cache;
  if (path.empty()) return;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) throw Error(Errc::io, path, std::strerror(errno));
    // Saved at the end: say now that it cannot be, not after the replay.
    const auto slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    struct stat ds {};
    if (::stat(dir.c_str(), &ds) != 0 || !S_ISDIR(ds.st_mode))
      throw Error(Errc::io, path, "cannot be saved: no folder " + dir);
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
      throw Error(Errc::io, path, "cannot be saved: " + std::string(std::strerror(errno)));
    return;
  }
  if (!S_ISREG(st.st_mode))
    throw Error(Errc::io, path, "not a regular file: a pipeline cache is read from and saved to one");
  if (static_cast<std::uint64_t>(st.st_size) > kMaxCacheBytes)
    throw Error(Errc::io, path, "larger than 1 GiB: not a pipeline cache (not overwritten)");
  InputFile in(path);
  std::string data;
  char buf[1 << 16];
  for (std::size_t n; (n = in.read(buf, sizeof buf)) > 0;) {
    data.append(buf, n);
    if (data.size() > kMaxCacheBytes) throw Error(Errc::io, path, "grew past 1 GiB while read");
  }
  if (!data.empty() && !is_pipeline_cache(data))
    throw Error(Errc::io, path,
                "exists and is not a Vulkan pipeline cache: not overwritten (remove it or name another file)");
  cache_data_ = std::move(data);
}

void Replayer::create_pipeline_cache(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(cmd.params(), slots, ptrs);
  auto* ci = *reinterpret_cast<VkPipelineCacheCreateInfo**>(&slots[1]);
  if (ci && ci->initialDataSize) adapted("pipeline cache data of the capture's driver: left out");
  // Only the first cache gets the file's data: it is the one saved.
  const bool first = !cache_ && !opt_.pipeline_cache.empty();
  if (ci) {
    ci->initialDataSize = first ? cache_data_.size() : 0;
    ci->pInitialData = first && !cache_data_.empty() ? cache_data_.data() : nullptr;
  }
  VkResult r = VK_SUCCESS;
  invoke(c, cmd, d, ptrs, &r);
  if (r < 0) return;
  map_outputs(c, cmd, d, ptrs);
  auto* made = *reinterpret_cast<VkPipelineCache**>(&slots[3]);
  if (first && made && *made) {
    cache_device_ = *reinterpret_cast<VkDevice*>(&slots[0]);
    cache_ = *made;
  }
}

void Replayer::save_pipeline_cache() {
  if (!cache_ || opt_.pipeline_cache.empty()) return;
  const VkPipelineCache cache = cache_;
  cache_ = VK_NULL_HANDLE;
  std::size_t n = 0;
  vk::check(vkGetPipelineCacheData(cache_device_, cache, &n, nullptr), "vkGetPipelineCacheData");
  std::string data(n, '\0');
  vk::check(vkGetPipelineCacheData(cache_device_, cache, &n, data.data()), "vkGetPipelineCacheData");
  TempFile f(opt_.pipeline_cache);
  write_all(f.fd(), data.data(), n, opt_.pipeline_cache);
  f.commit(opt_.pipeline_cache);
  cache_saved_ = true;
  adapted("pipeline cache saved to " + opt_.pipeline_cache);
}

void Replayer::destroy_pipeline_cache(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  if (cache_ && handles_.get(d.uint_of(d.arg(1))) == reinterpret_cast<std::uintptr_t>(cache_)) save_pipeline_cache();
  generic(c, cmd);
}

}  // namespace libtrace::replay_trace
