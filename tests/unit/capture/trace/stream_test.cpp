// SPDX-License-Identifier: MIT
// The trace writer's grammar, read back by libtrace's apitrace parser (whose
// dumps are byte-identical to apitrace's): values from the registry tables,
// the hand-written guards, chunk sizes apitrace can read, threads racing to
// define signatures, virtual memory types.
#include <doctest/doctest.h>
#include <snappy.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "capture/trace/device.hpp"
#include "capture/trace/encode.hpp"
#include "capture/trace/stream.hpp"
#include "capture/trace/writer_util.hpp"
#include "libtrace/apitrace/dump.hpp"
#include "libtrace/apitrace/parser.hpp"
#include "libtrace/core/codec.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/core/io.hpp"
#include "registry/registry.hpp"
#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::capture::trace;
using namespace trace_test;

TEST_CASE("a command's parameters come out with registry names: enums, flags, pNext, len arrays, outputs") {
  const std::string path = temp_path();
  {
    Stream s(path, {});
    VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, nullptr,
                                              VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    const std::uint32_t families[] = {0, 2};
    VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                          &external,
                          0,
                          65536,
                          VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                          VK_SHARING_MODE_CONCURRENT,
                          2,
                          families};
    VkDevice device = reinterpret_cast<VkDevice>(std::uintptr_t{0x1234});
    const VkBufferCreateInfo* pci = &ci;
    const VkAllocationCallbacks* alloc = nullptr;
    VkBuffer buffer = reinterpret_cast<VkBuffer>(std::uintptr_t{0x5678});
    VkBuffer* out = &buffer;
    void* args[] = {&device, &pci, &alloc, &out};
    write_call(s, "vkCreateBuffer", args);
    s.finish();
  }
  const auto calls = dump_all(path);
  REQUIRE(calls.size() == 1);
  CHECK(calls[0] ==
        "0 vkCreateBuffer(device = 0x1234, pCreateInfo = &{sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, pNext = "
        "&{sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, pNext = NULL, handleTypes = "
        "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT}, flags = 0x0, size = 65536, usage = "
        "VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, sharingMode = "
        "VK_SHARING_MODE_CONCURRENT, queueFamilyIndexCount = 2, pQueueFamilyIndices = {0, 2}}, pAllocator = NULL, "
        "pBuffer = &0x5678)");
  ::unlink(path.c_str());
}

TEST_CASE("members valid only for some values are not followed: the application may leave garbage there") {
  const std::string path = temp_path();
  {
    Stream s(path, {});
    VkBuffer b = reinterpret_cast<VkBuffer>(std::uintptr_t{0xb0});
    const VkDescriptorBufferInfo info{b, 16, 64};
    const auto* garbage_images = reinterpret_cast<const VkDescriptorImageInfo*>(std::uintptr_t{8});
    const auto* garbage_views = reinterpret_cast<const VkBufferView*>(std::uintptr_t{16});
    const VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                     nullptr,
                                     reinterpret_cast<VkDescriptorSet>(std::uintptr_t{0x5e7}),
                                     1,
                                     0,
                                     1,
                                     VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                     garbage_images,
                                     &info,
                                     garbage_views};
    const std::uint32_t exclusive_garbage_count = 7;
    const VkImageCreateInfo image{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                                  nullptr,
                                  0,
                                  VK_IMAGE_TYPE_2D,
                                  VK_FORMAT_R8G8B8A8_UNORM,
                                  {4, 4, 1},
                                  1,
                                  1,
                                  VK_SAMPLE_COUNT_1_BIT,
                                  VK_IMAGE_TILING_OPTIMAL,
                                  VK_IMAGE_USAGE_SAMPLED_BIT,
                                  VK_SHARING_MODE_EXCLUSIVE,
                                  exclusive_garbage_count,
                                  reinterpret_cast<const std::uint32_t*>(std::uintptr_t{24}),
                                  VK_IMAGE_LAYOUT_UNDEFINED};
    VkDevice device = reinterpret_cast<VkDevice>(std::uintptr_t{0x1});
    std::uint32_t one = 1, none = 0;
    const VkWriteDescriptorSet* pw = &write;
    const VkCopyDescriptorSet* pc = nullptr;
    void* a1[] = {&device, &one, &pw, &none, &pc};
    write_call(s, "vkUpdateDescriptorSets", a1);
    const VkImageCreateInfo* pi = &image;
    const VkAllocationCallbacks* alloc = nullptr;
    VkImage out_image{};
    VkImage* po = &out_image;
    void* a2[] = {&device, &pi, &alloc, &po};
    write_call(s, "vkCreateImage", a2);
    s.finish();
  }
  const auto calls = dump_all(path);
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].find("pImageInfo = NULL, pBufferInfo = &{buffer = 0xb0, offset = 16, range = 64}, "
                      "pTexelBufferView = NULL") != std::string::npos);
  CHECK(calls[1].find("queueFamilyIndexCount = 7, pQueueFamilyIndices = NULL") != std::string::npos);
  ::unlink(path.c_str());
}

