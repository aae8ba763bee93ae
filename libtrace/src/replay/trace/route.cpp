// SPDX-License-Identifier: MIT
// Which calls the replay makes its own way: trak's own calls, the commands
// with a handler of their own (memory, swapchains, waits, values checked
// first), the queries it has no use for, and the rest called as recorded.
// Decided once per signature.
#include "replay/trace/replayer.hpp"
#include "vktrace/calls.hpp"

namespace libtrace::replay_trace {

namespace {

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Queries whose answers the replay does not need, and the application's
// memory calls (objects get memory of the replay's own).
bool skipped(std::string_view n) {
  for (const char* p : {"vkGetPhysicalDevice",
                        "vkEnumerateDevice",
                        "vkEnumerateInstance",
                        "vkGetBufferMemoryRequirements",
                        "vkGetImageMemoryRequirements",
                        "vkGetImageSparseMemoryRequirements",
                        "vkGetDeviceBufferMemoryRequirements",
                        "vkGetDeviceImageMemoryRequirements",
                        "vkGetImageSubresourceLayout",
                        "vkGetPipelineCacheData",
                        "vkMapMemory",
                        "vkUnmapMemory",
                        "vkFlushMappedMemoryRanges",
                        "vkInvalidateMappedMemoryRanges",
                        "vkFreeMemory",
                        "vkGetDeviceMemoryCommitment",
                        "vkDestroySurfaceKHR",
                        "vkGetMemoryFdPropertiesKHR",
                        "vkGetSwapchainStatusKHR",
                        "vkGetDeviceGroupPresentCapabilitiesKHR",
                        "vkGetDeviceGroupSurfacePresentModesKHR",
                        "vkEnumeratePhysicalDeviceGroups"})
    if (starts(n, p)) return true;
  return false;
}

}  // namespace

const Replayer::Route& Replayer::route(const apitrace::Call& c) {
  // Once per signature, not per call: the stream names each command once.
  auto [it, fresh] = routes_.try_emplace(c.sig);
  Route& r = it->second;
  if (!fresh) return r;
  const std::string_view name = c.name();
  if (const auto own = vktrace::find_own_call(name)) {
    switch (*own) {
      case vktrace::OwnCall::physical_device: r.way = Route::physical_device; break;
      case vktrace::OwnCall::update_buffer:
      case vktrace::OwnCall::update_image: r.way = Route::update; break;
      case vktrace::OwnCall::snapshot: r.way = Route::snapshot; break;
      case vktrace::OwnCall::image_contents: r.way = Route::image_contents; break;
      case vktrace::OwnCall::copy_buffer: r.way = Route::copy_buffer; break;
    }
  } else if (vktrace::is_own_name(name))
    r.way = Route::own_other;
  else if (!(r.cmd = registry::find_command(name)))
    r.way = starts(name, "vk") ? Route::unknown : Route::not_vulkan;
  else if ((r.handler = handler(name)))
    r.way = Route::handled;
  else
    r.way = skipped(name) ? Route::skipped : Route::generic;
  return r;
}

Replayer::Handler Replayer::handler(std::string_view n) const {
  static const std::pair<std::string_view, Handler> kTable[] = {
      {"vkAcquireNextImage2KHR", &Replayer::acquire},
      {"vkAcquireNextImageKHR", &Replayer::acquire},
      {"vkAllocateMemory", &Replayer::allocate_memory},
      {"vkBindBufferMemory", &Replayer::bind_memory},
      {"vkBindBufferMemory2", &Replayer::bind_memory2},
      {"vkBindBufferMemory2KHR", &Replayer::bind_memory2},
      {"vkBindImageMemory", &Replayer::bind_memory},
      {"vkBindImageMemory2", &Replayer::bind_memory2},
      {"vkBindImageMemory2KHR", &Replayer::bind_memory2},
      {"vkAllocateDescriptorSets", &Replayer::allocate_sets},
      {"vkCmdBeginRendering", &Replayer::begin_rendering},
      {"vkCmdBeginRenderingKHR", &Replayer::begin_rendering},
      {"vkCmdBindDescriptorSets", &Replayer::bind_sets},
      {"vkCmdBindVertexBuffers", &Replayer::bind_vertex_buffers},
      {"vkCmdBindVertexBuffers2", &Replayer::bind_vertex_buffers},
      {"vkCmdBindVertexBuffers2EXT", &Replayer::bind_vertex_buffers},
      {"vkCmdPushConstants", &Replayer::push_constants},
      {"vkCmdPushDescriptorSetKHR", &Replayer::push_descriptors},
      {"vkCmdPushDescriptorSetWithTemplateKHR", &Replayer::with_template},
      {"vkCmdSetScissor", &Replayer::set_viewports},
      {"vkCmdSetScissorWithCount", &Replayer::set_viewports},
      {"vkCmdSetScissorWithCountEXT", &Replayer::set_viewports},
      {"vkCmdSetViewport", &Replayer::set_viewports},
      {"vkCmdSetViewportWithCount", &Replayer::set_viewports},
      {"vkCmdSetViewportWithCountEXT", &Replayer::set_viewports},
      {"vkCreateBuffer", &Replayer::create_buffer},
      {"vkCreateDescriptorUpdateTemplate", &Replayer::create_template},
      {"vkCreateDescriptorUpdateTemplateKHR", &Replayer::create_template},
      {"vkCreateDescriptorSetLayout", &Replayer::create_set_layout},
      {"vkCreateDevice", &Replayer::create_device},
      {"vkCreateGraphicsPipelines", &Replayer::create_graphics_pipelines},
      {"vkCreateImage", &Replayer::create_image},
      {"vkCreateInstance", &Replayer::create_instance},
      {"vkCreatePipelineCache", &Replayer::create_pipeline_cache},
      {"vkCreatePipelineLayout", &Replayer::create_pipeline_layout},
      {"vkCreateRenderPass", &Replayer::create_render_pass},
      {"vkCreateRenderPass2", &Replayer::create_render_pass},
      {"vkCreateRenderPass2KHR", &Replayer::create_render_pass},
      {"vkCreateSemaphore", &Replayer::create_semaphore},
      {"vkCreateShaderModule", &Replayer::create_shader_module},
      {"vkCreateSwapchainKHR", &Replayer::create_swapchain},
      {"vkDestroyBuffer", &Replayer::destroy_object},
      {"vkDestroyDevice", &Replayer::destroy_device},
      {"vkDestroyInstance", &Replayer::destroy_instance},
      {"vkDeviceWaitIdle", &Replayer::wait_idle},
      {"vkDestroyImage", &Replayer::destroy_object},
      {"vkDestroyPipelineCache", &Replayer::destroy_pipeline_cache},
      {"vkDestroySwapchainKHR", &Replayer::destroy_swapchain},
      {"vkEnumeratePhysicalDevices", &Replayer::enumerate_physical_devices},
      {"vkGetDeviceQueue", &Replayer::get_queue},
      {"vkGetDeviceQueue2", &Replayer::get_queue},
      {"vkGetSwapchainImagesKHR", &Replayer::swapchain_images},
      {"vkQueueBindSparse", &Replayer::submit},
      {"vkQueuePresentKHR", &Replayer::present},
      {"vkQueueSubmit", &Replayer::submit},
      {"vkQueueSubmit2", &Replayer::submit},
      {"vkQueueSubmit2KHR", &Replayer::submit},
      {"vkQueueWaitIdle", &Replayer::wait_idle},
      {"vkUpdateDescriptorSetWithTemplate", &Replayer::with_template},
      {"vkUpdateDescriptorSetWithTemplateKHR", &Replayer::with_template},
      {"vkUpdateDescriptorSets", &Replayer::update_sets},
      {"vkWaitForFences", &Replayer::wait_for_fences},
      {"vkWaitSemaphores", &Replayer::wait_semaphores},
      {"vkWaitSemaphoresKHR", &Replayer::wait_semaphores},
  };
  for (const auto& [name, h] : kTable)
    if (name == n) return h;
  if (starts(n, "vkCreate") && n.size() > 17 && n.substr(n.size() - 10) == "SurfaceKHR")
    return &Replayer::create_surface;
  return nullptr;
}

}  // namespace libtrace::replay_trace
