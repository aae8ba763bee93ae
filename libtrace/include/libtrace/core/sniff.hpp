// SPDX-License-Identifier: MIT
// What a file is, told from its first bytes: the one place the tools ask.
// Each format module still parses its own files; this only names them, so
// that every tool accepts what it can and says what a file is when it cannot.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "libtrace/core/codec.hpp"
#include "libtrace/core/io.hpp"

namespace libtrace {

enum class Format {
  apitrace,       // an apitrace trace stream (snappy, gzip, brotli or zstd)
  vma_recording,  // a VMA calls recording (CSV, plain or compressed)
  foz_archive,    // a Fossilize .foz archive
  foz_json,       // Fossilize JSON (a document, or one entry's file)
  gfxr_capture,   // a gfxreconstruct capture: recognised, not read
};

// "an apitrace trace", "a VMA calls recording", "a Fossilize archive",
// "Fossilize JSON", "a gfxreconstruct capture".
std::string_view format_name(Format f);

// Signatures the format modules share with the sniffer.
inline constexpr std::string_view kFozMagic{
    "\x81"
    "FOSSILIZEDB",
    12};
inline constexpr std::string_view kVmaRecordingMagic = "Vulkan Memory Allocator";

// What the first bytes alone tell (`head`: the first 64, or the whole file
// when it is shorter): an archive (also one cut inside its magic), a
// gfxreconstruct capture, a JSON document; or
// nullopt for a stream, which sniff() decompresses to tell a trace from a
// recording.
std::optional<Format> format_of_head(std::string_view head);

struct Sniffed {
  Format format = Format::apitrace;
  // For apitrace traces and VMA recordings: the decompressed stream from its
  // first byte. Archives and JSON are left in the InputFile, peeked at only.
  std::unique_ptr<Decoder> stream;
};

// Reads as little of `in` as it must. Anything that is none of the formats
// above is taken for an apitrace stream whose container is unknown: the
// decoder then fails with bad_magic on its first block, naming the offset.
Sniffed sniff(InputFile& in);

}  // namespace libtrace