TEST_CASE("len expressions: SPIR-V as a blob of codeSize bytes, sample masks of (samples + 31) / 32 words") {
  const std::string path = temp_path();
  {
    Stream s(path, {});
    const std::uint32_t words[] = {0x07230203, 0x00010000, 0, 1, 0};
    const VkShaderModuleCreateInfo module{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, sizeof words, words};
    VkDevice device = reinterpret_cast<VkDevice>(std::uintptr_t{0x1});
    const VkShaderModuleCreateInfo* pm = &module;
    const VkAllocationCallbacks* alloc = nullptr;
    VkShaderModule sm{};
    VkShaderModule* psm = &sm;
    void* a[] = {&device, &pm, &alloc, &psm};
    write_call(s, "vkCreateShaderModule", a);
    const VkSampleMask masks[] = {0xffffffff, 0x1};
    VkCommandBuffer cmd = reinterpret_cast<VkCommandBuffer>(std::uintptr_t{0xc});
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_64_BIT;
    const VkSampleMask* pmask = masks;
    void* b[] = {&cmd, &samples, &pmask};
    write_call(s, "vkCmdSetSampleMaskEXT", b);
    s.finish();
  }
  const auto calls = dump_all(path);
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].find("codeSize = 20, pCode = blob(20)") != std::string::npos);
  CHECK(calls[1].find("samples = VK_SAMPLE_COUNT_64_BIT, pSampleMask = {4294967295, 1}") != std::string::npos);
  ::unlink(path.c_str());
}

TEST_CASE("no chunk holds more than apitrace's 1 MiB, and a call larger than that spans chunks") {
  const std::string path = temp_path();
  const std::string big(3 * 1024 * 1024 + 17, 'x');
  {
    Stream s(path, {});
    for (int i = 0; i < 3; ++i) {
      VkCommandBuffer cmd = reinterpret_cast<VkCommandBuffer>(std::uintptr_t{0xc});
      VkBuffer dst = reinterpret_cast<VkBuffer>(std::uintptr_t{0xd});
      VkDeviceSize offset = 0, size = big.size();
      const void* data = big.data();
      void* a[] = {&cmd, &dst, &offset, &size, &data};
      write_call(s, "vkCmdUpdateBuffer", a);
    }
    s.finish();
  }
  const std::string file = test::read_file(path);
  REQUIRE(file.substr(0, 2) == "at");
  std::size_t at = 2, chunks = 0;
  while (at < file.size()) {
    REQUIRE(at + 4 <= file.size());
    std::uint32_t len = 0;
    std::memcpy(&len, file.data() + at, 4);
    std::size_t raw = 0;
    REQUIRE(snappy::GetUncompressedLength(file.data() + at + 4, len, &raw));
    CHECK(raw <= (1u << 20));
    at += 4 + len;
    ++chunks;
  }
  CHECK(chunks >= 10);
  const auto calls = dump_all(path);
  REQUIRE(calls.size() == 3);
  CHECK(calls[2].find("pData = blob(3145745)") != std::string::npos);
  ::unlink(path.c_str());
}

