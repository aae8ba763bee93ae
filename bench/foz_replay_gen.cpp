// SPDX-License-Identifier: MIT
// Generates a large Fossilize archive for the replay benchmark, as
// fossilize-synth --multi-spec does: variants of the real compute pipeline of
// synth_compute.foz that differ in their specialization constants (workgroup
// size 32/64/128/256 x ITER 0..1499, SCALE 1.5), each filed under its
// Fossilize hash (computed by the object model's recipes). The archive's
// other objects (application info, layouts, the module) are copied as they
// are. Not installed.
// usage: foz-replay-gen SYNTH_COMPUTE.foz OUT.foz COUNT
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "libtrace/foz/archive.hpp"
#include "libtrace/foz/object.hpp"

namespace foz = libtrace::foz;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: foz-replay-gen SYNTH_COMPUTE.foz OUT.foz COUNT\n");
    return 2;
  }
  const unsigned long count = std::strtoul(argv[3], nullptr, 10);
  try {
    foz::ArchiveReader in(argv[1]);
    foz::ArchiveWriter out(argv[2]);
    std::vector<std::uint8_t> stored;
    for (const auto& e : in.entries()) {
      if (e.tag == foz::Tag::compute_pipeline || e.tag == foz::Tag::application_blob_link) continue;
      in.read_stored(e, stored);
      out.write_raw(e.tag, e.hash, e.header, stored);
    }
    const auto hashes = in.hashes(foz::Tag::compute_pipeline);
    if (hashes.empty()) throw libtrace::Error(libtrace::Errc::usage, argv[1], "has no compute pipeline");
    const auto payload = in.read_payload(foz::Tag::compute_pipeline, hashes.front());
    foz::Arena arena;
    foz::Object o = foz::parse_payload(std::string_view(reinterpret_cast<const char*>(payload.data()), payload.size()),
                                       arena, argv[1]);
    const auto* spec = o.as<VkComputePipelineCreateInfo>()->stage.pSpecializationInfo;
    if (!spec || spec->dataSize != 12) throw libtrace::Error(libtrace::Errc::usage, argv[1], "unexpected spec data");
    auto* data = static_cast<std::uint8_t*>(const_cast<void*>(spec->pData));  // the arena's, writable
    const std::uint32_t sizes[] = {32, 64, 128, 256};
    const foz::Lookup none = [](foz::Tag, foz::Hash) -> const foz::Object* { return nullptr; };
    unsigned long written = 0;
    for (unsigned long k = 0; written < count; ++k) {
      const std::uint32_t wg = sizes[(k / 1500) % 4], iter = static_cast<std::uint32_t>(k % 1500);
      const float scale = 1.5f + static_cast<float>(k / 6000);
      std::memcpy(data, &wg, 4);
      std::memcpy(data + 4, &iter, 4);
      std::memcpy(data + 8, &scale, 4);
      o.hash = foz::compute_hash(o, none, argv[1]);
      const std::string json = foz::serialize_payload(o, argv[1]);
      // Uncompressed and without CRC, as fossilize-synth writes.
      written +=
          out.write(foz::Tag::compute_pipeline, o.hash,
                    std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(json.data()), json.size()),
                    {foz::PayloadFormat::none, 0, false});
    }
    out.commit();
    std::fprintf(stderr, "foz-replay-gen: %lu compute pipelines in %s\n", written, argv[2]);
  } catch (const libtrace::Error& e) {
    std::fprintf(stderr, "foz-replay-gen: %s\n", e.what());
    return 1;
  }
  return 0;
}
