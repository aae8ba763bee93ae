// SPDX-License-Identifier: MIT
// Whole-state documents read object by object: one pass finds where each
// object's JSON is (checking the document's structure), and each object is
// parsed on its own when asked for. Memory stays the text plus one object,
// not a DOM of the whole document.
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <string>

#include "foz/json_in.hpp"
#include "libtrace/foz/object.hpp"

namespace libtrace::foz {

namespace {

using detail::fail;

// What a document member holds and how its objects are keyed.
struct Member {
  const char* name;
  Tag tag;
  enum Kind { keyed, single, list, scalar } kind;
};
constexpr Member kMembers[] = {
    {"version", Tag::application_info, Member::scalar},
    {"applicationInfo", Tag::application_info, Member::single},
    {"physicalDeviceFeatures", Tag::application_info, Member::single},
    {"applicationInfos", Tag::application_info, Member::keyed},
    {"samplers", Tag::sampler, Member::keyed},
    {"setLayouts", Tag::descriptor_set_layout, Member::keyed},
    {"pipelineLayouts", Tag::pipeline_layout, Member::keyed},
    {"shaderModules", Tag::shader_module, Member::keyed},
    {"renderPasses", Tag::render_pass, Member::keyed},
    {"renderPasses2", Tag::render_pass, Member::keyed},
    {"graphicsPipelines", Tag::graphics_pipeline, Member::keyed},
    {"computePipelines", Tag::compute_pipeline, Member::keyed},
    {"link", Tag::application_blob_link, Member::single},
    {"links", Tag::application_blob_link, Member::list},
    {"raytracingPipelines", Tag::raytracing_pipeline, Member::keyed},
    {"bucketInfos", Tag::bucket_info, Member::keyed},
};

// A strict scanner over the document's outer levels; object bodies are only
// delimited here (rapidjson checks them when they are parsed).
class Scanner {
 public:
  Scanner(std::string_view s, const std::string& where) : s_(s), where_(where) {}

