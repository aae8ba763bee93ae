// SPDX-License-Identifier: MIT
// What one device's object creations become in its application's archive:
// Fossilize's hash and JSON of each create info, computed on the creating
// thread by the foz module (the same code that reads and rehashes archives),
// with every handle in it mapped to the hash of the object it was created as.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "capture/foz/recorder.hpp"
#include "libtrace/foz/object.hpp"

namespace libtrace::capture {

// The pipelines of one vkCreate*Pipelines call, hashed and (the ones the
// archive lacks) serialized before the driver sees them: if it dies
// compiling them, they are what goes into the file.
struct PreparedPipelines {
  foz::Tag tag = foz::Tag::graphics_pipeline;
  std::vector<foz::Hash> hashes;      // per create info; 0: could not be recorded
  std::vector<std::string> payloads;  // per create info; "": in the archive already (or 0)
  // The new ones, for the crash path.
  std::vector<PendingEntry> pending() const;
};

class FozCapture {
 public:
  explicit FozCapture(std::shared_ptr<FozRecorder> recorder);
  FozRecorder& recorder() { return *recorder_; }

  // After a successful creation. Never throw: what cannot be recorded is
  // logged once per kind and left out (and so is whatever uses it).
  void sampler(const VkSamplerCreateInfo& ci, VkSampler handle);
  void ycbcr_conversion(const VkSamplerYcbcrConversionCreateInfo& ci, VkSamplerYcbcrConversion handle);
  void set_layout(const VkDescriptorSetLayoutCreateInfo& ci, VkDescriptorSetLayout handle);
  void pipeline_layout(const VkPipelineLayoutCreateInfo& ci, VkPipelineLayout handle);
  void shader_module(const VkShaderModuleCreateInfo& ci, VkShaderModule handle);
  // VkRenderPassCreateInfo or VkRenderPassCreateInfo2 (told by sType).
  void render_pass(const void* ci, VkRenderPass handle);

  // `infos` points at `count` VkGraphicsPipelineCreateInfo,
  // VkComputePipelineCreateInfo or VkRayTracingPipelineCreateInfoKHR (by
  // tag). Inline shader modules are recorded here as modules of their own.
  PreparedPipelines prepare(foz::Tag tag, const void* infos, std::uint32_t count);

  // pthread_atfork, as KeyedState's.
  void before_fork() { mu_.lock(); }
  void after_fork_in_parent() { mu_.unlock(); }
  void after_fork_in_child() { new (&mu_) std::shared_mutex; }
  // After the driver returned: the pipelines it made are recorded.
  void created(PreparedPipelines& p, const VkPipeline* pipelines, std::uint32_t count);

 private:
  enum Kind { kSampler, kSetLayout, kPipelineLayout, kModule, kRenderPass, kPipeline, kKinds };
  static Kind kind_of(foz::Tag tag);
  void remember(foz::Tag tag, std::uint64_t handle, foz::Hash hash);
  foz::Hash resolve(foz::Tag tag, std::uint64_t handle) const;
  // Hashes `ci` as `tag`, remembers `handle` as that hash, and queues it if
  // the archive lacks it.
  void record(foz::Tag tag, const void* ci, std::uint64_t handle);
  void record_inline_modules(const VkPipelineShaderStageCreateInfo* stages, std::uint32_t count);

  std::shared_ptr<FozRecorder> recorder_;
  foz::HandleResolver resolver_;
  foz::Lookup lookup_;

  mutable std::shared_mutex mu_;
  std::unordered_map<std::uint64_t, foz::Hash> hashes_[kKinds];
  // Fossilize records a sampler's YCbCr conversion as the conversion's
  // create info in the sampler's chain, in place of the handle.
  std::unordered_map<std::uint64_t, VkSamplerYcbcrConversionCreateInfo> ycbcr_;
};

}  // namespace libtrace::capture
