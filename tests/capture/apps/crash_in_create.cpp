// SPDX-License-Identifier: MIT
// capture_crash_in_create: makes the Vulkan driver itself fault (SIGSEGV)
// inside vkCreateGraphicsPipelines, so that the tests can check that a
// capture layer has the pipeline on disk before the process dies.
//
// How: the fourth pipeline chains a VkPipelineCreationFeedbackCreateInfo
// (core in 1.3) whose pPipelineCreationFeedback points at a PROT_NONE page.
// The driver writes the feedback at the end of the creation and faults;
// a capture layer never touches that struct (Fossilize does not serialize
// it), so the fault is the driver's and the layer has the create info it
// recorded. The feedback does not enter the pipeline's hash either:
// --no-crash creates the same four pipelines with a writable feedback, and
// the two captures must hold the same hashes.
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "pipelines.hpp"

namespace test_apps {
namespace {

const char* const kUsage =
    "usage: capture_crash_in_create [--no-crash]\n"
    "  Creates three graphics pipelines, then a fourth (specialization constant 777)\n"
    "  during whose creation the driver faults. --no-crash: the fourth succeeds.\n";

constexpr std::uint32_t kFatalVariant = 777;

VkPipeline create(const Device& device, const VkGraphicsPipelineCreateInfo& ci) {
  VkPipeline p = VK_NULL_HANDLE;
  APP_CHECK(device.vk().vkCreateGraphicsPipelines(device.handle(), VK_NULL_HANDLE, 1, &ci, nullptr, &p));
  return p;
}

int crash_main(bool crash) {
  const Instance instance("crash_in_create");
  const Device device(instance, {});
  const Shared shared(device, true, false);
  Pipeline pipelines[4];
  for (std::uint32_t i = 0; i < 3; ++i) {
    const GraphicsInfo info(device, shared, {i + 1, Target::render_pass, false});
    pipelines[i] = Pipeline(device, create(device, info.complete()));
  }

  // Whole pages, so that nothing else of the process shares the fatal one.
  const long page = sysconf(_SC_PAGESIZE);
  void* const fatal = mmap(nullptr, static_cast<std::size_t>(page), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (fatal == MAP_FAILED) throw VkError(std::string("mmap: ") + std::strerror(errno));
  VkPipelineCreationFeedback writable{};
  VkPipelineCreationFeedbackCreateInfo feedback{};
  feedback.sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO;
  feedback.pPipelineCreationFeedback = crash ? static_cast<VkPipelineCreationFeedback*>(fatal) : &writable;

  const GraphicsInfo info(device, shared, {kFatalVariant, Target::render_pass, false});
  VkGraphicsPipelineCreateInfo ci = info.complete();
  feedback.pNext = ci.pNext;
  ci.pNext = &feedback;
  if (crash) {
    std::fputs("crash_in_create: about to create the crashing pipeline\n", stderr);
    std::fflush(stderr);
  }
  pipelines[3] = Pipeline(device, create(device, ci));
  munmap(fatal, static_cast<std::size_t>(page));
  if (crash) {
    std::fputs("capture_crash_in_create: the driver did not write the creation feedback, so it did not crash\n",
               stderr);
    return 1;
  }
  std::printf("crash_in_create: graphics 4, feedback %s\n",
              (writable.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) ? "written" : "not written");
  return 0;
}

}  // namespace
}  // namespace test_apps

int main(int argc, char** argv) {
  bool crash = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--no-crash") {
      crash = false;
    } else if (a == "--help" || a == "-h") {
      std::fputs(test_apps::kUsage, stdout);
      return 0;
    } else {
      std::fprintf(stderr, "capture_crash_in_create: unknown option %s\n%s", a.c_str(), test_apps::kUsage);
      return 2;
    }
  }
  return test_apps::run_main("capture_crash_in_create", [&] { return test_apps::crash_main(crash); });
}