  [[noreturn]] void error(const std::string& why) const {
    fail(where_, "malformed JSON at byte " + std::to_string(pos_) + ": " + why);
  }
  void ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  bool at_end() {
    ws();
    return pos_ == s_.size();
  }
  char peek() {
    ws();
    if (pos_ == s_.size()) error("the document ends early");
    return s_[pos_];
  }
  void expect(char c) {
    if (peek() != c) error(std::string("expected '") + c + "'");
    ++pos_;
  }
  bool accept(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  // A member name (no escapes: Fossilize's names and hashes have none).
  std::string_view name() {
    expect('"');
    const std::size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      if (s_[pos_] == '\\') error("escaped characters in a member name");
      ++pos_;
    }
    if (pos_ == s_.size()) error("unterminated string");
    const std::string_view n = s_.substr(start, pos_ - start);
    ++pos_;
    expect(':');
    return n;
  }
  // The text of the next value, whatever it is.
  std::string_view value(std::size_t* offset) {
    ws();
    const std::size_t start = pos_;
    *offset = start;
    int depth = 0;
    bool in_string = false;
    for (; pos_ < s_.size(); ++pos_) {
      const char c = s_[pos_];
      if (in_string) {
        if (c == '\\')
          ++pos_;
        else if (c == '"') {
          in_string = false;
          if (depth == 0) return s_.substr(start, ++pos_ - start);
        }
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (depth == 0) break;
        if (--depth == 0) return s_.substr(start, ++pos_ - start);
      } else if (depth == 0 && (c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t')) {
        break;
      }
    }
    if (in_string || depth) error("the document ends inside a value");
    if (pos_ == start) error("expected a value");
    return s_.substr(start, pos_ - start);
  }
  std::size_t pos() const { return pos_; }

 private:
  std::string_view s_;
  const std::string& where_;
  std::size_t pos_ = 0;
};

// Parses one value's text; errors name the byte in the whole document.
void parse_value(std::string_view text, std::size_t offset, const std::string& where, rapidjson::Document& doc) {
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError())
    fail(where, "malformed JSON at byte " + std::to_string(offset + doc.GetErrorOffset()) + ": " +
                    rapidjson::GetParseError_En(doc.GetParseError()));
}

}  // namespace

DocumentIndex::DocumentIndex(std::string_view payload, const std::string& where) : where_(where) {
  const std::size_t nul = payload.find('\0');
  json_ = payload.substr(0, nul);
  if (nul != std::string_view::npos) varint_ = payload.substr(nul + 1);
  detail::check_json_depth(json_, where_);
  Scanner sc(json_, where_);
  sc.expect('{');
  std::uint32_t seen = 0;
  std::size_t order = 0;
  std::string_view app, features;
  std::size_t app_at = 0, features_at = 0;
  if (!sc.accept('}')) {
    do {
      const std::size_t name_at = sc.pos();
      const std::string_view name = sc.name();
      std::size_t i = 0;
      while (i < std::size(kMembers) && name != kMembers[i].name) ++i;
      if (i == std::size(kMembers))
        fail(where_, "document: unknown member \"" + std::string(name) + "\" at byte " + std::to_string(name_at));
      if (seen & (1u << i)) fail(where_, "document: member \"" + std::string(name) + "\" appears twice");
      seen |= 1u << i;
      const Member& m = kMembers[i];
      std::size_t at = 0;
      switch (m.kind) {
        case Member::scalar: {
          const std::string_view v = sc.value(&at);
          rapidjson::Document d;
          parse_value(v, at, where_, d);
          if (!d.IsInt()) fail(where_, "version: expected an integer");
          if (d.GetInt() < detail::kMinFormatVersion || d.GetInt() > detail::kFormatVersion)
            fail(where_,
                 "version: " + std::to_string(d.GetInt()) + " is not a Fossilize JSON version trak reads (5 or 6)");
          version_ = true;
          break;
        }
        case Member::single:
          if (m.tag == Tag::application_blob_link) {
            const std::string_view v = sc.value(&at);
            entries_.push_back({m.tag, 0, at, v, {}, m.name, "", order++});
          } else if (name == "applicationInfo") {
            app = sc.value(&app_at);
          } else {
            features = sc.value(&features_at);
          }
          break;
        case Member::list:
          sc.expect('[');
          if (!sc.accept(']')) {
            do {
              const std::string_view v = sc.value(&at);
              entries_.push_back({m.tag, 0, at, v, {}, m.name, "", order++});
            } while (sc.accept(','));
            sc.expect(']');
          }
          break;
        case Member::keyed:
          sc.expect('{');
          if (!sc.accept('}')) {
            do {
              const std::string_view key = sc.name();
              Hash h = 0;
              if (!detail::parse_hex_hash(key, h))
                fail(where_, std::string(m.name) + ": object key \"" + std::string(key) + "\" is not a hash");
              const std::string_view v = sc.value(&at);
              entries_.push_back({m.tag, h, at, v, {}, m.name, key, order++});
            } while (sc.accept(','));
            sc.expect('}');
          }
          break;
      }
    } while (sc.accept(','));
    sc.expect('}');
  }
  if (!sc.at_end()) sc.error("the document root must not be followed by other values");
  if (!version_) fail(where_, "missing member \"version\"");
  if (!app.empty() != !features.empty())
    fail(where_, "document: applicationInfo and physicalDeviceFeatures come as a pair");
  // The top-level application info stands alone only without applicationInfos.
  if (!app.empty() && !(seen & (1u << 3)))
    entries_.push_back({Tag::application_info, 0, app_at, app, features, "", "", order++});
  (void)features_at;
  // Keys and links are hashed now, so entries can be sorted by hash.
  Arena scratch;
  for (DocumentEntry& e : entries_)
    if (e.key.empty() && e.tag != Tag::bucket_info) e.hash = parse(e, scratch).hash;
  std::stable_sort(entries_.begin(), entries_.end(),
                   [](const DocumentEntry& a, const DocumentEntry& b) { return a.tag < b.tag; });
}

Object DocumentIndex::parse(const DocumentEntry& e, Arena& arena) const {
  using namespace detail;
  Object o;
  o.tag = e.tag;
  o.hash = e.hash;
  rapidjson::Document d;
  parse_value(e.text, e.offset, where_, d);
  if (e.tag == Tag::bucket_info) {
    if (!d.IsObject()) fail(where_, std::string(e.section) + "." + std::string(e.key) + ": expected an object");
    o.raw_json = arena.copy_string(e.text);
    return o;
  }
  ReadContext c{arena, where_, &o.references};
  const rapidjson::Value none;
  const Node root(c, none, nullptr, nullptr);
  const std::string section(e.section), key(e.key);
  const Node sec(c, none, &root, section.empty() ? nullptr : section.c_str());
  const Node n(c, d, &sec, key.empty() ? nullptr : key.c_str());
  if (e.tag == Tag::application_info) {
    if (!e.extra.empty()) {
      rapidjson::Document f;
      parse_value(e.extra, e.offset, where_, f);
      read_application_info(Node(c, d, &root, "applicationInfo"), Node(c, f, &root, "physicalDeviceFeatures"), o);
    } else {
      n.only({"applicationInfo", "physicalDeviceFeatures"});
      read_application_info(n.at("applicationInfo"), n.at("physicalDeviceFeatures"), o);
      o.hash = e.hash;
    }
    return o;
  }
  if (e.tag == Tag::application_blob_link) {
    read_link(n, o);
    return o;
  }
  read_entry_object(n, e.section, o, varint_);
  return o;
}

std::vector<Object> parse_document(std::string_view json, Arena& arena, const std::string& where) {
  const DocumentIndex index(json, where);
  std::vector<Object> out;
  out.reserve(index.entries().size());
  for (const DocumentEntry& e : index.entries()) out.push_back(index.parse(e, arena));
  return out;
}

}  // namespace libtrace::foz
