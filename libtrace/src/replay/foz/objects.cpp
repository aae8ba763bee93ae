// SPDX-License-Identifier: MIT
// One pipeline and its dependency closure on a device.
#include "replay/foz/objects.hpp"

#include <cstring>

#include "libtrace/vk/device.hpp"

namespace libtrace::foz::detail {

namespace {

constexpr int kMaxDepth = 16;           // deeper chains of parents are cycles in practice
constexpr std::size_t kMaxKept = 4096;  // parent pipelines alive at once

bool is_pipeline(Tag t) {
  return t == Tag::graphics_pipeline || t == Tag::compute_pipeline || t == Tag::raytracing_pipeline;
}

// The arena's structs are the parser's output, writable: replay fixes a few
// fields in place before handing them to the driver.
template <typename T>
T* mut(const T* p) {
  return const_cast<T*>(p);
}

template <typename CreateInfo>
void fix_flags(CreateInfo* ci) {
  // Replay with the flags Fossilize replays with: with "fail on compile
  // required" a driver may return VK_PIPELINE_COMPILE_REQUIRED and compile
  // nothing, and statistics capture is the application's business.
  ci->flags = static_cast<VkPipelineCreateFlags>(normalized_pipeline_flags(ci->flags));
  // One pipeline per call: a base can only be a handle, never an index.
  ci->basePipelineIndex = -1;
  if (ci->basePipelineHandle == VK_NULL_HANDLE) ci->flags &= ~VK_PIPELINE_CREATE_DERIVATIVE_BIT;
}

PipelineType pipeline_type_of(Tag t) {
  return t == Tag::graphics_pipeline  ? PipelineType::graphics
         : t == Tag::compute_pipeline ? PipelineType::compute
                                      : PipelineType::raytracing;
}

std::string vk_failure(std::string_view call, VkResult r) {
  return std::string(call) + " failed: " + std::string(vk::result_name(r));
}

}  // namespace

Replayer::Replayer(const ReplayerConfig& cfg)
    : cfg_(cfg),
      device_(cfg.device->handle()),
      cache_control_(has_cache_control(cfg.device->caps())),
      stats_(cfg.stats && has_pipeline_stats(cfg.device->caps())) {}

Replayer::~Replayer() {
  for (const Key& k : kept_)
    if (const auto it = objects_.find(k); it != objects_.end())
      vkDestroyPipeline(device_, vk::from_u64<VkPipeline>(it->second), nullptr);
  for (auto& [hash, m] : modules_) vkDestroyShaderModule(device_, vk::from_u64<VkShaderModule>(m.handle), nullptr);
  for (auto it = creation_order_.rbegin(); it != creation_order_.rend(); ++it) {
    const auto found = objects_.find(*it);
    if (found == objects_.end()) continue;
    const std::uint64_t h = found->second;
    switch (it->tag) {
      case Tag::sampler: vkDestroySampler(device_, vk::from_u64<VkSampler>(h), nullptr); break;
      case Tag::descriptor_set_layout:
        vkDestroyDescriptorSetLayout(device_, vk::from_u64<VkDescriptorSetLayout>(h), nullptr);
        break;
      case Tag::pipeline_layout: vkDestroyPipelineLayout(device_, vk::from_u64<VkPipelineLayout>(h), nullptr); break;
      case Tag::render_pass: vkDestroyRenderPass(device_, vk::from_u64<VkRenderPass>(h), nullptr); break;
      default: break;
    }
  }
  for (VkSamplerYcbcrConversion c : conversions_) vkDestroySamplerYcbcrConversion(device_, c, nullptr);
}

void Replayer::set_phase(Phase p, Tag tag, std::uint64_t hash) {
  if (!cfg_.shared) return;
  Slot& s = cfg_.shared->slot(cfg_.slot);
  s.dep_tag.store(static_cast<std::uint32_t>(tag), std::memory_order_relaxed);
  s.dep_hash.store(hash, std::memory_order_relaxed);
  s.phase.store(static_cast<std::uint32_t>(p), std::memory_order_release);
}

const Object& Replayer::parse(Tag tag, std::uint64_t hash) {
  const Sources::Found f = cfg_.sources->find(tag, hash);
  if (!f) throw Failure{Outcome::failed, "missing " + describe_entry(tag, hash) + " (in no input archive)"};
  const std::string_view text = cfg_.sources->payload(f, payload_);
  // The full position ("file: offset N: tag hash") costs a few allocations:
  // it is made only for an error.
  try {
    parsed_.push_back(parse_payload(text, arena_, f.reader->name()));
  } catch (const Error& e) {
    throw Error(e.code(), f.reader->where(*f.entry), e.message());
  }
  return parsed_.back();
}

std::uint64_t Replayer::create_module(const Object& o) {
  const auto* ci = o.as<VkShaderModuleCreateInfo>();
  Needs needs;
  spirv_needs(std::span<const std::uint32_t>(ci->pCode, ci->codeSize / 4), needs);
  module_needs_[o.hash] = needs.items;
  VkShaderModule m = VK_NULL_HANDLE;
  const VkResult r = vkCreateShaderModule(device_, ci, nullptr, &m);
  if (r != VK_SUCCESS)
    throw Failure{Outcome::failed, describe_entry(o.tag, o.hash) + ": " + vk_failure("vkCreateShaderModule", r)};
  Module& e = modules_[o.hash];
  e.handle = vk::to_u64(m);
  e.bytes = ci->codeSize;
  lru_.push_front(o.hash);
  e.lru = lru_.begin();
  module_bytes_ += e.bytes;
  return e.handle;
}

void Replayer::evict_modules() {
  while (module_bytes_ > cfg_.module_budget && !lru_.empty()) {
    const std::uint64_t h = lru_.back();
    lru_.pop_back();
    const auto it = modules_.find(h);
    vkDestroyShaderModule(device_, vk::from_u64<VkShaderModule>(it->second.handle), nullptr);
    module_bytes_ -= it->second.bytes;
    modules_.erase(it);
  }
}

std::uint64_t Replayer::create_sampler(const Object& o) {
  auto* ci = mut(o.as<VkSamplerCreateInfo>());
  // Fossilize records a YCbCr conversion inline; the driver wants the object.
  for (auto* p = static_cast<const VkBaseInStructure*>(ci->pNext); p; p = p->pNext) {
    if (p->sType != VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_CREATE_INFO) continue;
    VkSamplerYcbcrConversionCreateInfo conv = *reinterpret_cast<const VkSamplerYcbcrConversionCreateInfo*>(p);
    conv.pNext = nullptr;
    VkSamplerYcbcrConversion c = VK_NULL_HANDLE;
    const VkResult r = vkCreateSamplerYcbcrConversion(device_, &conv, nullptr, &c);
    if (r != VK_SUCCESS)
      throw Failure{Outcome::failed,
                    describe_entry(o.tag, o.hash) + ": " + vk_failure("vkCreateSamplerYcbcrConversion", r)};
    conversions_.push_back(c);
    auto* info = reinterpret_cast<VkSamplerYcbcrConversionInfo*>(mut(p));
    info->sType = VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO;
    info->conversion = c;
  }
  VkSampler s = VK_NULL_HANDLE;
  const VkResult r = vkCreateSampler(device_, ci, nullptr, &s);
  if (r != VK_SUCCESS)
    throw Failure{Outcome::failed, describe_entry(o.tag, o.hash) + ": " + vk_failure("vkCreateSampler", r)};
  return vk::to_u64(s);
}

void Replayer::resolve_references(const Object& o, int depth, Needs& needs) {
  for (const Reference& ref : o.references) {
    if (ref.tag != Tag::shader_module) continue;
    const std::uint64_t h = resolve(ref.tag, ref.hash, depth);
    const auto& more = module_needs_[ref.hash];
    needs.items.insert(needs.items.end(), more.begin(), more.end());
    std::memcpy(ref.handle, &h, sizeof h);
  }
  if (std::string lack = lacking(needs, cfg_.device->caps()); !lack.empty())
    throw Failure{Outcome::unsupported, o.tag == Tag::shader_module || is_pipeline(o.tag)
                                            ? lack
                                            : describe_entry(o.tag, o.hash) + ": " + lack};
  for (const Reference& ref : o.references) {
    if (ref.tag == Tag::shader_module) continue;
    const std::uint64_t h = resolve(ref.tag, ref.hash, depth);
    std::memcpy(ref.handle, &h, sizeof h);
  }
}

std::uint64_t Replayer::resolve(Tag tag, std::uint64_t hash, int depth) {
  const Key key{tag, hash};
  if (tag == Tag::shader_module) {
    if (const auto it = modules_.find(hash); it != modules_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second.lru);
      return it->second.handle;
    }
    if (cfg_.shared && cfg_.shared->is_banned(hash))
      throw Failure{Outcome::failed, describe_entry(tag, hash) + " crashed the driver in another pipeline"};
    if (cfg_.invalid_modules)
      if (const auto bad = cfg_.invalid_modules->find(hash); bad != cfg_.invalid_modules->end())
        throw Failure{Outcome::failed, describe_entry(tag, hash) + ": invalid SPIR-V: " + bad->second};
  } else if (const auto it = objects_.find(key); it != objects_.end()) {
    return it->second;
  }
  if (const auto f = failures_.find(key); f != failures_.end()) throw f->second;
  if (depth > kMaxDepth)
    throw Failure{Outcome::failed, describe_entry(tag, hash) + ": dependencies nested too deep (a cycle?)"};

