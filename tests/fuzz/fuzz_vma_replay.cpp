// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes as a VMA calls recording, replayed on a
// real Vulkan device (lavapipe in CI: .ci/fuzz names it through
// VK_DRIVER_FILES). What the reader accepts drives trak's suballocator, the
// create-info sanitising and the device's own objects; every input's objects
// are gone again when its replay returns, so one device serves them all.
#include <cstdint>
#include <memory>

#include "bytes_decoder.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/replay/vma/replay.hpp"
#include "libtrace/vk/device.hpp"

namespace {

struct Env {
  libtrace::vk::Instance instance;
  libtrace::vk::Device device{instance, instance.select(""), libtrace::vma::replay_device_options()};
};

// Never destroyed: the loader would unload the driver at exit, and what
// the driver keeps for the process would then be reported as leaks from an
// unknown module.
const Env& env() {
  static const Env* e = new Env;
  return *e;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Env& e = env();
  for (bool keep_going : {false, true}) {
    libtrace::vma::ReplayOptions opt;
    opt.keep_going = keep_going;
    // Vulkan's guaranteed minimum: a mutated Config can lift the recorded
    // device's limit, and one pool line could then ask lavapipe for millions
    // of objects (out of memory under ASan, not a bug).
    opt.max_memory_objects = 4096;
    try {
      const auto r = libtrace::vma::replay(std::make_unique<BytesDecoder>(data, size, libtrace::Container::plain),
                                           "fuzz", e.device, opt);
      (void)libtrace::vma::report_table(r);
      (void)libtrace::vma::report_json(r);
    } catch (const libtrace::Error&) {
    }
  }
  return 0;
}
