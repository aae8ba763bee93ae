// SPDX-License-Identifier: MIT
// On the real device the tests run with (lavapipe under meson test).
#include "libtrace/vk/device.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace libtrace;
using namespace libtrace::vk;

namespace {

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool is_lavapipe(const PhysicalDeviceInfo& d) { return d.name().find("llvmpipe") != std::string::npos; }

}  // namespace

TEST_CASE("vk_device: the device is listed with its properties, memory and queues") {
  Instance instance;
  REQUIRE_FALSE(instance.physical_devices().empty());
  const PhysicalDeviceInfo& d = instance.physical_devices().front();
  CHECK(d.index == 0);
  CHECK_FALSE(d.name().empty());
  CHECK(d.memory.memoryHeapCount >= 1);
  CHECK(d.memory.memoryTypeCount >= 1);
  CHECK_FALSE(d.queue_families.empty());
  CHECK_FALSE(d.extensions.empty());
  CHECK(instance.api_version() >= VK_API_VERSION_1_1);
  if (is_lavapipe(d)) {  // what vulkaninfo shows for Mesa's lavapipe
    CHECK(d.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU);
    CHECK(d.properties.vendorID == 0x10005);
    CHECK(d.driver_name == "llvmpipe");
    CHECK(d.driver_id == VK_DRIVER_ID_MESA_LLVMPIPE);
    CHECK(d.has_extension("VK_KHR_dedicated_allocation"));
    CHECK(device_type_name(d.properties.deviceType) == "CPU");
  }
}

TEST_CASE("vk_device: select by index, by name substring (any case), and refuse what is not there") {
  Instance instance;
  const auto& devs = instance.physical_devices();
  CHECK(&instance.select("") == &devs[0]);
  CHECK(&instance.select("0") == &devs[0]);
  const std::string name = devs[0].name();
  std::string upper = name.substr(0, 4);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CHECK(instance.select(upper).index == 0);  // device 0 is the first to match its own name
  CHECK(instance.select(name).index == 0);
  try {
    instance.select("99");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::usage);
    CHECK(std::string(e.what()).find("the devices: 0: " + name) != std::string::npos);
  }
  CHECK_THROWS_AS(instance.select("no such device, surely"), Error);
}

TEST_CASE("vk_device: extensions are enabled where present and reported where missing") {
  Instance instance;
  DeviceOptions opt;
  opt.extensions = {"VK_KHR_dedicated_allocation", "VK_TRAK_not_an_extension"};
  Device dev(instance, instance.select(""), opt);
  CHECK(dev.handle() != VK_NULL_HANDLE);
  CHECK(dev.queue() != VK_NULL_HANDLE);
  CHECK(dev.extension_enabled("VK_KHR_dedicated_allocation") ==
        dev.info().has_extension("VK_KHR_dedicated_allocation"));
  CHECK(dev.missing_extensions() == std::vector<std::string>{"VK_TRAK_not_an_extension"});
  CHECK_FALSE(dev.extension_enabled("VK_TRAK_not_an_extension"));
}

TEST_CASE("vk_device: a required extension the device lacks is an error naming it") {
  Instance instance;
  DeviceOptions opt;
  opt.required_extensions = {"VK_TRAK_not_an_extension"};
  try {
    Device dev(instance, instance.select(""), opt);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::unsupported);
    CHECK(std::string(e.what()).find("VK_TRAK_not_an_extension") != std::string::npos);
  }
  // The failed attempt does not count as the process's one device.
  Device ok(instance, instance.select(""));
  CHECK(ok.handle() != VK_NULL_HANDLE);
}

TEST_CASE("vk_device: one device at a time") {
  Instance instance;
  Device first(instance, instance.select(""));
  CHECK_THROWS_AS(Device(instance, instance.select("")), Error);
}

