// SPDX-License-Identifier: MIT
// .foz <-> JSON conversion: both layouts, bucket infos, hash checks, and what
// is kept when an entry is bad.
#include "libtrace/foz/convert.hpp"

#include <doctest/doctest.h>

#include <filesystem>

#include "foz/foz_test_util.hpp"
#include "foz/object_test_util.hpp"
#include "libtrace/core/error.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

namespace {

const std::string kVkcube = test::data("foz/vkcube.72991ed96a80f842.1.foz");

foz::FozConvertResult to_json(const std::string& in, const std::string& out, foz::JsonLayout layout,
                              bool check = true) {
  foz::FozToJsonOptions o;
  o.input = in;
  o.output = out;
  o.layout = layout;
  o.check_hashes = check;
  libtrace::InputFile f(in);
  return foz::foz_to_json(o, f);
}

foz::FozConvertResult to_foz(const std::string& in, const std::string& out, bool check = true) {
  foz::JsonToFozOptions o;
  o.input = in;
  o.output = out;
  o.check_hashes = check;
  if (std::filesystem::is_directory(in)) return foz::json_to_foz(o, nullptr);
  libtrace::InputFile f(in);
  return foz::json_to_foz(o, &f);
}

// An archive of `entries` written as Fossilize's layer would.
void write_archive(const std::string& path, const std::vector<std::tuple<Tag, foz::Hash, std::string>>& entries) {
  foz::ArchiveWriter w(path);
  for (const auto& [tag, hash, payload] : entries) w.write(tag, hash, test::bytes(payload));
  w.commit();
}

}  // namespace

TEST_CASE("foz convert: a document holds every entry, and comes back as the same payloads") {
  test::ScratchDir dir;
  const auto r = to_json(kVkcube, dir / "doc.json", foz::JsonLayout::document);
  CHECK(r.entries == 15);
  CHECK(r.hashes_checked == 15);
  foz::Arena arena;
  const std::string text = test::read_file(dir / "doc.json");
  CHECK(text.back() == '\n');
  const auto objects = foz::parse_document(text, arena, "doc");
  CHECK(objects.size() == 15);
  test::ParsedArchive a(kVkcube);
  for (const foz::Object& o : objects) CHECK(foz::serialize_payload(o, "doc") == a.payloads.at({o.tag, o.hash}));
  CHECK(to_foz(dir / "doc.json", dir / "back.foz").entries == 15);
  test::ParsedArchive b(dir / "back.foz");
  CHECK(b.payloads == a.payloads);
}

TEST_CASE("foz convert: bucket infos stay verbatim in both layouts") {
  test::ScratchDir dir;
  const std::string bucket = R"({"asset":"FossilizeBucket","version":1,"deps":[{"x":1}]})";
  // Fossilize keys a bucket by Hasher::string of its JSON.
  foz::Hash hash = 0xcbf29ce484222325ull;
  for (unsigned v : std::vector<unsigned>{0xff}) hash = (hash * 0x100000001b3ull) ^ v;
  for (char c : bucket) hash = (hash * 0x100000001b3ull) ^ static_cast<std::uint8_t>(c);
  struct {
    foz::Hash v;
    foz::Hash get() const { return v; }
  } h{hash};
  test::ParsedArchive vk(kVkcube);
  std::vector<std::tuple<Tag, foz::Hash, std::string>> entries;
  for (const auto& [key, payload] : vk.payloads) entries.emplace_back(key.first, key.second, payload);
  entries.emplace_back(Tag::bucket_info, h.get(), bucket);
  write_archive(dir / "b.foz", entries);

  to_json(dir / "b.foz", dir / "d", foz::JsonLayout::directory);
  CHECK(test::read_file(dir / ("d/" + foz::json_entry_name(Tag::bucket_info, h.get()) + ".json")) == bucket);
  to_json(dir / "b.foz", dir / "doc.json", foz::JsonLayout::document);
  CHECK(test::read_file(dir / "doc.json").find("\"bucketInfos\":{\"" + foz::hash_hex(h.get()) + "\":" + bucket + "}") !=
        std::string::npos);
  for (const char* in : {"d", "doc.json"}) {
    to_foz(dir / in, dir / "again.foz");
    foz::ArchiveReader r(dir / "again.foz");
    CHECK(r.size() == 16);
    const auto p = r.read_payload(Tag::bucket_info, h.get());
    CHECK(std::string(p.begin(), p.end()) == bucket);
  }
}

