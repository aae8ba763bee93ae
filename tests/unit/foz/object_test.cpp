// SPDX-License-Identifier: MIT
// Parsing entry payloads into create infos and writing them back in
// Fossilize's layout, on the JSON Fossilize itself wrote; strict errors.
#include "libtrace/foz/object.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string_view>
#include <utility>

#include "foz/object_test_util.hpp"
#include "libtrace/core/error.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

namespace {

std::string parse_error(const std::string& payload) {
  foz::Arena arena;
  try {
    foz::parse_payload(payload, arena, "e");
  } catch (const libtrace::Error& e) {
    CHECK(e.code() == libtrace::Errc::bad_record);
    return e.what();
  }
  return "no error";
}

const std::string kSampler =
    R"({"version":6,"samplers":{"27ceff9929c09a63":{"flags":0,"minFilter":1,"magFilter":1,"maxAnisotropy":1.0,"compareOp":0,)"
    R"("anisotropyEnable":0,"mipmapMode":0,"addressModeU":2,"addressModeV":2,"addressModeW":2,"borderColor":0,)"
    R"("unnormalizedCoordinates":0,"compareEnable":0,"mipLodBias":0.0,"minLod":0.0,"maxLod":0.0}}})";

}  // namespace

TEST_CASE("foz object: every real entry is written back byte for byte as Fossilize wrote it") {
  std::size_t n = 0;
  for (const std::string& path : test::real_archives()) {
    test::ParsedArchive a(path);
    for (const auto& [key, object] : a.objects) {
      INFO(a.where.at(key));
      const std::string again = foz::serialize_payload(object, a.where.at(key));
      CHECK(again == a.payloads.at(key));
      ++n;
    }
  }
  CHECK(n >= 15);
}

TEST_CASE("foz object: fossilize-convert-db's JSON files parse to the same objects, shader modules included") {
  const std::string dir = test::data("foz/vkcube_json");
  std::size_t n = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    const std::string name = f.path().filename().string();
    const std::string text = test::read_file(f.path().string());
    foz::Arena arena;
    const foz::Object o = foz::parse_payload(text, arena, name);
    CHECK(foz::json_entry_name(o.tag, o.hash) + ".json" == name);
    CHECK(foz::serialize_payload(o, name) == text);
    ++n;
  }
  CHECK(n == 15);
}

