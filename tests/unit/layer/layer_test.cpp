// SPDX-License-Identifier: MIT
// The loader-layer interface without a loader: negotiation, the chain links
// a layer takes from the create infos, state by dispatch key.
#include <doctest/doctest.h>

#include "layer/layer.hpp"

namespace {

using namespace libtrace;

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL gipa(VkInstance, const char*) { return nullptr; }
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL gipa2(VkInstance, const char*) { return nullptr; }
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL gdpa(VkDevice, const char*) { return nullptr; }

}  // namespace

TEST_CASE("layer: negotiation answers interface version 2 with the layer's entry points") {
  VkNegotiateLayerInterface v{};
  v.sType = LAYER_NEGOTIATE_INTERFACE_STRUCT;
  v.loaderLayerInterfaceVersion = 5;  // a newer loader: the layer says what it speaks
  CHECK(layer::negotiate(&v, gipa, gdpa) == VK_SUCCESS);
  CHECK(v.loaderLayerInterfaceVersion == 2);
  CHECK((v.pfnGetInstanceProcAddr == gipa));
  CHECK((v.pfnGetDeviceProcAddr == gdpa));
  v.loaderLayerInterfaceVersion = 1;  // too old to hand over entry points this way
  CHECK(layer::negotiate(&v, gipa, gdpa) == VK_ERROR_INITIALIZATION_FAILED);
  v.sType = LAYER_NEGOTIATE_UNINTIALIZED;
  v.loaderLayerInterfaceVersion = 2;
  CHECK(layer::negotiate(&v, gipa, gdpa) == VK_ERROR_INITIALIZATION_FAILED);
}

TEST_CASE("layer: the instance link is taken and advanced for the next layer down") {
  VkLayerInstanceLink second{nullptr, gipa2, nullptr};
  VkLayerInstanceLink first{&second, gipa, nullptr};
  VkLayerInstanceCreateInfo link{VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO, nullptr, VK_LAYER_LINK_INFO, {&first}};
  // Another loader struct (a callback) comes first in the chain.
  VkLayerInstanceCreateInfo other{VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO, &link, VK_LOADER_DATA_CALLBACK, {}};
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, &other, 0, nullptr, 0, nullptr, 0, nullptr};
  CHECK((layer::take_instance_link(&ci) == gipa));
  CHECK(link.u.pLayerInfo == &second);
  CHECK((layer::take_instance_link(&ci) == gipa2));
  CHECK((layer::take_instance_link(&ci) == nullptr));  // the chain is used up

  VkInstanceCreateInfo bare{};
  bare.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  CHECK((layer::take_instance_link(&bare) == nullptr));
}

TEST_CASE("layer: the device link gives both entry points") {
  VkLayerDeviceLink next{nullptr, gipa, gdpa};
  VkLayerDeviceCreateInfo link{VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO, nullptr, VK_LAYER_LINK_INFO, {&next}};
  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &link, 0, 0, nullptr, 0, nullptr, 0, nullptr, nullptr};
  const layer::DeviceLink got = layer::take_device_link(&ci);
  CHECK((got.gipa == gipa));
  CHECK((got.gdpa == gdpa));
  CHECK(link.u.pLayerInfo == nullptr);
}

TEST_CASE("layer: state is found from any handle that shares the dispatch table") {
  void* table = reinterpret_cast<void*>(0x1234);
  void* device[1] = {table};  // a dispatchable handle: its first word is the loader's table
  void* queue[1] = {table};
  layer::KeyedState<int> states;
  states.insert(layer::dispatch_key(device), std::make_shared<int>(7));
  REQUIRE(states.find(layer::dispatch_key(queue)));
  CHECK(*states.find(layer::dispatch_key(queue)) == 7);
  CHECK(*states.erase(layer::dispatch_key(device)) == 7);
  CHECK_FALSE(states.find(layer::dispatch_key(queue)));
}

TEST_CASE("layer: the dispatch tables are generated for every command of the headers") {
  layer::DeviceTable d;
  layer::InstanceTable i;
  // Aliases are members of their own: a driver may know only one name.
  CHECK(sizeof d.CmdDrawIndirectCount == sizeof(void*));
  CHECK(sizeof d.CmdDrawIndirectCountKHR == sizeof(void*));
  CHECK(sizeof i.GetPhysicalDeviceFeatures2KHR == sizeof(void*));
  CHECK(sizeof(d) / sizeof(void*) > 400);
  CHECK(sizeof(i) / sizeof(void*) > 60);
}
