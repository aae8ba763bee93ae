// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes as a decompressed Vulkan capture,
// replayed on a real Vulkan device (lavapipe in CI: .ci/fuzz names it through
// VK_DRIVER_FILES): the replay itself, not only its decoder. Whatever the
// bytes make, the replay ends with its report or an Error; a crash, a hang
// past libFuzzer's -timeout or a sanitizer report is a bug. Each input's
// devices and instance are gone again when its replay returns.
#include <cstdint>
#include <memory>

#include "bytes_decoder.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/replay/trace/replay.hpp"
#include "libtrace/vk/device.hpp"

// An instance for the whole run, never destroyed, so that the loader keeps
// the driver loaded while each input's replay makes and destroys its own.
// Unloaded, lavapipe's one-time allocations (made once per process, under
// its pthread_once) were reported as a leak from an unknown module.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  try {
    static const libtrace::vk::Instance* keep = new libtrace::vk::Instance;
    (void)keep;
  } catch (const libtrace::Error&) {
    // No Vulkan here: each replay then ends with its Error.
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  libtrace::replay_trace::Options opt;
  // A fence or semaphore nothing signals ends the replay well within the
  // 10 s libFuzzer allows an input.
  opt.wait_seconds = 1;
  try {
    (void)libtrace::replay_trace::replay(std::make_unique<BytesDecoder>(data, size, libtrace::Container::snappy),
                                         "fuzz", opt);
  } catch (const libtrace::Error&) {
    // The replay could not start (no device): the expected outcome for it.
  }
  return 0;
}