TEST_CASE("foz object: handles are hashes, listed as references a replayer patches") {
  test::ParsedArchive a(test::data("foz/vkcube.72991ed96a80f842.1.foz"));
  const foz::Object& p = a.objects.at({Tag::graphics_pipeline, 0xe3b925b0c1c00de1ull});
  const auto* ci = p.as<VkGraphicsPipelineCreateInfo>();
  CHECK(ci->sType == VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
  CHECK(foz::hash_from_handle(ci->layout) == 0x2ab80332838222bdull);
  CHECK(foz::hash_from_handle(ci->renderPass) == 0x2ffdabedb67ac3c1ull);
  REQUIRE(ci->stageCount == 2);
  CHECK(std::string(ci->pStages[1].pName) == "main");
  CHECK(ci->pStages[1].stage == VK_SHADER_STAGE_FRAGMENT_BIT);
  REQUIRE(p.references.size() == 4);
  CHECK(p.references[0].tag == Tag::pipeline_layout);
  CHECK(p.references[0].handle == &ci->layout);
  CHECK(p.references[1].tag == Tag::render_pass);
  CHECK(p.references[2].tag == Tag::shader_module);
  CHECK(p.references[2].hash == 0x8360ba81b60d3962ull);
  CHECK(p.references[2].handle == &ci->pStages[0].module);
  // What a replayer does with a reference: write the real handle in place.
  const auto real = foz::handle_from_hash<VkShaderModule>(0x1234);
  std::memcpy(p.references[3].handle, &real, sizeof real);
  CHECK(ci->pStages[1].module == real);

  CHECK(a.objects.at({Tag::descriptor_set_layout, 0x171a553b55beb140ull}).references.empty());
  const foz::Object& module = a.objects.at({Tag::shader_module, 0x1778d8b90d391b54ull});
  const auto* m = module.as<VkShaderModuleCreateInfo>();
  CHECK(m->codeSize % 4 == 0);
  CHECK(m->pCode[0] == 0x07230203u);
  CHECK(module.references.empty());
}

TEST_CASE("foz object: the fozgen capture: dynamic rendering and immutable samplers") {
  const std::string path = std::string(TRAK_TEST_DATA) + "/foz/edge/truncated_payload.foz";
  test::ParsedArchive a(path);
  std::size_t rendering = 0;
  for (const auto& [key, o] : a.objects) {
    if (key.first != Tag::graphics_pipeline) continue;
    const auto* ci = o.as<VkGraphicsPipelineCreateInfo>();
    const auto* p = static_cast<const VkBaseInStructure*>(ci->pNext);
    if (p && p->sType == VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO) {
      ++rendering;
      CHECK(ci->renderPass == VK_NULL_HANDLE);
    }
  }
  CHECK(rendering == 47);
  const foz::Object& set = a.objects.at({Tag::descriptor_set_layout, 0x89e95f8b46cf0f04ull});
  REQUIRE(set.references.size() == 1);
  CHECK(set.references[0].tag == Tag::sampler);
  CHECK(set.references[0].hash == 0x31736ec7d9cc5871ull);
  const auto* binding = &set.as<VkDescriptorSetLayoutCreateInfo>()->pBindings[1];
  CHECK(set.references[0].handle == &binding->pImmutableSamplers[0]);
}

TEST_CASE("foz object: malformed and ill-typed JSON is an error naming the entry and the path") {
  CHECK(parse_error("{") == "e: malformed JSON at byte 1: Missing a name for object member.");
  CHECK(parse_error(kSampler + "x") == "e: malformed JSON at byte " + std::to_string(kSampler.size()) +
                                           ": The document root must not be followed by other values.");
  CHECK(parse_error("[]") == "e: expected a JSON object at the top level");
  CHECK(parse_error(R"({"samplers":{}})") == "e: missing member \"version\"");
  CHECK(parse_error(R"({"version":7,"samplers":{}})") ==
        "e: version: 7 is not a Fossilize JSON version trak reads (5 or 6)");
  CHECK(parse_error(R"({"version":6})") == "e: document: holds no object (no known member besides \"version\")");
  CHECK(parse_error(R"({"version":6,"samplers":{},"setLayouts":{}})") ==
        "e: document: holds more than one object (\"setLayouts\" besides others)");
  CHECK(parse_error(R"({"version":6,"samplers":{"zz":{}}})") == "e: samplers: object key \"zz\" is not a hash");
  // kSampler with one member changed.
  const struct {
    std::string_view from, to;
    const char* error;
  } edits[] = {
      {R"("minFilter":1)", R"("minFilter":-1)",
       "e: samplers.27ceff9929c09a63.minFilter: expected an unsigned 32-bit integer, got an integer"},
      {R"("maxLod":0.0)", R"("maxLod":"0")", "e: samplers.27ceff9929c09a63.maxLod: expected a number, got a string"},
      {R"("flags":0,)", "", "e: samplers.27ceff9929c09a63: missing member \"flags\""},
      {R"("flags":0)", R"("flags":0,"extra":1)", "e: samplers.27ceff9929c09a63: unknown member \"extra\""},
      {R"("maxLod":0.0)", R"("maxLod":1e300)",
       "e: samplers.27ceff9929c09a63.maxLod: number out of the range of a 32-bit float"},
      // No Vulkan enum holds a value past 0x7fffffff; storing one would be
      // undefined behaviour (found by fuzzing: a dynamic state of 3000347000).
      {R"("compareOp":0)", R"("compareOp":2147483648)",
       "e: samplers.27ceff9929c09a63.compareOp: value 2147483648 is above every Vulkan enum's range (0x7fffffff)"},
      {R"("compareOp":0)", R"("compareOp":2147483647)", "no error"},
  };
  for (const auto& e : edits) {
    CAPTURE(e.to);
    std::string s = kSampler;
    s.replace(s.find(e.from), e.from.size(), e.to);
    CHECK(parse_error(s) == e.error);
  }
}

TEST_CASE("foz object: unknown sTypes, dangling counts and bad handles are errors, never dropped") {
  std::string s = kSampler;
  s.insert(s.size() - 3, R"(,"pNext":[{"sType":1000130001,"reductionMode":1},{"sType":1000999000,"x":1}])");
  CHECK(parse_error(s) ==
        "e: samplers.27ceff9929c09a63.pNext[1]: unknown sType 1000999000 (not a struct Fossilize records) in a pNext "
        "chain");
  s = kSampler;
  s.insert(s.size() - 3, R"(,"pNext":[{"sType":1000192000}])");
  CHECK(parse_error(s) ==
        "e: samplers.27ceff9929c09a63.pNext[0]: unknown sType 1000192000 (a feedback or tooling struct, never "
        "recorded) in a pNext chain");
  CHECK(parse_error(R"({"version":6,"setLayouts":{"01":{"flags":0,"bindings":[{"descriptorType":1,"descriptorCount":2,)"
                    R"("stageFlags":16,"binding":0,"immutableSamplers":["27ceff9929c09a63"]}]}}})") ==
        "e: setLayouts.01.bindings[0].immutableSamplers: has 1 elements, descriptorCount is 2");
  CHECK(parse_error(R"({"version":6,"pipelineLayouts":{"01":{"flags":0,"setLayouts":["xyz"]}}})") ==
        "e: pipelineLayouts.01.setLayouts[0]: expected a hash (16 hex digits), got \"xyz\"");
  CHECK(
      parse_error(
          R"({"version":6,"physicalDeviceFeatures":{"robustBufferAccess":0,"pNext":[{"sType":1000328000,"taskShader":1}]},"applicationInfo":{}})") ==
      "e: physicalDeviceFeatures.pNext[0]: missing member \"meshShader\"");
  CHECK(parse_error(R"({"version":6,"link":{"application":"01","tag":12,"hash":"02"}})") ==
        "e: link.tag: unknown resource tag 12");
  CHECK(parse_error(kSampler + std::string("\0\x01", 2)) ==
        "e: 1 binary bytes after the JSON of an entry that is not a shader module");
}

TEST_CASE("foz object: shader module payloads are checked: varint range, SPIR-V size, base64") {
  const std::string head = R"({"version":6,"shaderModules":{"0000000000000001":{"varintOffset":0,"varintSize":)";
  // The JSON's varintSize and codeSize, its binary bytes, the error after the entry's name.
  const struct {
    const char* sizes;
    std::string binary;
    const char* error;
  } varints[] = {
      {R"(3,"codeSize":4)", std::string("\0\x01\x02", 3),
       ": varint range 0+3 overruns the 2 binary bytes after the JSON"},
      {R"(2,"codeSize":4)", std::string("\0\x81\x82", 3), ": invalid varint SPIR-V at byte 2 of 2 (1 words expected)"},
      {R"(2,"codeSize":8)", std::string("\0\x81\x02", 3), ": invalid varint SPIR-V at byte 2 of 2 (2 words expected)"},
      {R"(2,"codeSize":4)", std::string("\0\x01\x02", 3), ": invalid varint SPIR-V at byte 1 of 2 (1 words expected)"},
      {R"(2,"codeSize":6)", std::string("\0\x01\x02", 3), ".codeSize: must be a non-zero multiple of 4, is 6"},
      {R"(2,"codeSize":400000000000)", std::string("\0\x01\x02", 3),
       ": codeSize 400000000000 needs more than the 2 varint bytes"},
  };
  for (const auto& v : varints) {
    CAPTURE(v.sizes);
    CHECK(parse_error(head + v.sizes + R"(,"flags":0}}})" + v.binary) ==
          "e: shaderModules.0000000000000001" + std::string(v.error));
  }
  CHECK(parse_error(R"({"version":6,"shaderModules":{"01":{"codeSize":4,"flags":0,"code":"AQID"}}})") ==
        "e: shaderModules.01.code: holds fewer than codeSize 4 bytes");
  CHECK(parse_error(R"({"version":6,"shaderModules":{"01":{"codeSize":4,"flags":0,"code":"AQIDBAUG"}}})") ==
        "e: shaderModules.01.code: decodes to 6 bytes, codeSize is 4");
  CHECK(parse_error(R"({"version":6,"shaderModules":{"01":{"codeSize":4,"flags":0,"code":"AQI!BA=="}}})") ==
        "e: shaderModules.01.code: invalid base64");
  foz::Arena arena;
  const foz::Object o = foz::parse_payload(
      R"({"version":6,"shaderModules":{"01":{"codeSize":4,"flags":0,"code":"AwIjBw=="}}})", arena, "e");
  CHECK(o.as<VkShaderModuleCreateInfo>()->pCode[0] == 0x07230203u);
  // Written back in the varint form Fossilize's archives use.
  CHECK(
      foz::serialize_payload(o, "e") ==
      R"({"version":6,"shaderModules":{"0000000000000001":{"varintOffset":0,"varintSize":4,"codeSize":4,"flags":0}}})" +
          std::string("\0\x83\x84\x8c\x39", 5));
}

TEST_CASE("foz object: whole-state documents are checked member by member and read one object at a time") {
  const auto doc_error = [](const std::string& doc) -> std::string {
    foz::Arena arena;
    try {
      foz::parse_document(doc, arena, "d");
    } catch (const libtrace::Error& e) {
      return e.what();
    }
    return "no error";
  };
  CHECK(doc_error(R"({"samplers":{}})") == "d: missing member \"version\"");
  CHECK(doc_error(R"({"version":6,"pipelines":{}})") == "d: document: unknown member \"pipelines\" at byte 13");
  CHECK(doc_error(R"({"version":6,"samplers":{},"samplers":{}})") == "d: document: member \"samplers\" appears twice");
  CHECK(doc_error(R"({"version":6,"samplers":{"x1":{}}})") == "d: samplers: object key \"x1\" is not a hash");
  CHECK(doc_error(R"({"version":6,"samplers":{"01":{"flags":})") ==
        "d: malformed JSON at byte 40: the document ends early");
  CHECK(doc_error(R"({"version":6,"samplers":{"01":{"flags":0}}} {})") ==
        "d: malformed JSON at byte 44: the document root must not be followed by other values");
  CHECK(doc_error(R"({"version":6,"applicationInfo":{}})") ==
        "d: document: applicationInfo and physicalDeviceFeatures come as a pair");
  CHECK(doc_error(R"({"version":6,"samplers":{"01":{"flags":0,}}})") ==
        "d: malformed JSON at byte 41: Missing a name for object member.");
  CHECK(doc_error(R"({"version":6,"samplers":{"01":{"flags":0}}})") == "d: samplers.01: missing member \"minFilter\"");

  // Fossilize's own monolithic layout: one application, a module as base64.
  const std::string doc =
      R"({"version":6,"applicationInfo":{"applicationName":"a","applicationVersion":0,"engineVersion":0,"apiVersion":0},)"
      R"("physicalDeviceFeatures":{"robustBufferAccess":0},"samplers":{},"shaderModules":{"0000000000000009":)"
      R"({"flags":0,"codeSize":4,"code":"AwIjBw=="}},"link":{"application":"01","tag":4,"hash":"09"}})";
  foz::Arena arena;
  const foz::DocumentIndex index(doc, "d");
  REQUIRE(index.entries().size() == 3);
  CHECK(index.entries()[0].tag == Tag::application_info);
  CHECK(index.entries()[1].tag == Tag::shader_module);
  CHECK(index.entries()[1].key == "0000000000000009");
  CHECK(index.entries()[2].tag == Tag::application_blob_link);
  const foz::Object app = index.parse(index.entries()[0], arena);
  CHECK(std::string(app.application->pApplicationName) == "a");
  CHECK(app.hash == index.entries()[0].hash);
  CHECK(index.parse(index.entries()[1], arena).as<VkShaderModuleCreateInfo>()->pCode[0] == 0x07230203u);
  CHECK(index.parse(index.entries()[2], arena).link.hash == 9);
}

TEST_CASE("foz object: base create-infos hash and write back as the hand-written recipes did") {
  // Hashes from 0bacabc (before the object profiles), by trak-convert --check-hashes.
  const std::pair<const char*, foz::Hash> cases[] = {
      {R"({"version":6,"samplers":{"464f4b2987cd62e4":{"flags":0,"minFilter":1,"magFilter":1,"maxAnisotropy":16,"compareOp":3,"anisotropyEnable":1,"mipmapMode":1,"addressModeU":2,"addressModeV":2,"addressModeW":0,"borderColor":3,"unnormalizedCoordinates":0,"compareEnable":1,"mipLodBias":0.5,"minLod":0,"maxLod":1000}}})",
       0x464f4b2987cd62e4ull},
      {R"({"version":6,"setLayouts":{"c043054c823b7fce":{"flags":2,"bindings":[{"descriptorType":1,"descriptorCount":2,"stageFlags":16,"binding":0,"immutableSamplers":["464f4b2987cd62e4","464f4b2987cd62e4"]},{"descriptorType":7,"descriptorCount":1,"stageFlags":31,"binding":3,"immutableSamplers":["464f4b2987cd62e4"]}]}}})",
       0xc043054c823b7fceull},
      {R"({"version":6,"pipelineLayouts":{"2239e6499eb7dea9":{"flags":0,"pushConstantRanges":[{"stageFlags":17,"size":16,"offset":0}],"setLayouts":["c043054c823b7fce","0000000000000000"]}}})",
       0x2239e6499eb7dea9ull},
      {R"({"version":6,"renderPasses":{"7e7566f8481e3562":{"flags":0,"attachments":[{"flags":0,"format":44,"finalLayout":2,"initialLayout":0,"loadOp":1,"storeOp":0,"samples":1,"stencilLoadOp":2,"stencilStoreOp":1}],"subpasses":[{"flags":0,"pipelineBindPoint":0,"colorAttachments":[{"attachment":0,"layout":2}],"depthStencilAttachment":{"attachment":4294967295,"layout":0}}]}}})",
       0x7e7566f8481e3562ull},
      {R"({"version":6,"renderPasses2":{"543df448d2f8d795":{"flags":0,"correlatedViewMasks":[3],"dependencies":[{"dependencyFlags":1,"dstAccessMask":256,"srcAccessMask":0,"dstStageMask":1024,"srcStageMask":1024,"dstSubpass":0,"srcSubpass":4294967295,"viewOffset":-1}],"attachments":[{"flags":0,"format":44,"finalLayout":1000001002,"initialLayout":0,"loadOp":1,"storeOp":0,"samples":4,"stencilLoadOp":2,"stencilStoreOp":1},{"flags":0,"format":126,"finalLayout":3,"initialLayout":0,"loadOp":1,"storeOp":0,"samples":4,"stencilLoadOp":2,"stencilStoreOp":1,"pNext":[{"sType":1000241002,"stencilInitialLayout":0,"stencilFinalLayout":3}]}],"subpasses":[{"flags":0,"pipelineBindPoint":0,"viewMask":3,"preserveAttachments":[5],"inputAttachments":[{"attachment":1,"layout":5,"aspectMask":2}],"colorAttachments":[{"attachment":0,"layout":2,"aspectMask":1}],"resolveAttachments":[{"attachment":4294967295,"layout":0,"aspectMask":0}],"depthStencilAttachment":{"attachment":1,"layout":3,"aspectMask":6,"pNext":[{"sType":1000241001,"stencilLayout":3}]}}]}}})",
       0x543df448d2f8d795ull},
  };
  for (const auto& [json, hash] : cases) {
    foz::Arena arena;
    const foz::Object o = foz::parse_payload(json, arena, "t");
    CHECK(foz::compute_hash(o, {}, "t") == hash);
    CHECK(test::same_json(foz::serialize_payload(o, "t"), json));
  }
}
