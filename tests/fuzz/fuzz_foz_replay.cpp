// SPDX-License-Identifier: MIT
// libFuzzer target: what trak-replay parses besides archives: pipeline-cache
// headers (--load-cache files), --range and --shard values, SPIR-V preambles
// (capability scan) and the frames workers send their parent.
#include <cstdint>
#include <string>
#include <vector>

#include "libtrace/core/error.hpp"
#include "libtrace/replay/foz/replay.hpp"
#include "replay/foz/cache.hpp"
#include "replay/foz/plan.hpp"
#include "replay/foz/proto.hpp"
#include "replay/foz/require.hpp"

namespace foz = libtrace::foz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string why;
  if (const auto h = foz::detail::parse_cache_header({data, size}, why)) {
    const std::uint8_t uuid[16] = {};
    (void)foz::detail::cache_mismatch(*h, 0x10005, 0, uuid);
  }

  const std::string text(reinterpret_cast<const char*>(data), size);
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, nl - at);
    try {
      const auto r = foz::parse_range(line);
      if (r.range.first > r.range.last) __builtin_trap();
    } catch (const libtrace::Error&) {
    }
    try {
      const auto s = foz::parse_shard(line);
      const auto [b, e] = foz::detail::shard_bounds(s, size * 1000003ull);
      if (b > e || s.index >= s.count) __builtin_trap();
    } catch (const libtrace::Error&) {
    }
    at = nl + 1;
  }

  std::vector<std::uint32_t> words(size / 4);
  for (std::size_t i = 0; i < words.size(); ++i)
    words[i] = std::uint32_t(data[4 * i]) | std::uint32_t(data[4 * i + 1]) << 8 | std::uint32_t(data[4 * i + 2]) << 16 |
               std::uint32_t(data[4 * i + 3]) << 24;
  if (!words.empty()) words[0] = 0x07230203;  // past the magic, into the instructions
  foz::detail::Needs needs;
  foz::detail::spirv_needs(words, needs);
  (void)foz::detail::lacking(needs, foz::detail::Capabilities());

  std::string buf = text;
  foz::detail::MsgKind kind;
  std::string body;
  while (foz::detail::next_frame(buf, kind, body)) {
    foz::detail::MsgIn in(body);
    (void)in.u8();
    (void)in.u64();
    (void)in.str();
    std::uint8_t uuid[16];
    in.take(uuid, sizeof uuid);
    (void)in.u32();
  }
  return 0;
}
