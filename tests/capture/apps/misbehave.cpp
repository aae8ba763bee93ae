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

namespace test_apps {
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

void work(const Device& device, const Options& o) {
  const auto& vk = device.vk();
  const VkQueue queue = device.queue();
  BoundBuffer buffer = make_buffer(device, 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0);
  CommandPool pool = make_command_pool(device);
  const VkCommandBuffer cmd = allocate_commands(device, pool.get());
  begin_commands(device, cmd);
  vk.vkCmdFillBuffer(cmd, buffer.get(), 0, VK_WHOLE_SIZE, 0x2a2a2a2a);
  APP_CHECK(vk.vkEndCommandBuffer(cmd));
  for (int i = 0; i < o.submits; ++i) {
    submit(device, queue, cmd, VK_NULL_HANDLE);
    APP_CHECK(vk.vkQueueWaitIdle(queue));
  }
  if (o.end != "destroy" && o.end != "leak") end_now(o.end);
  if (o.end == "leak") {
    pool.release();
    buffer.buffer.release();
    buffer.memory.release();
  }
}

int run(const Options& o) {
  if (o.end == "leak") {
    // Never destroyed: the objects are left to the process's end.
    auto* instance = new Instance("capture_misbehave");
    auto* device = new Device(*instance, {});
    work(*device, o);
    return 0;
  }
  const Instance instance("capture_misbehave");
  const Device device(instance, {});
  pid_t child = -1;
  if (o.fork) {
    child = ::fork();
    if (child < 0) throw VkError("fork failed");
    if (child == 0) {
      // A new process with its own instance, as a program that forks a
      // worker does; the parent's objects are not the child's to use.
      {
        const Instance mine("capture_misbehave-child");
        const Device dev(mine, {});
        work(dev, o);
      }
      // Not exit(): lavapipe's exit handler joins threads of the parent's
      // device, which the child does not have, and waits forever.
      ::_exit(0);
    }
  }
  work(device, o);
  if (child > 0) {
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
  }
  return 0;
}

}  // namespace
}  // namespace test_apps

int main(int argc, char** argv) {
  test_apps::Options o;
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
      std::fputs(test_apps::kUsage, a == "--help" ? stdout : stderr);
      return a == "--help" ? 0 : 2;
    }
  }
  const char* ends[] = {"destroy", "leak", "exit", "_exit", "segv", "abort"};
  bool known = false;
  for (const char* e : ends) known = known || o.end == e;
  if (!known || o.submits < 1) {
    std::fputs(test_apps::kUsage, stderr);
    return 2;
  }
  return test_apps::run_main("capture_misbehave", [&] { return test_apps::run(o); });
}