TEST_CASE(
    "foz convert: an entry filed under another hash than its JSON key is an error; --check-hashes finds the rest") {
  test::ScratchDir dir;
  test::ParsedArchive vk(kVkcube);
  const std::string sampler = vk.payloads.at({Tag::sampler, 0x27ceff9929c09a63ull});
  const std::string app = vk.payloads.at({Tag::application_info, 0x72991ed96a80f842ull});
  write_archive(dir / "key.foz", {{Tag::sampler, 0x1234, sampler}});
  CHECK_THROWS_WITH_AS(to_json(dir / "key.foz", dir / "k.json", foz::JsonLayout::document, false),
                       (dir / "key.foz" +
                        ": offset 16: sampler 0000000000001234: the JSON key is 27ceff9929c09a63, "
                        "not the entry's hash 0000000000001234 (output so far kept in " +
                        dir / "k.json.partial)")
                           .c_str(),
                       libtrace::Error);
  // An application info has no key; only its hash can tell.
  write_archive(dir / "app.foz", {{Tag::application_info, 0x99, app}});
  CHECK(to_json(dir / "app.foz", dir / "a", foz::JsonLayout::directory, false).entries == 1);
  CHECK_THROWS_WITH_AS(
      to_json(dir / "app.foz", dir / "a", foz::JsonLayout::directory, true),
      (dir / "app.foz" +
       ": offset 16: application_info 0000000000000099: hash mismatch: the object hashes to 72991ed96a80f842")
          .c_str(),
      libtrace::Error);
}

TEST_CASE("foz convert: a bad entry stops the document, which keeps the entries before it") {
  test::ScratchDir dir;
  test::ParsedArchive vk(kVkcube);
  write_archive(dir / "bad.foz",
                {{Tag::sampler, 0x27ceff9929c09a63ull, vk.payloads.at({Tag::sampler, 0x27ceff9929c09a63ull})},
                 {Tag::pipeline_layout, 0x42, R"({"version":6,"pipelineLayouts":{"42":{"flags":"x"}}})"}});
  CHECK_THROWS_AS(to_json(dir / "bad.foz", dir / "out.json", foz::JsonLayout::document), libtrace::Error);
  CHECK_FALSE(std::filesystem::exists(dir / "out.json"));
  foz::Arena arena;
  const auto kept = foz::parse_document(test::read_file(dir / "out.json.partial"), arena, "partial");
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].tag == Tag::sampler);
  // A directory keeps the files written before the bad entry.
  std::string message;
  try {
    to_json(dir / "bad.foz", dir / "d", foz::JsonLayout::directory);
  } catch (const libtrace::Error& e) {
    message = e.what();
  }
  CHECK(
      message.ends_with(": pipeline_layout 0000000000000042: pipelineLayouts.42.flags: expected an unsigned 32-bit "
                        "integer, got a string"));
  CHECK(std::filesystem::exists(dir / "d/01.27ceff9929c09a63.json"));
}

TEST_CASE("foz convert: a directory with foreign files") {
  test::ScratchDir dir;
  to_json(kVkcube, dir / "d", foz::JsonLayout::directory);
  test::write_file(dir / "d/README", "notes");
  std::vector<std::string> warnings;
  foz::JsonToFozOptions o;
  o.input = dir / "d";
  o.output = dir / "x.foz";
  o.warnings = [&](const std::string& where, const std::string& why) { warnings.push_back(where + ": " + why); };
  CHECK(foz::json_to_foz(o, nullptr).entries == 15);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == dir / "d/README: skipped: not a .json entry file");
  test::write_file(dir / "d/0b.0000000000000001.json", "{}");
  CHECK_THROWS_WITH_AS(
      foz::json_to_foz(o, nullptr),
      (dir / "d/0b.0000000000000001.json: not an entry file name (TT.HHHHHHHHHHHHHHHH.json with a known tag)").c_str(),
      libtrace::Error);
}
