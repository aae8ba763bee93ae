// SPDX-License-Identifier: MIT
// capture_misbehave: what real programs do to a capture layer that a tidy
// test program does not. It makes an instance and a device, records a
// command buffer that fills a buffer, submits it, waits, and then ends as
// told:
//   --end destroy   destroys everything (the default)
//   --end leak      returns from main without vkDestroyDevice/Instance
//   --end exit      exit(0) at once, nothing destroyed
//   --end _exit     _exit(0) at once: no atexit handler, no destructor
//   --end segv      a fault (SIGSEGV) right after the submit
//   --end abort     abort() right after the submit
// --submits N submits it N times (default 1); --chdir DIR changes directory
// first (as a game's launch script does); --fork makes a child process that
// does the same with an instance and device of its own, after the parent's
// device is made, and leaves with _exit().
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "vk_app.hpp"

namespace capture_apps {
namespace {

const char* const kUsage =
    "usage: capture_misbehave [--end destroy|leak|exit|_exit|segv|abort] [--submits N] [--chdir DIR] [--fork]\n";

struct Options {
  std::string end = "destroy";
  int submits = 1;
  bool fork = false;
};

// Ends the process the way --end says, right after the work is done.
[[noreturn]] void end_now(const std::string& how) {
  std::fflush(stdout);
  if (how == "_exit") ::_exit(0);
  if (how == "segv") {
    // A real fault, as a bug makes one: whatever handler is installed runs.
    volatile int* nowhere = nullptr;
    *nowhere = 1;
  }
  if (how == "abort") std::abort();
  std::exit(0);
}

void work(const Instance& instance, const Device& device, const Options& o) {
  const auto& vk = device.vk();
  const VkDevice dev = device.handle();
  VkQueue queue = VK_NULL_HANDLE;
  vk.vkGetDeviceQueue(dev, instance.queue_family(), 0, &queue);

  VkBufferCreateInfo bci{};
  bci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bci.size = 4096;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  APP_CHECK(vk.vkCreateBuffer(dev, &bci, nullptr, &buffer));
  VkMemoryRequirements req{};
  vk.vkGetBufferMemoryRequirements(dev, buffer, &req);
  VkPhysicalDeviceMemoryProperties mp{};
  vkGetPhysicalDeviceMemoryProperties(instance.physical(), &mp);
  std::uint32_t type = 0;
  while (type < mp.memoryTypeCount && !(req.memoryTypeBits & (1u << type))) ++type;
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
  VkDeviceMemory memory = VK_NULL_HANDLE;
  APP_CHECK(vk.vkAllocateMemory(dev, &ai, nullptr, &memory));
  APP_CHECK(vk.vkBindBufferMemory(dev, buffer, memory, 0));

  VkCommandPoolCreateInfo pci{};
  pci.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pci.queueFamilyIndex = instance.queue_family();
  VkCommandPool pool = VK_NULL_HANDLE;
  APP_CHECK(vk.vkCreateCommandPool(dev, &pci, nullptr, &pool));
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                  VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  APP_CHECK(vk.vkAllocateCommandBuffers(dev, &cai, &cmd));
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  APP_CHECK(vk.vkBeginCommandBuffer(cmd, &begin));
  vk.vkCmdFillBuffer(cmd, buffer, 0, VK_WHOLE_SIZE, 0x2a2a2a2a);
  APP_CHECK(vk.vkEndCommandBuffer(cmd));
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  for (int i = 0; i < o.submits; ++i) {
    APP_CHECK(vk.vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
    APP_CHECK(vk.vkQueueWaitIdle(queue));
  }
  if (o.end != "destroy" && o.end != "leak") end_now(o.end);
  if (o.end == "leak") return;
  vk.vkDestroyCommandPool(dev, pool, nullptr);
  vk.vkDestroyBuffer(dev, buffer, nullptr);
  vk.vkFreeMemory(dev, memory, nullptr);
}

int run(const Options& o) {
  if (o.end == "leak") {
    // Never destroyed: the objects are left to the process's end.
    auto* instance = new Instance("capture_misbehave", "trak-tests");
    auto* device = new Device(*instance, {});
    work(*instance, *device, o);
    return 0;
  }
  const Instance instance("capture_misbehave", "trak-tests");
  const Device device(instance, {});
  pid_t child = -1;
  if (o.fork) {
    child = ::fork();
    if (child < 0) throw VkError("fork failed");
    if (child == 0) {
      // A new process with its own instance, as a program that forks a
      // worker does; the parent's objects are not the child's to use.
      {
        const Instance mine("capture_misbehave-child", "trak-tests");
        const Device dev(mine, {});
        work(mine, dev, o);
      }
      // Not exit(): lavapipe's exit handler joins threads of the parent's
      // device, which the child does not have, and waits forever.
      ::_exit(0);
    }
  }
  work(instance, device, o);
  if (child > 0) {
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
  }
  return 0;
}

}  // namespace
}  // namespace capture_apps

int main(int argc, char** argv) {
  capture_apps::Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--end" && next) {
      o.end = next, ++i;
    } else if (a == "--submits" && next) {
      o.submits = std::atoi(next), ++i;
    } else if (a == "--chdir" && next) {
      if (::chdir(next) != 0) {
        std::fprintf(stderr, "capture_misbehave: %s: %s\n", next, std::strerror(errno));
        return 1;
      }
      ++i;
    } else if (a == "--fork") {
      o.fork = true;
    } else {
      std::fputs(capture_apps::kUsage, a == "--help" ? stdout : stderr);
      return a == "--help" ? 0 : 2;
    }
  }
  const char* ends[] = {"destroy", "leak", "exit", "_exit", "segv", "abort"};
  bool known = false;
  for (const char* e : ends) known = known || o.end == e;
  if (!known || o.submits < 1) {
    std::fputs(capture_apps::kUsage, stderr);
    return 2;
  }
  try {
    return capture_apps::run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "capture_misbehave: %s\n", e.what());
    return 1;
  }
}
