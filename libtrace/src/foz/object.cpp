// SPDX-License-Identifier: MIT
// Fossilize objects: the arena, names, and the JSON envelopes around each
// create info (one entry's payload, or a whole-state document).
#include "libtrace/foz/object.hpp"

// document.h (through foz/json_in.hpp) before error/en.h: rapidjson's
// internal headers then carry the path the UBSan suppressions name.
#include "foz/json_in.hpp"
#include "foz/json_out.hpp"
#include "libtrace/foz/varint.hpp"

#include <rapidjson/error/en.h>

#include <algorithm>
#include <cstdio>
#include <utility>

namespace libtrace::foz {

// --- Arena ---

struct Arena::Block {
  explicit Block(std::size_t n) : bytes(new unsigned char[n]), size(n) {}
  std::unique_ptr<unsigned char[]> bytes;
  std::size_t size;
  std::size_t used = 0;
};

Arena::Arena() = default;
Arena::~Arena() = default;

void* Arena::allocate(std::size_t size, std::size_t align) {
  constexpr std::size_t kBlock = 64 * 1024;
  if (!blocks_.empty()) {
    Block& b = *blocks_.back();
    const std::size_t at = (b.used + align - 1) & ~(align - 1);
    if (at <= b.size && size <= b.size - at) {
      b.used = at + size;
      void* p = b.bytes.get() + at;
      std::memset(p, 0, size);
      return p;
    }
  }
  // new[] storage is aligned for any fundamental type; big requests get
  // a block of their own.
  blocks_.push_back(std::make_unique<Block>(std::max(kBlock, size + align)));
  Block& b = *blocks_.back();
  b.used = size;
  std::memset(b.bytes.get(), 0, size);
  return b.bytes.get();
}

const char* Arena::copy_string(std::string_view s) {
  auto* p = make<char>(s.size() + 1);
  std::memcpy(p, s.data(), s.size());
  return p;
}

void Arena::reset() {
  if (blocks_.size() > 1) blocks_.erase(blocks_.begin() + 1, blocks_.end());
  if (!blocks_.empty()) blocks_.front()->used = 0;
}

std::size_t Arena::bytes_reserved() const {
  std::size_t n = 0;
  for (const auto& b : blocks_) n += b->size;
  return n;
}

// --- names ---

std::uint64_t normalized_pipeline_flags(std::uint64_t flags) { return detail::normalize_pipeline_flags(flags); }

std::string json_entry_name(Tag tag, Hash hash) {
  char s[32];
  std::snprintf(s, sizeof s, "%02x.%016llx", static_cast<unsigned>(tag), static_cast<unsigned long long>(hash));
  return s;
}

namespace detail {

const char* section_key(Tag tag) {
  switch (tag) {
    case Tag::sampler: return "samplers";
    case Tag::descriptor_set_layout: return "setLayouts";
    case Tag::pipeline_layout: return "pipelineLayouts";
    case Tag::shader_module: return "shaderModules";
    case Tag::render_pass: return "renderPasses";
    case Tag::graphics_pipeline: return "graphicsPipelines";
    case Tag::compute_pipeline: return "computePipelines";
    case Tag::raytracing_pipeline: return "raytracingPipelines";
    default: return nullptr;
  }
}

void write_create_info(Out& o, const Object& obj, const std::function<void(const VkShaderModuleCreateInfo&)>& shader,
                       SubpassMeta meta, bool live) {
  switch (obj.tag) {
    case Tag::sampler: write_sampler(o, *obj.as<VkSamplerCreateInfo>()); break;
    case Tag::descriptor_set_layout: write_set_layout(o, *obj.as<VkDescriptorSetLayoutCreateInfo>()); break;
    case Tag::pipeline_layout: write_pipeline_layout(o, *obj.as<VkPipelineLayoutCreateInfo>()); break;
    case Tag::shader_module: shader(*obj.as<VkShaderModuleCreateInfo>()); break;
    case Tag::render_pass:
      if (obj.s_type() == VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2)
        write_render_pass2(o, *obj.as<VkRenderPassCreateInfo2>());
      else
        write_render_pass(o, *obj.as<VkRenderPassCreateInfo>());
      break;
    case Tag::graphics_pipeline: write_graphics_pipeline(o, *obj.as<VkGraphicsPipelineCreateInfo>(), meta, live); break;
    case Tag::compute_pipeline: write_compute_pipeline(o, *obj.as<VkComputePipelineCreateInfo>()); break;
    case Tag::raytracing_pipeline: write_raytracing_pipeline(o, *obj.as<VkRayTracingPipelineCreateInfoKHR>()); break;
    default: fail(o.where(), "cannot write " + std::string(tag_name(obj.tag)));
  }
}

std::string stype_name(VkStructureType s) {
  if (ignored_stype(s)) return "a feedback or tooling struct, never recorded";
  return "not a struct Fossilize records";
}

namespace {

struct Section {
  const char* key;
  Tag tag;
};
constexpr Section kSections[] = {
    {"samplers", Tag::sampler},
    {"setLayouts", Tag::descriptor_set_layout},
    {"pipelineLayouts", Tag::pipeline_layout},
    {"shaderModules", Tag::shader_module},
    {"renderPasses", Tag::render_pass},
    {"renderPasses2", Tag::render_pass},
    {"graphicsPipelines", Tag::graphics_pipeline},
    {"computePipelines", Tag::compute_pipeline},
    {"raytracingPipelines", Tag::raytracing_pipeline},
};

// Reads the create info under one hash key of a section.
void read_object(const Node& n, std::string_view k, Object& o, std::string_view varint) {
  if (k == "samplers")
    read_sampler(n, o);
  else if (k == "setLayouts")
    read_set_layout(n, o);
  else if (k == "pipelineLayouts")
    read_pipeline_layout(n, o);
  else if (k == "shaderModules")
    read_shader_module(n, o, varint);
  else if (k == "renderPasses")
    read_render_pass(n, o);
  else if (k == "renderPasses2")
    read_render_pass2(n, o);
  else if (k == "graphicsPipelines")
    read_graphics_pipeline(n, o);
  else if (k == "computePipelines")
    read_compute_pipeline(n, o);
  else
    read_raytracing_pipeline(n, o);
}

struct Parsed {
  rapidjson::Document doc;
  std::string_view varint;
  bool has_binary = false;
};

// Fossilize JSON nests a dozen levels; a bound keeps every recursive walk
// (the parser's, rapidjson's Accept) far from the stack's end.
constexpr int kMaxDepth = 64;

void check_depth_impl(std::string_view json, const std::string& where) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxDepth)
        fail(where, "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels at byte " + std::to_string(i));
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
}

// Splits JSON + NUL + binary and parses the JSON strictly. rapidjson's
// default number parsing (as Fossilize's) is exact enough: Fossilize writes
// each float as the shortest decimal of its double, and a double within an
// ULP of a float converts back to that float. (Its full-precision mode has
// undefined behaviour on some inputs in rapidjson 1.1.)
void parse_json(std::string_view payload, const std::string& where, Parsed& out) {
  const std::size_t nul = payload.find('\0');
  std::string_view json = payload;
  if (nul != std::string_view::npos) {
    json = payload.substr(0, nul);
    out.varint = payload.substr(nul + 1);
    out.has_binary = true;
  }
  check_depth_impl(json, where);
  out.doc.Parse(json.data(), json.size());
  if (out.doc.HasParseError())
    fail(where, "malformed JSON at byte " + std::to_string(out.doc.GetErrorOffset()) + ": " +
                    rapidjson::GetParseError_En(out.doc.GetParseError()));
  if (!out.doc.IsObject()) fail(where, "expected a JSON object at the top level");
  const auto v = std::as_const(out.doc).FindMember("version");
  if (v == std::as_const(out.doc).MemberEnd()) fail(where, "missing member \"version\"");
  if (!v->value.IsInt()) fail(where, "version: expected an integer");
  const int version = v->value.GetInt();
  if (version < kMinFormatVersion || version > kFormatVersion)
    fail(where, "version: " + std::to_string(version) + " is not a Fossilize JSON version trak reads (5 or 6)");
}

Hash key_hash(const Node& section, const rapidjson::Value& name) {
  Hash h = 0;
  const std::string_view s(name.GetString(), name.GetStringLength());
  if (!parse_hex_hash(s, h)) section.fail("object key \"" + std::string(s) + "\" is not a hash");
  return h;
}

}  // namespace

