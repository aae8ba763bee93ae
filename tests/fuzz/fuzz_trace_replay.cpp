// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes as a decompressed Vulkan capture, each
// call's values decoded by trak-replay's decoder (registry-driven structs,
// arrays, pNext chains, template data) and checked as the replay checks them
// before a driver would see them. No device: the decoding is the parser.
#include <cstdint>
#include <string>
#include <vector>

#include "bytes_decoder.hpp"
#include "libtrace/apitrace/parser.hpp"
#include "libtrace/core/error.hpp"
#include "registry/registry.hpp"
#include "replay/trace/decode.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace libtrace;
  try {
    apitrace::Parser parser(std::make_unique<BytesDecoder>(data, size, Container::snappy), "fuzz");
    replay_trace::HandleMap handles;
    replay_trace::Arena arena;
    replay_trace::TemplateLayout layout;
    layout.entries = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2, 0, 24},
                      {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, 48, 24},
                      {VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16, 72, 0}};
    while (const apitrace::Call* call = parser.next()) {
      const registry::Command* cmd = registry::find_command(call->name());
      if (!cmd) continue;
      replay_trace::CallDecoder d(*call, arena, handles);
      const auto params = cmd->params();
      std::vector<std::uint64_t> slots;
      std::vector<void*> ptrs;
      d.params(params, slots, ptrs);
      if (!params.empty()) d.template_data(layout, d.arg(params.size() - 1));
      // Handles the calls make are known to the calls after them.
      for (std::size_t i = 0; i < params.size(); ++i)
        for (const std::uint64_t h : d.handles_of(d.arg(i))) handles.set(h, h);
      arena.clear();
    }
  } catch (const Error&) {
    // Rejecting bad input with an Error is the expected outcome.
  }
  return 0;
}