TEST_CASE("vk_device: features by name and by struct, enabled where supported, missing ones named") {
  Instance instance;
  const PhysicalDeviceInfo& pd = instance.select("");
  DeviceOptions opt;
  opt.features.enable("samplerAnisotropy");
  opt.features.enable("sparseBinding");
  opt.features.enable("vulkan12.bufferDeviceAddress");
  VkPhysicalDeviceVulkan13Features v13{};
  v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  v13.synchronization2 = VK_TRUE;
  opt.features.enable_struct(v13);
  CHECK_THROWS_AS(opt.features.enable("notAFeature"), Error);
  const auto wanted = opt.features.names();
  CHECK(wanted == std::vector<std::string>{"samplerAnisotropy", "sparseBinding", "vulkan12.bufferDeviceAddress",
                                           "vulkan13.synchronization2"});

  // What the device has, asked directly: the oracle for enabled/missing.
  VkPhysicalDeviceVulkan13Features q13{};
  q13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  VkPhysicalDeviceVulkan12Features q12{};
  q12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  q12.pNext = &q13;
  VkPhysicalDeviceFeatures2 q{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, nullptr, {}};
  const bool v13_ok = pd.properties.apiVersion >= VK_API_VERSION_1_3;
  if (pd.properties.apiVersion >= VK_API_VERSION_1_2) q.pNext = &q12;
  if (!v13_ok) q12.pNext = nullptr;
  vkGetPhysicalDeviceFeatures2(pd.handle, &q);

  Device dev(instance, pd, opt);
  const auto enabled = dev.enabled_features().names();
  const auto& missing = dev.missing_features();
  auto expect = [&](const std::string& name, bool supported) {
    CHECK(has(enabled, name) == supported);
    CHECK(has(missing, name) == !supported);
  };
  expect("samplerAnisotropy", q.features.samplerAnisotropy);
  expect("sparseBinding", q.features.sparseBinding);
  expect("vulkan12.bufferDeviceAddress", q12.bufferDeviceAddress);
  expect("vulkan13.synchronization2", v13_ok && q13.synchronization2);
  if (is_lavapipe(pd)) {
    CHECK(has(missing, "sparseBinding"));  // lavapipe has no sparse memory
    CHECK(has(enabled, "vulkan12.bufferDeviceAddress"));
  }
}

TEST_CASE("vk_device: required features fail the device when missing") {
  Instance instance;
  const PhysicalDeviceInfo& pd = instance.select("");
  VkPhysicalDeviceFeatures f{};
  vkGetPhysicalDeviceFeatures(pd.handle, &f);
  if (f.sparseBinding) return;  // nothing to miss on this device
  DeviceOptions opt;
  opt.features.enable("sparseBinding");
  opt.require_features = true;
  CHECK_THROWS_AS(Device(instance, pd, opt), Error);
}

TEST_CASE("vk_device: owned buffers, requirements re-queried, memory bound and freed") {
  Instance instance;
  Device dev(instance, instance.select(""));
  VkBufferCreateInfo bci{};
  bci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bci.size = 1000;
  bci.usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
  VkBuffer raw = VK_NULL_HANDLE;
  check(vkCreateBuffer(dev.handle(), &bci, nullptr, &raw), "vkCreateBuffer");
  Buffer buffer(dev.handle(), raw);
  const auto req = dev.requirements(buffer.get());
  CHECK(req.memory.size >= 1000);
  CHECK(req.memory.alignment > 0);
  CHECK((req.memory.alignment & (req.memory.alignment - 1)) == 0);
  CHECK(req.memory.memoryTypeBits != 0);

  std::uint32_t type = 0;
  while (!(req.memory.memoryTypeBits & (1u << type))) ++type;
  VkMemoryAllocateInfo ai{};
  ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  ai.allocationSize = req.memory.size;
  ai.memoryTypeIndex = type;
  VkDeviceMemory mem = VK_NULL_HANDLE;
  check(vkAllocateMemory(dev.handle(), &ai, nullptr, &mem), "vkAllocateMemory");
  DeviceMemory memory(dev.handle(), mem);
  check(vkBindBufferMemory(dev.handle(), buffer.get(), memory.get(), 0), "vkBindBufferMemory");

  Buffer moved = std::move(buffer);
  CHECK_FALSE(buffer);
  CHECK(moved.get() == raw);
  moved.reset();
  CHECK_FALSE(moved);
  CHECK(dev.heap_budgets().size() == dev.memory().memoryHeapCount);
}

TEST_CASE("vk_device: names for results, versions and memory flags") {
  CHECK(result_name(VK_ERROR_OUT_OF_DEVICE_MEMORY) == "VK_ERROR_OUT_OF_DEVICE_MEMORY");
  CHECK(version_string(VK_MAKE_API_VERSION(0, 1, 3, 230)) == "1.3.230");
  CHECK(memory_property_names(0xf) == "DEVICE_LOCAL|HOST_VISIBLE|HOST_COHERENT|HOST_CACHED");
  CHECK(memory_property_names(0) == "none");
  CHECK(memory_property_names(0x1000) == "0x1000");
  CHECK(memory_heap_names(1) == "DEVICE_LOCAL");
  try {
    check(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "vulkan: vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY");
  }
  CHECK_NOTHROW(check(VK_INCOMPLETE, "vkEnumerate"));
}