void check_json_depth(std::string_view json, const std::string& where) { check_depth_impl(json, where); }

void read_entry_object(const Node& n, std::string_view section, Object& o, std::string_view varint) {
  read_object(n, section, o, varint);
}

}  // namespace detail

Object parse_payload(std::string_view payload, Arena& arena, const std::string& where) {
  using namespace detail;
  Parsed p;
  parse_json(payload, where, p);
  Object o;
  ReadContext c{arena, where, &o.references};
  const Node root(c, p.doc, nullptr, nullptr);
  const bool app = root.has("applicationInfo") || root.has("physicalDeviceFeatures");
  const bool link = root.has("link");
  const char* key = nullptr;
  for (const Section& s : kSections)
    if (root.has(s.key)) {
      if (key || app || link) root.fail("holds more than one object (\"" + std::string(s.key) + "\" besides others)");
      key = s.key;
    }
  if (app && link) root.fail("holds both an application info and a link");
  if (p.has_binary && !p.varint.empty() && !(key && std::string_view(key) == "shaderModules"))
    fail(where,
         std::to_string(p.varint.size()) + " binary bytes after the JSON of an entry that is not a shader module");
  if (app) {
    root.only({"version", "applicationInfo", "physicalDeviceFeatures"});
    read_application_info(root.at("applicationInfo"), root.at("physicalDeviceFeatures"), o);
    return o;
  }
  if (link) {
    root.only({"version", "link"});
    read_link(root.at("link"), o);
    return o;
  }
  if (!key) root.fail("holds no object (no known member besides \"version\")");
  if (root.value().MemberCount() != 2) root.fail("unknown member besides \"version\" and \"" + std::string(key) + "\"");
  const Node section = root.at(key);
  section.expect_object();
  if (section.value().MemberCount() != 1)
    section.fail("holds " + std::to_string(section.value().MemberCount()) + " objects, an entry holds exactly one");
  const auto& m = *section.value().MemberBegin();
  for (const Section& s : kSections)
    if (std::string_view(s.key) == key) o.tag = s.tag;
  o.hash = key_hash(section, m.name);
  const Node n(c, m.value, &section, m.name.GetString());
  read_object(n, key, o, p.varint);
  return o;
}

