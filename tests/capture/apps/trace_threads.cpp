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

namespace test_apps {
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

void worker(const Device& device, VkQueue queue, std::mutex& queue_lock, unsigned t, unsigned rounds) {
  const auto& vk = device.vk();
  const VkDevice dev = device.handle();
  const CommandPool pool = make_command_pool(device);
  for (unsigned r = 0; r < rounds; ++r) {
    const VkDeviceSize size = (t + 1) * 4096;
    const BoundBuffer buffer = make_buffer(device, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                           VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    std::memset(map(device, buffer.memory), 0x10 + static_cast<int>(t), size);
    vk.vkUnmapMemory(dev, buffer.memory.get());

    VkCommandBuffer cmd = allocate_commands(device, pool.get());
    begin_commands(device, cmd);
    APP_CHECK(vk.vkEndCommandBuffer(cmd));
    const Fence fence = make_fence(device);
    const VkFence f = fence.get();
    {
      const std::lock_guard lock(queue_lock);
      submit(device, queue, cmd, f);
    }
    APP_CHECK(vk.vkWaitForFences(dev, 1, &f, VK_TRUE, UINT64_MAX));
    vk.vkFreeCommandBuffers(dev, pool.get(), 1, &cmd);
  }
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
  const Instance instance("trace_threads");
  const Device device(instance, {});
  const VkQueue queue = device.queue();
  std::mutex queue_lock;
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(threads);
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        worker(device, queue, queue_lock, t, rounds);
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
}  // namespace test_apps

int main(int argc, char** argv) {
  return test_apps::run_main("capture_trace_threads", [&] { return test_apps::threads_main(argc, argv); });
}