  Phase old_phase = Phase::pipeline;
  Tag old_tag{};
  std::uint64_t old_hash = 0;
  if (cfg_.shared) {
    const Slot& s = cfg_.shared->slot(cfg_.slot);
    old_phase = static_cast<Phase>(s.phase.load(std::memory_order_relaxed));
    old_tag = static_cast<Tag>(s.dep_tag.load(std::memory_order_relaxed));
    old_hash = s.dep_hash.load(std::memory_order_relaxed);
  }
  set_phase(Phase::dependency, tag, hash);
  std::uint64_t h = 0;
  try {
    const Object& o = parse(tag, hash);
    h = create(o, depth + 1);
  } catch (Failure& f) {
    failures_.emplace(key, f);
    set_phase(old_phase, old_tag, old_hash);
    throw;
  } catch (const std::exception& e) {
    Failure f{Outcome::failed, e.what()};
    failures_.emplace(key, f);
    set_phase(old_phase, old_tag, old_hash);
    throw f;
  }
  set_phase(old_phase, old_tag, old_hash);
  if (tag != Tag::shader_module) {
    objects_.emplace(key, h);
    (is_pipeline(tag) ? kept_.push_back(key) : creation_order_.push_back(key));
  }
  return h;
}

std::uint64_t Replayer::create(const Object& o, int depth) {
  const auto fail = [&](std::string_view call, VkResult r) {
    return Failure{Outcome::failed, describe_entry(o.tag, o.hash) + ": " + vk_failure(call, r)};
  };
  Needs needs;
  switch (o.tag) {
    case Tag::shader_module: return create_module(o);
    case Tag::sampler: {
      chain_needs(o.as<VkSamplerCreateInfo>()->pNext, needs);
      resolve_references(o, depth, needs);
      return create_sampler(o);
    }
    case Tag::descriptor_set_layout: {
      const auto* ci = o.as<VkDescriptorSetLayoutCreateInfo>();
      chain_needs(ci->pNext, needs);
      resolve_references(o, depth, needs);
      VkDescriptorSetLayout l = VK_NULL_HANDLE;
      if (const VkResult r = vkCreateDescriptorSetLayout(device_, ci, nullptr, &l); r != VK_SUCCESS)
        throw fail("vkCreateDescriptorSetLayout", r);
      return vk::to_u64(l);
    }
    case Tag::pipeline_layout: {
      const auto* ci = o.as<VkPipelineLayoutCreateInfo>();
      resolve_references(o, depth, needs);
      VkPipelineLayout l = VK_NULL_HANDLE;
      if (const VkResult r = vkCreatePipelineLayout(device_, ci, nullptr, &l); r != VK_SUCCESS)
        throw fail("vkCreatePipelineLayout", r);
      return vk::to_u64(l);
    }
    case Tag::render_pass: {
      VkRenderPass rp = VK_NULL_HANDLE;
      VkResult r;
      if (o.s_type() == VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2) {
        const auto* ci = o.as<VkRenderPassCreateInfo2>();
        chain_needs(ci->pNext, needs);
        needs.add("core1.2|VK_KHR_create_renderpass2");
        for (std::uint32_t i = 0; i < ci->subpassCount; ++i) chain_needs(ci->pSubpasses[i].pNext, needs);
        for (std::uint32_t i = 0; i < ci->attachmentCount; ++i) chain_needs(ci->pAttachments[i].pNext, needs);
        resolve_references(o, depth, needs);
        r = vkCreateRenderPass2(device_, ci, nullptr, &rp);
      } else {
        const auto* ci = o.as<VkRenderPassCreateInfo>();
        chain_needs(ci->pNext, needs);
        resolve_references(o, depth, needs);
        r = vkCreateRenderPass(device_, ci, nullptr, &rp);
      }
      if (r != VK_SUCCESS) throw fail("vkCreateRenderPass", r);
      return vk::to_u64(rp);
    }
    case Tag::graphics_pipeline:
    case Tag::compute_pipeline:
    case Tag::raytracing_pipeline: return create_pipeline(o, depth, true);
    default: break;
  }
  throw Failure{Outcome::failed, describe_entry(o.tag, o.hash) + ": not an object a pipeline can depend on"};
}

