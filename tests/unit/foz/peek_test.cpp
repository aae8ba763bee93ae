// SPDX-License-Identifier: MIT
// The handle peek on Fossilize's own JSON (vkcube_json, the reference's
// examples) and on malformed payloads.
#include <doctest/doctest.h>

#include "foz/foz_test_util.hpp"
#include "foz/peek.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;
using libtrace::foz::detail::Peeked;

namespace {

Peeked peek(Tag tag, const std::string& json) {
  Peeked p;
  libtrace::foz::detail::peek_payload(tag, test::bytes(json), p, "w");
  return p;
}

std::string refs(const Peeked& p) {
  std::string s;
  for (const auto& r : p.refs) s += std::string(foz::tag_name(r.tag)) + ":" + foz::hash_hex(r.hash) + " ";
  return s;
}

std::string json(const std::string& name) { return test::read_file(test::data("foz/vkcube_json/" + name)); }

}  // namespace

TEST_CASE("foz peek: the handles in vkcube's objects, as convert-db wrote them") {
  CHECK(refs(peek(Tag::graphics_pipeline, json("06.e3b925b0c1c00de1.json"))) ==
        "pipeline_layout:2ab80332838222bd render_pass:2ffdabedb67ac3c1 shader_module:8360ba81b60d3962 "
        "shader_module:1778d8b90d391b54 ");
  CHECK(refs(peek(Tag::pipeline_layout, json("03.2ab80332838222bd.json"))) ==
        "descriptor_set_layout:171a553b55beb140 ");
  CHECK(refs(peek(Tag::descriptor_set_layout, json("02.171a553b55beb140.json"))).empty());
  CHECK(refs(peek(Tag::render_pass, json("05.2ffdabedb67ac3c1.json"))).empty());  // its "layout"s are numbers
  // A shader module: JSON, NUL, varint SPIR-V (the JSON says codeSize 1280).
  const Peeked m = peek(Tag::shader_module, json("04.1778d8b90d391b54.json"));
  CHECK(m.code_size == 1280);
  const Peeked l = peek(Tag::application_blob_link, json("08.0b2676b1d8fe7e9f.json"));
  CHECK(l.link_ok);
  CHECK(l.link_application == 0x72991ed96a80f842ull);
  CHECK(l.link_tag == 1);
  CHECK(l.link_hash == 0x27ceff9929c09a63ull);
  const Peeked a = peek(Tag::application_info, json("00.72991ed96a80f842.json"));
  CHECK(a.application_name == "vkcube");
  CHECK(a.engine_name == "vkcube");
}

TEST_CASE("foz peek: compute stages, immutable samplers, libraries, base pipelines, null handles") {
  // From the reference's examples (fossilize.md §3.3), trimmed.
  CHECK(refs(peek(Tag::compute_pipeline,
                  R"({"version":6,"computePipelines":{"079a6d50ca5935d9":{"flags":0,"layout":"d8e026e744e271a0",)"
                  R"("basePipelineHandle":"0000000000000000","basePipelineIndex":-1,"stage":{"flags":0,"stage":32,)"
                  R"("module":"38088a810dd95cd3","name":"main"}}}})")) ==
        "pipeline_layout:d8e026e744e271a0 shader_module:38088a810dd95cd3 ");
  CHECK(refs(peek(Tag::descriptor_set_layout,
                  R"({"version":6,"setLayouts":{"89e95f8b46cf0f04":{"flags":0,"bindings":[{"descriptorType":6,)"
                  R"("binding":0},{"descriptorType":1,"binding":1,"immutableSamplers":["31736ec7d9cc5871"]}]}}})")) ==
        "sampler:31736ec7d9cc5871 ");
  CHECK(refs(peek(
            Tag::graphics_pipeline,
            R"({"version":6,"graphicsPipelines":{"01":{"layout":"00000000000000aa","renderPass":"0000000000000000",)"
            R"("basePipelineHandle":"00000000000000bb","stages":[],"pNext":[{"sType":1000290000,)"
            R"("libraries":["00000000000000cc","00000000000000dd"]}]}}})")) ==
        "pipeline_layout:00000000000000aa graphics_pipeline:00000000000000bb graphics_pipeline:00000000000000cc "
        "graphics_pipeline:00000000000000dd ");
  CHECK(refs(peek(Tag::raytracing_pipeline,
                  R"({"version":6,"raytracingPipelines":{"01":{"layout":"00000000000000aa","stages":[{"module":)"
                  R"("00000000000000ee"}],"libraryInfo":{"libraries":["00000000000000cc"]}}}})")) ==
        "pipeline_layout:00000000000000aa shader_module:00000000000000ee raytracing_pipeline:00000000000000cc ");
  // fossilize-opt writes empty application objects.
  const Peeked a = peek(Tag::application_info, R"({"version":6,"applicationInfo":{},"physicalDeviceFeatures":{}})");
  CHECK(a.application_name.empty());
}

TEST_CASE("foz peek: malformed payloads are errors, never crashes") {
  auto error = [](Tag t, const std::string& j) {
    try {
      peek(t, j);
    } catch (const libtrace::Error& e) {
      CHECK(e.where() == "w");
      return e.message();
    }
    return std::string("no error");
  };
  CHECK(error(Tag::sampler, "BBBBBBBBBB") == "bad JSON payload at byte 0: Invalid value.");
  CHECK(error(Tag::graphics_pipeline, R"({"graphicsPipelines":{"1":{"layout":"xyz"}}})") ==
        "bad JSON payload: handle \"xyz\" is not 16 hex digits");
  CHECK(error(Tag::compute_pipeline, std::string(100, '[') + std::string(100, ']')) ==
        "bad JSON payload: nested more than 64 levels");
  CHECK(error(Tag::compute_pipeline, R"({"a":1} x)").starts_with("bad JSON payload at byte 8"));
  CHECK(error(Tag::shader_module, std::string("{}\0\x01\x02", 5)) == "no error");
}

TEST_CASE("foz peek: parsing in place finds the same as parsing a copy, and leaves the size alone") {
  for (const char* name : {"06.e3b925b0c1c00de1.json", "03.2ab80332838222bd.json", "04.1778d8b90d391b54.json",
                           "08.0b2676b1d8fe7e9f.json", "00.72991ed96a80f842.json"}) {
    const std::string text = json(name);
    const Tag tag = static_cast<Tag>(std::stoi(std::string(name).substr(0, 2), nullptr, 16));
    std::vector<std::uint8_t> buf(text.begin(), text.end());
    Peeked p;
    libtrace::foz::detail::peek_payload_in_place(tag, buf, p, "w");
    const Peeked q = peek(tag, text);
    CHECK(refs(p) == refs(q));
    CHECK(p.code_size == q.code_size);
    CHECK(p.link_hash == q.link_hash);
    CHECK(p.application_name == q.application_name);
    CHECK(buf.size() == text.size());
  }
  // rapidjson (Fossilize's parser too) ends a document at a NUL; the two paths agree.
  std::vector<std::uint8_t> nul{'{', '}', 0, 'x'};
  Peeked p;
  CHECK_NOTHROW(libtrace::foz::detail::peek_payload_in_place(Tag::pipeline_layout, nul, p, "w"));
  CHECK_NOTHROW(peek(Tag::pipeline_layout, std::string("{}\0x", 4)));
  std::vector<std::uint8_t> bad{'{', '"', 'a', '"'};
  CHECK_THROWS_AS(libtrace::foz::detail::peek_payload_in_place(Tag::graphics_pipeline, bad, p, "w"), libtrace::Error);
  CHECK(bad.size() == 4);
}
