// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include "libtrace/core/sniff.hpp"
#include "test_util.hpp"

using namespace libtrace;

TEST_CASE("sniff: the first bytes name archives, captures and JSON; streams need decoding") {
  CHECK(format_of_head(std::string("\x81"
                                   "FOSSILIZEDB\0\0\0\x05",
                                   16)) == Format::foz_archive);
  CHECK(format_of_head("\x81"
                       "FOSSIL") == Format::foz_archive);  // cut inside the magic: the reader explains
  CHECK_FALSE(
      format_of_head("\x81"
                     "FOSSIX"));
  CHECK(format_of_head("\x81") == Format::foz_archive);  // a file of that one byte
  CHECK_FALSE(format_of_head("at"));
  CHECK_FALSE(
      format_of_head("\x81"
                     "at"));
  CHECK(format_of_head("GFXR\0\0\0\0") == Format::gfxr_capture);
  CHECK(format_of_head(" \n\t{\"version\":6}") == Format::foz_json);
  CHECK_FALSE(format_of_head("Vulkan Memory Allocator,Calls recording"));
}

TEST_CASE("sniff: real files, the stream left whole for its reader") {
  struct Case {
    const char* file;
    Format format;
  };
  for (const Case& c :
       {Case{"gears.trace", Format::apitrace}, Case{"gears.gz.trace", Format::apitrace},
        Case{"gears.br.trace", Format::apitrace}, Case{"vma/inexor_vma_replays_rst_1.8.csv", Format::vma_recording},
        Case{"foz/vkcube.72991ed96a80f842.1.foz", Format::foz_archive},
        Case{"foz/vkcube_json/00.72991ed96a80f842.json", Format::foz_json}}) {
    CAPTURE(c.file);
    InputFile in(test::data(c.file));
    Sniffed s = sniff(in);
    CHECK(s.format == c.format);
    const bool stream = c.format == Format::apitrace || c.format == Format::vma_recording;
    CHECK((s.stream != nullptr) == stream);
    if (c.format == Format::vma_recording) {
      Block block;
      REQUIRE(s.stream->next(block));
      CHECK(std::string(block.begin(), block.begin() + 23) == kVmaRecordingMagic);
    }
  }
  CHECK(format_name(Format::gfxr_capture) == "a gfxreconstruct capture");
}