std::uint64_t Replayer::create_pipeline(const Object& o, int depth, bool keep) {
  Needs needs;
  pipeline_needs(o, needs);
  resolve_references(o, depth, needs);
  // Only the pipeline asked for is tried against the cache: its parents are
  // replayed as pipelines of their own.
  const bool try_cache = !keep && cfg_.compile_required != CompileRequired::compile && cache_control_;
  const bool want_stats = !keep && stats_;
  VkPipeline p = VK_NULL_HANDLE;
  VkResult r = VK_SUCCESS;
  std::string_view call;
  VkPipelineCreateFlags flags = 0;
  const auto create = [&](auto* ci, auto&& make) {
    fix_flags(ci);
    flags = ci->flags;
    if (want_stats) ci->flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    const VkPipelineCreateFlags asked = ci->flags;
    if (try_cache) {
      ci->flags |= VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
      r = make(ci);
      ci->flags = asked;
      if (r != VK_PIPELINE_COMPILE_REQUIRED) return;
      cache_missed_ = true;
      if (p != VK_NULL_HANDLE) vkDestroyPipeline(device_, p, nullptr);
      p = VK_NULL_HANDLE;
      if (cfg_.compile_required == CompileRequired::skip) return;
    }
    r = make(ci);
  };
  switch (o.tag) {
    case Tag::graphics_pipeline:
      call = "vkCreateGraphicsPipelines";
      create(mut(o.as<VkGraphicsPipelineCreateInfo>()), [&](const VkGraphicsPipelineCreateInfo* ci) {
        return vkCreateGraphicsPipelines(device_, cfg_.cache, 1, ci, nullptr, &p);
      });
      break;
    case Tag::compute_pipeline:
      call = "vkCreateComputePipelines";
      create(mut(o.as<VkComputePipelineCreateInfo>()), [&](const VkComputePipelineCreateInfo* ci) {
        return vkCreateComputePipelines(device_, cfg_.cache, 1, ci, nullptr, &p);
      });
      break;
    default:
      call = "vkCreateRayTracingPipelinesKHR";
      create(mut(o.as<VkRayTracingPipelineCreateInfoKHR>()), [&](const VkRayTracingPipelineCreateInfoKHR* ci) {
        return vkCreateRayTracingPipelinesKHR(device_, VK_NULL_HANDLE, cfg_.cache, 1, ci, nullptr, &p);
      });
      break;
  }
  if (r == VK_PIPELINE_COMPILE_REQUIRED) return 0;  // skipped on a cache miss
  if (r != VK_SUCCESS) {
    if (p != VK_NULL_HANDLE) vkDestroyPipeline(device_, p, nullptr);
    throw Failure{Outcome::failed, vk_failure(call, r)};
  }
  if (keep) return vk::to_u64(p);
  if (want_stats && !stats_failed_) {
    const std::string line = pipeline_stats_line(device_, p, pipeline_type_of(o.tag), o.hash);
    if (!line.empty() && !cfg_.stats->append(line)) stats_failed_ = true;
  }
  // A pipeline others may name as base or library stays alive, within bounds.
  if (flags & (VK_PIPELINE_CREATE_ALLOW_DERIVATIVES_BIT | VK_PIPELINE_CREATE_LIBRARY_BIT_KHR)) return vk::to_u64(p);
  vkDestroyPipeline(device_, p, nullptr);
  return 0;
}

