// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes as a Fossilize entry payload and as a
// whole-state document, through the object model: parse, hash, write, and
// what was written must read back and write again to the same bytes.
#include <cstdint>
#include <string>
#include <string_view>

#include "libtrace/core/error.hpp"
#include "libtrace/foz/object.hpp"

namespace foz = libtrace::foz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  try {
    foz::Arena arena;
    const foz::Object o = foz::parse_payload(in, arena, "fuzz");
    try {
      (void)foz::compute_hash(o, {}, "fuzz");
    } catch (const libtrace::Error&) {
      // A graphics pipeline's render pass is not there: expected.
    }
    const std::string written = foz::serialize_payload(o, "fuzz");
    foz::Arena again;
    const foz::Object back = foz::parse_payload(written, again, "fuzz");
    if (foz::serialize_payload(back, "fuzz") != written) __builtin_trap();
  } catch (const libtrace::Error&) {
  }
  try {
    foz::Arena arena;
    const auto objects = foz::parse_document(in, arena, "fuzz");
    std::string doc;
    foz::DocumentWriter w([&](std::string_view bytes) { doc += bytes; });
    for (const foz::Object& o : objects) w.add(o, "fuzz");
    w.finish();
    foz::Arena again;
    if (foz::parse_document(doc, again, "fuzz").size() != objects.size()) __builtin_trap();
  } catch (const libtrace::Error&) {
  }
  return 0;
}
