// SPDX-License-Identifier: MIT
// capture_trace_threads: several threads use one device at once, each with
// objects of its own that say which thread made them: thread t creates
// buffers of (t + 1) * 4096 bytes in host-visible memory, fills them with
// the byte 0x10 + t through a map, and submits (the queue shared under a
// lock). A trace of it must show every call on the thread that made it, and
// each thread's memory writes as update records of that thread's buffers.
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "vk_app.hpp"

namespace capture_apps {
namespace {

const char* const kUsage = "usage: capture_trace_threads [--threads N] [--rounds R]\n";

unsigned count_arg(const char* opt, const char* text, int most) {
  const int v = text ? std::atoi(text) : 0;
  if (v < 1 || v > most) {
    std::fprintf(stderr, "capture_trace_threads: %s wants a number from 1 to %d\n%s", opt, most, kUsage);
    std::exit(2);
  }
  return static_cast<unsigned>(v);
}

std::uint32_t host_visible_type(const Instance& instance, std::uint32_t bits) {
  VkPhysicalDeviceMemoryProperties props{};
  vkGetPhysicalDeviceMemoryProperties(instance.physical(), &props);
  const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (std::uint32_t i = 0; i < props.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & want) == want) return i;
  throw VkError("no host-visible coherent memory type");
}

void worker(const Instance& instance, const Device& device, VkQueue queue, std::mutex& queue_lock, unsigned t,
            unsigned rounds) {
  const auto& vk = device.vk();
  const VkDevice dev = device.handle();
  VkCommandPoolCreateInfo pci{};
    pci.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pci.queueFamilyIndex = instance.queue_family();
  VkCommandPool pool = VK_NULL_HANDLE;
  APP_CHECK(vk.vkCreateCommandPool(dev, &pci, nullptr, &pool));
  for (unsigned r = 0; r < rounds; ++r) {
    VkBufferCreateInfo bci{};
    bci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bci.size = (t + 1) * 4096;
    bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    APP_CHECK(vk.vkCreateBuffer(dev, &bci, nullptr, &buffer));
    VkMemoryRequirements req{};
    vk.vkGetBufferMemoryRequirements(dev, buffer, &req);
    VkMemoryAllocateInfo ai{};
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = host_visible_type(instance, req.memoryTypeBits);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    APP_CHECK(vk.vkAllocateMemory(dev, &ai, nullptr, &memory));
    APP_CHECK(vk.vkBindBufferMemory(dev, buffer, memory, 0));
    void* p = nullptr;
    APP_CHECK(vk.vkMapMemory(dev, memory, 0, VK_WHOLE_SIZE, 0, &p));
    std::memset(p, 0x10 + static_cast<int>(t), bci.size);
    vk.vkUnmapMemory(dev, memory);

    VkCommandBufferAllocateInfo cai{};
    cai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    cai.commandPool = pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    APP_CHECK(vk.vkAllocateCommandBuffers(dev, &cai, &cmd));
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    APP_CHECK(vk.vkBeginCommandBuffer(cmd, &begin));
    APP_CHECK(vk.vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fci{};
    fci.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    VkFence fence = VK_NULL_HANDLE;
    APP_CHECK(vk.vkCreateFence(dev, &fci, nullptr, &fence));
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    {
      const std::lock_guard lock(queue_lock);
      APP_CHECK(vk.vkQueueSubmit(queue, 1, &submit, fence));
    }
    APP_CHECK(vk.vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
    vk.vkDestroyFence(dev, fence, nullptr);
    vk.vkFreeCommandBuffers(dev, pool, 1, &cmd);
    vk.vkDestroyBuffer(dev, buffer, nullptr);
    vk.vkFreeMemory(dev, memory, nullptr);
  }
  vk.vkDestroyCommandPool(dev, pool, nullptr);
}

int threads_main(int argc, char** argv) {
  unsigned threads = 4, rounds = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--threads") {
      threads = count_arg("--threads", next, 64), ++i;
    } else if (a == "--rounds") {
      rounds = count_arg("--rounds", next, 1000000), ++i;
    } else {
      std::fputs(kUsage, a == "--help" ? stdout : stderr);
      return a == "--help" ? 0 : 2;
    }
  }
  const Instance instance("trace_threads", "trak-tests");
  const Device device(instance, {});
  VkQueue queue = VK_NULL_HANDLE;
  device.vk().vkGetDeviceQueue(device.handle(), instance.queue_family(), 0, &queue);
  std::mutex queue_lock;
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(threads);
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        worker(instance, device, queue, queue_lock, t, rounds);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  std::printf("trace_threads: threads %u, rounds %u\n", threads, rounds);
  return 0;
}

}  // namespace
}  // namespace capture_apps

int main(int argc, char** argv) {
  try {
    return capture_apps::threads_main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "capture_trace_threads: %s\n", e.what());
    return 1;
  }
}
