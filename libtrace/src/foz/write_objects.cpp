// SPDX-License-Identifier: MIT
// Structs -> Fossilize JSON for application infos, samplers, descriptor set
// layouts, pipeline layouts and render passes (v1 and v2): the members
// are in their profiles (objects.cpp).
#include "foz/pnext.hpp"

namespace libtrace::foz::detail {

void write_attachment_ref2(Out& o, const VkAttachmentReference2& r) {
  write_object(o, nullptr, &r, "VkAttachmentReference2");
}

void write_application_members(Out& o, const VkApplicationInfo* app, const VkPhysicalDeviceFeatures2* features) {
  if (app) {
    write_object(o, "applicationInfo", app, "VkApplicationInfo");
  } else {
    o.begin_object("applicationInfo");
    o.end_object();
  }
  o.begin_object("physicalDeviceFeatures");
  if (features) {
    o.u32("robustBufferAccess", features->features.robustBufferAccess);
    write_pdf2_pnext(o, features->pNext);
  }
  o.end_object();
}

void write_sampler(Out& o, const VkSamplerCreateInfo& s) { write_object(o, nullptr, &s, "VkSamplerCreateInfo"); }

void write_set_layout(Out& o, const VkDescriptorSetLayoutCreateInfo& l) {
  write_object(o, nullptr, &l, "VkDescriptorSetLayoutCreateInfo");
}

void write_pipeline_layout(Out& o, const VkPipelineLayoutCreateInfo& l) {
  write_object(o, nullptr, &l, "VkPipelineLayoutCreateInfo");
}

void write_render_pass(Out& o, const VkRenderPassCreateInfo& rp) {
  write_object(o, nullptr, &rp, "VkRenderPassCreateInfo");
}

void write_render_pass2(Out& o, const VkRenderPassCreateInfo2& rp) {
  write_object(o, nullptr, &rp, "VkRenderPassCreateInfo2");
}

}  // namespace libtrace::foz::detail