Outcome Replayer::replay(const WorkItem& item, std::string& reason) {
  parsed_.clear();
  arena_.reset();
  evict_modules();
  // Parents kept beyond the bound go, oldest first.
  while (kept_.size() > kMaxKept) {
    if (const auto o = objects_.find(kept_.front()); o != objects_.end()) {
      vkDestroyPipeline(device_, vk::from_u64<VkPipeline>(o->second), nullptr);
      objects_.erase(o);
    }
    kept_.pop_front();
  }
  const Tag tag = pipeline_type_tag(item.type);
  const Key key{tag, item.hash};
  try {
    if (objects_.count(key)) return Outcome::ok;  // made already, as another one's parent
    if (const auto f = failures_.find(key); f != failures_.end()) throw f->second;
    const Object& o = parse(tag, item.hash);
    cache_missed_ = false;
    const std::uint64_t h = create_pipeline(o, 0, false);
    if (h) {
      objects_.emplace(key, h);
      kept_.push_back(key);
    }
    if (cache_missed_)
      return h || cfg_.compile_required != CompileRequired::skip ? Outcome::ok_cache_miss : Outcome::cache_miss;
    return Outcome::ok;
  } catch (const Failure& f) {
    reason = f.reason;
    return f.outcome;
  } catch (const std::exception& e) {
    reason = e.what();
    return Outcome::failed;
  }
}

}  // namespace libtrace::foz::detail
