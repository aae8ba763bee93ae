// SPDX-License-Identifier: MIT
// Format sniffing (core/sniff.hpp).
#include "libtrace/core/sniff.hpp"

#include <algorithm>
#include <string>

namespace libtrace {

namespace {

bool starts_json_object(std::string_view head) {
  for (char c : head) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{';
  }
  return false;
}

}  // namespace

std::string_view format_name(Format f) {
  switch (f) {
    case Format::apitrace: return "an apitrace trace";
    case Format::vma_recording: return "a VMA calls recording";
    case Format::foz_archive: return "a Fossilize archive";
    case Format::foz_json: return "Fossilize JSON";
    case Format::gfxr_capture: return "a gfxreconstruct capture";
  }
  return "?";
}

std::optional<Format> format_of_head(std::string_view head) {
  // A file cut inside the magic still names itself, so that its reader says
  // "truncated header" rather than "not a trace" (a 1-byte head is a 1-byte
  // file).
  if (!head.empty() && head.substr(0, kFozMagic.size()) == kFozMagic.substr(0, std::min(head.size(), kFozMagic.size())))
    return Format::foz_archive;
  if (head.substr(0, 4) == "GFXR") return Format::gfxr_capture;
  if (starts_json_object(head)) return Format::foz_json;
  return std::nullopt;
}

Sniffed sniff(InputFile& in) {
  if (const auto f = format_of_head(in.peek(64))) return {*f, nullptr};
  std::string first;
  Sniffed s;
  s.stream = peek_stream(open_decoder(in), kVmaRecordingMagic.size(), first);
  // `first` is shorter than the magic only where the whole stream is: a
  // recording cut inside its first words is still one.
  const bool recording = first.rfind(kVmaRecordingMagic, 0) == 0 ||
                         (first.size() >= 6 && kVmaRecordingMagic.substr(0, first.size()) == first);
  s.format = recording ? Format::vma_recording : Format::apitrace;
  return s;
}

}  // namespace libtrace
