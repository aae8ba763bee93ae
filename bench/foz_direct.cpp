// SPDX-License-Identifier: MIT
// The baseline of the replay benchmark: what the driver alone allows. Every
// compute pipeline of an archive is parsed, and its layouts and module
// created, before the clock starts; then THREADS threads (one
// VkPipelineCache each, as trak-replay's workers have) create and destroy
// the pipelines as fast as the driver lets them. Prints the loop's wall and
// CPU time.
// Not installed.
// usage: foz-direct ARCHIVE.foz THREADS
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <thread>

#include "libtrace/foz/archive.hpp"
#include "libtrace/foz/object.hpp"
#include "libtrace/vk/device.hpp"

namespace foz = libtrace::foz;
namespace vk = libtrace::vk;

namespace {

struct Loader {
  const foz::ArchiveReader& in;
  VkDevice dev;
  foz::Arena& arena;
  std::map<std::pair<foz::Tag, foz::Hash>, std::uint64_t> made;

  foz::Object parse(foz::Tag t, foz::Hash h) {
    const auto p = in.read_payload(t, h);
    return foz::parse_payload(std::string_view(reinterpret_cast<const char*>(p.data()), p.size()), arena, in.name());
  }
  // The archive's layouts and modules: compute pipelines need nothing else.
  void resolve(const foz::Object& o) {
    for (const auto& r : o.references) {
      auto it = made.find({r.tag, r.hash});
      if (it == made.end()) {
        const foz::Object d = parse(r.tag, r.hash);
        resolve(d);
        std::uint64_t h = 0;
        if (r.tag == foz::Tag::descriptor_set_layout)
          vk::check(vkCreateDescriptorSetLayout(dev, d.as<VkDescriptorSetLayoutCreateInfo>(), nullptr,
                                                reinterpret_cast<VkDescriptorSetLayout*>(&h)),
                    "set layout");
        else if (r.tag == foz::Tag::pipeline_layout)
          vk::check(vkCreatePipelineLayout(dev, d.as<VkPipelineLayoutCreateInfo>(), nullptr,
                                           reinterpret_cast<VkPipelineLayout*>(&h)),
                    "pipeline layout");
        else if (r.tag == foz::Tag::shader_module)
          vk::check(vkCreateShaderModule(dev, d.as<VkShaderModuleCreateInfo>(), nullptr,
                                         reinterpret_cast<VkShaderModule*>(&h)),
                    "module");
        else
          throw libtrace::Error(libtrace::Errc::unsupported, in.name(), "foz-direct replays compute pipelines only");
        it = made.emplace(std::make_pair(r.tag, r.hash), h).first;
      }
      std::memcpy(r.handle, &it->second, sizeof it->second);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: foz-direct ARCHIVE.foz THREADS\n");
    return 2;
  }
  const unsigned threads = static_cast<unsigned>(std::max(1, std::atoi(argv[2])));
  try {
    foz::ArchiveReader in(argv[1]);
    vk::Instance instance;
    const auto& phys = instance.select("");
    vk::Device device(instance, phys);
    const VkDevice dev = device.handle();
    foz::Arena arena;
    Loader loader{in, dev, arena, {}};
    std::vector<foz::Object> pipelines;
    for (const auto h : in.hashes(foz::Tag::compute_pipeline)) {
      pipelines.push_back(loader.parse(foz::Tag::compute_pipeline, h));
      loader.resolve(pipelines.back());
    }
    std::vector<VkPipelineCache> caches(threads);
    for (auto& c : caches) {
      VkPipelineCacheCreateInfo ci{};
      ci.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
      vk::check(vkCreatePipelineCache(dev, &ci, nullptr, &c), "cache");
    }
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> failed{0};
    const auto cpu = [] {
      rusage ru{};
      ::getrusage(RUSAGE_SELF, &ru);
      return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
             static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    };
    const double cpu0 = cpu();
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        for (std::size_t i; (i = next.fetch_add(1)) < pipelines.size();) {
          VkPipeline p = VK_NULL_HANDLE;
          if (vkCreateComputePipelines(dev, caches[t], 1, pipelines[i].as<VkComputePipelineCreateInfo>(), nullptr,
                                       &p) != VK_SUCCESS)
            ++failed;
          vkDestroyPipeline(dev, p, nullptr);
        }
      });
    for (auto& t : pool) t.join();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // pipelines, loop seconds, loop CPU seconds (all threads), failures
    std::printf("%zu %.6f %.6f %zu\n", pipelines.size(), s, cpu() - cpu0, failed.load());
    for (auto c : caches) vkDestroyPipelineCache(dev, c, nullptr);
  } catch (const libtrace::Error& e) {
    std::fprintf(stderr, "foz-direct: %s\n", e.what());
    return 1;
  }
  return 0;
}
