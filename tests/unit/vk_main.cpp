// SPDX-License-Identifier: MIT
// doctest entry point for the unit-vk binary: tests on a real Vulkan device
// (lavapipe in CI, chosen through VK_DRIVER_FILES by tests/meson.build).
// Without a device they are skipped (77), except under CI, where a missing
// device must fail the run rather than pass it unseen.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>

#include "libtrace/vk/device.hpp"

int main(int argc, char** argv) {
  std::string why;
  try {
    libtrace::vk::Instance instance;
    if (instance.physical_devices().empty()) why = "the loader found no device";
  } catch (const libtrace::Error& e) {
    why = e.what();
  }
  if (!why.empty()) {
    const char* ci = std::getenv("CI");
    if (ci && *ci) {
      std::fprintf(stderr, "unit-vk: no Vulkan device (%s), and CI is set: failing\n", why.c_str());
      return 1;
    }
    std::fprintf(stderr, "unit-vk: no Vulkan device (%s): skipped\n", why.c_str());
    return 77;
  }
  doctest::Context ctx(argc, argv);
  return ctx.run();
}
