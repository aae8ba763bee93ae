// SPDX-License-Identifier: MIT
#include "layer/instance.hpp"

#include <cstring>
#include <memory>

namespace libtrace::layer {

VkResult create_instance(const VkInstanceCreateInfo* ci, const VkAllocationCallbacks* alloc, VkInstance* out,
                         KeyedState<Instance>& instances) {
  const PFN_vkGetInstanceProcAddr gipa = take_instance_link(ci);
  if (!gipa) return VK_ERROR_INITIALIZATION_FAILED;
  const auto create = reinterpret_cast<PFN_vkCreateInstance>(gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  if (!create) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult r = create(ci, alloc, out);
  if (r != VK_SUCCESS) return r;
  auto inst = std::make_shared<Instance>();
  inst->handle = *out;
  inst->next_gipa = gipa;
  load_instance_table(inst->t, *out, gipa);
  if (const VkApplicationInfo* app = ci->pApplicationInfo) {
    inst->has_app = true;
    inst->app = *app;
    inst->app.pNext = nullptr;
    if (app->apiVersion) inst->api_version = app->apiVersion;
    if (app->pApplicationName) inst->app.pApplicationName = (inst->app_name = app->pApplicationName).c_str();
    if (app->pEngineName) inst->app.pEngineName = (inst->engine_name = app->pEngineName).c_str();
  }
  instances.insert(dispatch_key(*out), std::move(inst));
  return r;
}

void destroy_instance(VkInstance instance, const VkAllocationCallbacks* alloc, KeyedState<Instance>& instances) {
  if (!instance) return;
  const auto inst = instances.erase(dispatch_key(instance));
  if (inst && inst->t.DestroyInstance) inst->t.DestroyInstance(instance, alloc);
}

PFN_vkVoidFunction find_hook(std::span<const Hook> hooks, const char* name) {
  for (const Hook& h : hooks)
    if (std::strcmp(h.name, name) == 0) return h.fn;
  return nullptr;
}

PFN_vkVoidFunction next_instance_proc(const KeyedState<Instance>& instances, VkInstance instance, const char* name) {
  if (!instance) return nullptr;
  const auto inst = instances.find(dispatch_key(instance));
  return inst ? inst->next_gipa(instance, name) : nullptr;
}

}  // namespace libtrace::layer