TEST_CASE("threads racing to define the same signatures still give a stream every call of which reads") {
  const std::string path = temp_path();
  constexpr int kThreads = 8, kCalls = 1500;
  {
    Stream s(path, {});
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        for (int i = 0; i < kCalls; ++i) {
          VkDevice device = reinterpret_cast<VkDevice>(std::uintptr_t{0x100u + static_cast<unsigned>(t)});
          const VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                       nullptr,
                                       0,
                                       VK_FILTER_LINEAR,
                                       VK_FILTER_NEAREST,
                                       VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                       VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                       VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                       VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                       static_cast<float>(i),
                                       VK_FALSE,
                                       1.0f,
                                       VK_FALSE,
                                       VK_COMPARE_OP_NEVER,
                                       0.0f,
                                       1.0f,
                                       VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK,
                                       VK_FALSE};
          const VkSamplerCreateInfo* pci = &ci;
          const VkAllocationCallbacks* alloc = nullptr;
          VkSampler sampler{};
          VkSampler* out = &sampler;
          void* a[] = {&device, &pci, &alloc, &out};
          write_call(s, "vkCreateSampler", a, s.thread_id());
        }
      });
    for (auto& th : threads) th.join();
    s.finish();
  }
  InputFile in(path);
  apitrace::Parser p(open_decoder(in), in.name());
  std::vector<int> per_thread(kThreads, 0);
  int total = 0;
  while (const apitrace::Call* c = p.next()) {
    REQUIRE(c->thread < kThreads);
    CHECK(c->name() == "vkCreateSampler");
    ++per_thread[c->thread];
    ++total;
  }
  CHECK(total == kThreads * kCalls);
  for (int n : per_thread) CHECK(n == kCalls);
  ::unlink(path.c_str());
}

TEST_CASE("memory types both device-local and host-visible are shown as two") {
  // lavapipe: one type with every flag.
  static VkPhysicalDeviceMemoryProperties lavapipe{};
  lavapipe.memoryTypeCount = 1;
  lavapipe.memoryTypes[0] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                 VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                             0};
  lavapipe.memoryHeapCount = 1;
  const auto get = [](VkPhysicalDevice, VkPhysicalDeviceMemoryProperties* p) { *p = lavapipe; };
  const VirtualTypes& v = virtual_types(reinterpret_cast<VkPhysicalDevice>(std::uintptr_t{0xfeed}), get);
  REQUIRE(v.shown.memoryTypeCount == 2);
  CHECK(v.shown.memoryTypes[0].propertyFlags == VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  CHECK(v.shown.memoryTypes[1].propertyFlags ==
        (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
         VK_MEMORY_PROPERTY_HOST_CACHED_BIT));
  CHECK(v.to_real == std::vector<std::uint32_t>{0, 0});
  CHECK(v.shown_bits(0x1) == 0x3);

  // A discrete GPU: device-local, host-visible, and a ReBAR type with both.
  static VkPhysicalDeviceMemoryProperties discrete{};
  discrete.memoryTypeCount = 3;
  discrete.memoryTypes[0] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
  discrete.memoryTypes[1] = {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 1};
  discrete.memoryTypes[2] = {
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
      2};
  const auto get2 = [](VkPhysicalDevice, VkPhysicalDeviceMemoryProperties* p) { *p = discrete; };
  const VirtualTypes& d = virtual_types(reinterpret_cast<VkPhysicalDevice>(std::uintptr_t{0xbeef}), get2);
  REQUIRE(d.shown.memoryTypeCount == 4);
  CHECK(d.shown.memoryTypes[2].propertyFlags == VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  CHECK(d.shown.memoryTypes[3].propertyFlags ==
        (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT));
  CHECK(d.shown.memoryTypes[3].heapIndex == 2);
  CHECK(d.to_real == std::vector<std::uint32_t>{0, 1, 2, 2});
  CHECK(d.shown_bits(0x5) == 0xd);  // real 0 and 2 -> shown 0, 2 and 3
}