Object parse_bucket_info(std::string_view payload, Hash hash, Arena& arena, const std::string& where) {
  using namespace detail;
  Parsed p;
  detail::check_json_depth(payload, where);
  p.doc.Parse(payload.data(), payload.size());
  if (p.doc.HasParseError())
    fail(where, "malformed JSON at byte " + std::to_string(p.doc.GetErrorOffset()) + ": " +
                    rapidjson::GetParseError_En(p.doc.GetParseError()));
  if (!p.doc.IsObject()) fail(where, "expected a JSON object at the top level");
  Object o;
  o.tag = Tag::bucket_info;
  o.hash = hash;
  o.raw_json = arena.copy_string(payload);
  return o;
}

std::string serialize_payload(const Object& o, const std::string& where, const HandleResolver* resolve,
                              const Lookup* lookup) {
  using namespace detail;
  const ResolverScope scope(resolve);
  if (o.tag == Tag::bucket_info) return std::string(o.raw_json);
  // One buffer per thread, cleared and reused: growing a fresh one to a
  // pipeline's size took several reallocations per entry.
  thread_local rapidjson::StringBuffer buf;
  buf.Clear();
  JsonWriter w(buf);
  Out out(w, where);
  std::string varint;
  w.StartObject();
  out.u32("version", kFormatVersion);
  switch (o.tag) {
    case Tag::application_info: write_application_members(out, o.application, o.features); break;
    case Tag::application_blob_link:
      out.begin_object("link");
      out.hash("application", o.link.application);
      out.u32("tag", static_cast<std::uint32_t>(o.link.tag));
      out.hash("hash", o.link.hash);
      out.end_object();
      break;
    default: {
      if (!o.create_info) fail(where, "cannot write " + std::string(tag_name(o.tag)) + ": no create info");
      const bool rp2 = o.tag == Tag::render_pass && o.s_type() == VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2;
      const char* key = rp2 ? "renderPasses2" : section_key(o.tag);
      if (!key) fail(where, "cannot write " + std::string(tag_name(o.tag)));
      out.begin_object(key);
      out.key(HexHash(o.hash).text);
      const SubpassMeta meta = lookup && o.tag == Tag::graphics_pipeline
                                   ? graphics_subpass_meta(*o.as<VkGraphicsPipelineCreateInfo>(), *lookup, where)
                                   : SubpassMeta{true, true};
      const auto shader = [&](const VkShaderModuleCreateInfo& m) {
        encode_varint({m.pCode, m.codeSize / 4}, varint);
        out.begin_object();
        out.u64("varintOffset", 0);
        out.u64("varintSize", varint.size());
        out.u64("codeSize", m.codeSize);
        out.u32("flags", m.flags);
        out.end_object();
      };
      write_create_info(out, o, shader, meta, resolve != nullptr);
      out.end_object();
    }
  }
  w.EndObject();
  std::string s(buf.GetString(), buf.GetSize());
  if (o.tag == Tag::shader_module) {
    s.push_back('\0');
    s += varint;
  }
  return s;
}

}  // namespace libtrace::foz
