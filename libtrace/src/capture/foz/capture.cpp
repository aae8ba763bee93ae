// SPDX-License-Identifier: MIT
#include "capture/foz/capture.hpp"

#include <cstring>
#include <functional>
#include <mutex>
#include <string>

#include "capture/names.hpp"
#include "layer/layer.hpp"
#include "libtrace/core/error.hpp"
#include "registry/registry.hpp"

namespace libtrace::capture {

namespace {

void log_failure(foz::Tag tag, const std::exception& e) {
  layer::log_once(kLayerName, "cannot record a " + std::string(foz::tag_name(tag)) + ", left out of the archive",
                  e.what());
}

std::size_t create_info_size(foz::Tag tag) {
  switch (tag) {
    case foz::Tag::graphics_pipeline: return sizeof(VkGraphicsPipelineCreateInfo);
    case foz::Tag::compute_pipeline: return sizeof(VkComputePipelineCreateInfo);
    default: return sizeof(VkRayTracingPipelineCreateInfoKHR);
  }
}

// A sampler whose chain names a YCbCr conversion, with the conversion's
// create info in its place, copied into `arena`.
const VkSamplerCreateInfo* with_ycbcr_inline(const VkSamplerCreateInfo& ci,
                                             const VkSamplerYcbcrConversionCreateInfo& conversion, foz::Arena& arena) {
  auto* out = arena.make<VkSamplerCreateInfo>();
  *out = ci;
  auto** tail = reinterpret_cast<VkBaseOutStructure**>(const_cast<void**>(&out->pNext));
  for (auto* s = static_cast<const VkBaseInStructure*>(ci.pNext); s; s = s->pNext) {
    VkBaseOutStructure* copy;
    if (s->sType == VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO) {
      auto* c = arena.make<VkSamplerYcbcrConversionCreateInfo>();
      *c = conversion;
      copy = reinterpret_cast<VkBaseOutStructure*>(c);
    } else {
      const registry::Struct* st = registry::find_struct(s->sType);
      if (!st) throw Error(Errc::unsupported, "sampler", "unknown sType " + std::to_string(s->sType) + " in its chain");
      copy = static_cast<VkBaseOutStructure*>(arena.allocate(st->size, st->align));
      std::memcpy(copy, s, st->size);
    }
    copy->pNext = nullptr;
    *tail = copy;
    tail = &copy->pNext;
  }
  return out;
}

}  // namespace

FozCapture::FozCapture(std::shared_ptr<FozRecorder> recorder) : recorder_(std::move(recorder)) {
  resolver_ = [this](foz::Tag tag, std::uint64_t handle) { return resolve(tag, handle); };
  lookup_ = [this](foz::Tag tag, foz::Hash hash) -> const foz::Object* {
    return tag == foz::Tag::render_pass ? recorder_->render_pass(hash) : nullptr;
  };
}

FozCapture::Kind FozCapture::kind_of(foz::Tag tag) {
  switch (tag) {
    case foz::Tag::sampler: return kSampler;
    case foz::Tag::descriptor_set_layout: return kSetLayout;
    case foz::Tag::pipeline_layout: return kPipelineLayout;
    case foz::Tag::shader_module: return kModule;
    case foz::Tag::render_pass: return kRenderPass;
    default: return kPipeline;  // libraries and parents of any pipeline kind
  }
}

void FozCapture::remember(foz::Tag tag, std::uint64_t handle, foz::Hash hash) {
  const std::unique_lock lock(mu_);
  // A handle value comes back after its object is destroyed: the newest
  // creation is what later create infos mean by it.
  hashes_[kind_of(tag)][handle] = hash;
}

foz::Hash FozCapture::resolve(foz::Tag tag, std::uint64_t handle) const {
  {
    const std::shared_lock lock(mu_);
    const auto& map = hashes_[kind_of(tag)];
    const auto it = map.find(handle);
    if (it != map.end() && it->second != 0) return it->second;
  }
  throw Error(Errc::bad_record, std::string(foz::tag_name(tag)),
              "refers to an object that was not recorded (handle 0x" + foz::hash_hex(handle) + ")");
}

void FozCapture::record(foz::Tag tag, const void* ci, std::uint64_t handle) {
  try {
    foz::Object o;
    o.tag = tag;
    o.create_info = ci;
    const std::string where(foz::tag_name(tag));
    o.hash = foz::compute_hash(o, lookup_, where, &resolver_);
    remember(tag, handle, o.hash);
    if (recorder_->contains(tag, o.hash)) return;
    std::string payload = foz::serialize_payload(o, where, &resolver_, &lookup_);
    if (tag == foz::Tag::render_pass) recorder_->keep_render_pass(o.hash, payload);
    recorder_->add(tag, o.hash, payload);
  } catch (const std::exception& e) {
    remember(tag, handle, 0);
    log_failure(tag, e);
  }
}

void FozCapture::sampler(const VkSamplerCreateInfo& ci, VkSampler handle) {
  const VkSamplerYcbcrConversionInfo* info = nullptr;
  for (auto* s = static_cast<const VkBaseInStructure*>(ci.pNext); s; s = s->pNext)
    if (s->sType == VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO)
      info = reinterpret_cast<const VkSamplerYcbcrConversionInfo*>(s);
  if (!info) return record(foz::Tag::sampler, &ci, foz::hash_from_handle(handle));
  VkSamplerYcbcrConversionCreateInfo conversion;
  {
    const std::shared_lock lock(mu_);
    const auto it = ycbcr_.find(foz::hash_from_handle(info->conversion));
    if (it == ycbcr_.end()) {
      log_failure(foz::Tag::sampler, Error(Errc::bad_record, "sampler", "its YCbCr conversion was not seen created"));
      return;
    }
    conversion = it->second;
  }
  try {
    foz::Arena arena;
    record(foz::Tag::sampler, with_ycbcr_inline(ci, conversion, arena), foz::hash_from_handle(handle));
  } catch (const std::exception& e) {
    log_failure(foz::Tag::sampler, e);
  }
}

void FozCapture::ycbcr_conversion(const VkSamplerYcbcrConversionCreateInfo& ci, VkSamplerYcbcrConversion handle) {
  VkSamplerYcbcrConversionCreateInfo copy = ci;
  copy.pNext = nullptr;  // Fossilize keeps none of it
  const std::unique_lock lock(mu_);
  ycbcr_[foz::hash_from_handle(handle)] = copy;
}

void FozCapture::set_layout(const VkDescriptorSetLayoutCreateInfo& ci, VkDescriptorSetLayout handle) {
  record(foz::Tag::descriptor_set_layout, &ci, foz::hash_from_handle(handle));
}

void FozCapture::pipeline_layout(const VkPipelineLayoutCreateInfo& ci, VkPipelineLayout handle) {
  record(foz::Tag::pipeline_layout, &ci, foz::hash_from_handle(handle));
}

void FozCapture::shader_module(const VkShaderModuleCreateInfo& ci, VkShaderModule handle) {
  record(foz::Tag::shader_module, &ci, foz::hash_from_handle(handle));
}

void FozCapture::render_pass(const void* ci, VkRenderPass handle) {
  record(foz::Tag::render_pass, ci, foz::hash_from_handle(handle));
}

void FozCapture::record_inline_modules(const VkPipelineShaderStageCreateInfo* stages, std::uint32_t count) {
  for (std::uint32_t i = 0; i < count; ++i) {
    if (stages[i].module != VK_NULL_HANDLE) continue;
    for (auto* s = static_cast<const VkBaseInStructure*>(stages[i].pNext); s; s = s->pNext) {
      if (s->sType != VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO) continue;
      foz::Object o;
      o.tag = foz::Tag::shader_module;
      o.create_info = s;
      o.hash = foz::compute_hash(o, {}, "inline shader module");
      if (!recorder_->contains(o.tag, o.hash))
        recorder_->add(o.tag, o.hash, foz::serialize_payload(o, "inline shader module"));
    }
  }
}

namespace {

// Fossilize records a derivative by its parent's handle, an index into the
// same call's create infos turned into that pipeline, and every other
// pipeline without one; the index is -1 either way. `fake` stands for the
// handle of the pipeline at `index` until the driver made it.
template <typename Info>
void normalize_base(Info& ci, std::uint32_t self, const std::function<std::uint64_t(std::uint32_t)>& fake) {
  if (ci.flags & VK_PIPELINE_CREATE_DERIVATIVE_BIT) {
    if (ci.basePipelineHandle == VK_NULL_HANDLE && ci.basePipelineIndex >= 0 &&
        static_cast<std::uint32_t>(ci.basePipelineIndex) < self)
      ci.basePipelineHandle = foz::handle_from_hash<VkPipeline>(fake(static_cast<std::uint32_t>(ci.basePipelineIndex)));
  } else {
    ci.basePipelineHandle = VK_NULL_HANDLE;
  }
  ci.basePipelineIndex = -1;
}

}  // namespace

PreparedPipelines FozCapture::prepare(foz::Tag tag, const void* infos, std::uint32_t count) {
  PreparedPipelines p;
  p.tag = tag;
  p.hashes.assign(count, 0);
  p.payloads.resize(count);
  const std::size_t stride = create_info_size(tag);
  // Parents inside this call are named by the address of their hash slot:
  // no live pipeline handle can be that.
  const auto fake = [&](std::uint32_t index) { return reinterpret_cast<std::uint64_t>(&p.hashes[index]); };
  const foz::HandleResolver resolver = [&](foz::Tag t, std::uint64_t handle) -> foz::Hash {
    if (kind_of(t) == kPipeline)
      for (std::uint32_t j = 0; j < count; ++j)
        if (handle == fake(j)) {
          if (!p.hashes[j]) break;
          return p.hashes[j];
        }
    return resolve(t, handle);
  };
  const std::string where(foz::tag_name(tag));
  union {
    VkGraphicsPipelineCreateInfo graphics;
    VkComputePipelineCreateInfo compute;
    VkRayTracingPipelineCreateInfoKHR raytracing;
  } copy;
  for (std::uint32_t i = 0; i < count; ++i) {
    const void* app_ci = static_cast<const char*>(infos) + i * stride;
    std::memcpy(&copy, app_ci, stride);
    const void* ci = &copy;
    try {
      switch (tag) {
        case foz::Tag::graphics_pipeline: normalize_base(copy.graphics, i, fake); break;
        case foz::Tag::compute_pipeline: normalize_base(copy.compute, i, fake); break;
        default: normalize_base(copy.raytracing, i, fake);
      }
      switch (tag) {
        case foz::Tag::graphics_pipeline: {
          const auto* g = static_cast<const VkGraphicsPipelineCreateInfo*>(ci);
          record_inline_modules(g->pStages, g->stageCount);
          break;
        }
        case foz::Tag::compute_pipeline:
          record_inline_modules(&static_cast<const VkComputePipelineCreateInfo*>(ci)->stage, 1);
          break;
        default: {
          const auto* r = static_cast<const VkRayTracingPipelineCreateInfoKHR*>(ci);
          record_inline_modules(r->pStages, r->stageCount);
        }
      }
      foz::Object o;
      o.tag = tag;
      o.create_info = ci;
      o.hash = foz::compute_hash(o, lookup_, where, &resolver);
      p.hashes[i] = o.hash;
      if (!recorder_->contains(tag, o.hash)) p.payloads[i] = foz::serialize_payload(o, where, &resolver, &lookup_);
    } catch (const std::exception& e) {
      p.hashes[i] = 0;
      log_failure(tag, e);
    }
  }
  return p;
}

void FozCapture::created(PreparedPipelines& p, const VkPipeline* pipelines, std::uint32_t count) {
  for (std::uint32_t i = 0; i < count && i < p.hashes.size(); ++i)
    if (pipelines[i] != VK_NULL_HANDLE) remember(p.tag, foz::hash_from_handle(pipelines[i]), p.hashes[i]);
  // Only what the driver made goes in: a failed creation is no pipeline the
  // application can use.
  for (std::uint32_t i = 0; i < count && i < p.hashes.size(); ++i)
    if (pipelines[i] != VK_NULL_HANDLE && !p.payloads[i].empty()) recorder_->add(p.tag, p.hashes[i], p.payloads[i]);
}

std::vector<PendingEntry> PreparedPipelines::pending() const {
  std::vector<PendingEntry> out;
  for (std::size_t i = 0; i < hashes.size(); ++i)
    if (!payloads[i].empty()) out.push_back({tag, hashes[i], payloads[i]});
  return out;
}

}  // namespace libtrace::capture
