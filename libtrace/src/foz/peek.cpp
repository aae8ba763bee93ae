// SPDX-License-Identifier: MIT
// SAX pass over a .foz JSON payload collecting handles, without building a
// document: statistics read every payload, so this stays allocation-free.
#include "foz/peek.hpp"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <cstring>
#include <string_view>

namespace libtrace::foz::detail {

namespace {

// The member names that matter; everything else is `other`.
enum class Field : std::uint8_t {
  other,
  layout,
  render_pass,
  base_pipeline,
  module,
  libraries,
  set_layouts,
  immutable_samplers,
  code_size,
  application_name,
  engine_name,
  application,
  tag,
  hash,
  application_info,
  link,
};

Field classify(std::string_view k) {
  switch (k.size()) {
    case 3:
      if (k == "tag") return Field::tag;
      break;
    case 4:
      if (k == "hash") return Field::hash;
      if (k == "link") return Field::link;
      break;
    case 6:
      if (k == "layout") return Field::layout;
      if (k == "module") return Field::module;
      break;
    case 8:
      if (k == "codeSize") return Field::code_size;
      break;
    case 9:
      if (k == "libraries") return Field::libraries;
      break;
    case 10:
      if (k == "renderPass") return Field::render_pass;
      if (k == "setLayouts") return Field::set_layouts;
      if (k == "engineName") return Field::engine_name;
      break;
    case 11:
      if (k == "application") return Field::application;
      break;
    case 15:
      if (k == "applicationName") return Field::application_name;
      if (k == "applicationInfo") return Field::application_info;
      break;
    case 17:
      if (k == "immutableSamplers") return Field::immutable_samplers;
      break;
    case 18:
      if (k == "basePipelineHandle") return Field::base_pipeline;
      break;
    default: break;
  }
  return Field::other;
}

bool is_pipeline(Tag t) {
  return t == Tag::graphics_pipeline || t == Tag::compute_pipeline || t == Tag::raytracing_pipeline;
}

struct Handler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
  struct Frame {
    bool array;
    Field key;  // the member this container is the value of
  };
  static constexpr std::size_t kMaxDepth = 64;

  Tag tag;
  Peeked& out;
  Frame stack[kMaxDepth];
  std::size_t depth = 0;
  Field pending = Field::other;
  std::string bad_handle;  // set when a handle is not 16 hex digits

  Handler(Tag t, Peeked& o) : tag(t), out(o) {}

  // The member name a scalar belongs to: the pending key inside an object,
  // the array's own key inside an array.
  Field current() const { return depth && stack[depth - 1].array ? stack[depth - 1].key : pending; }
  // The key of the container `up` levels above the innermost.
  Field outer(std::size_t up) const { return depth > up ? stack[depth - 1 - up].key : Field::other; }

  bool Default() { return true; }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    pending = classify(std::string_view(s, n));
    return true;
  }
  bool StartObject() { return push(false); }
  bool StartArray() { return push(true); }
  bool EndObject(rapidjson::SizeType) { return pop(); }
  bool EndArray(rapidjson::SizeType) { return pop(); }
  bool push(bool array) {
    if (depth == kMaxDepth) return false;
    const Field k = current();
    stack[depth] = Frame{array, k};
    ++depth;
    pending = Field::other;
    return true;
  }
  bool pop() {
    --depth;
    return true;
  }

  bool Uint(unsigned v) { return Uint64(v); }
  bool Int(int v) { return v >= 0 ? Uint64(static_cast<std::uint64_t>(v)) : true; }
  bool Int64(std::int64_t v) { return v >= 0 ? Uint64(static_cast<std::uint64_t>(v)) : true; }
  bool Uint64(std::uint64_t v) {
    const auto k = current();
    // {"version":6,"shaderModules":{"<hash>":{"codeSize":N}}}: depth 3.
    if (k == Field::code_size && tag == Tag::shader_module && depth == 3) out.code_size = v;
    if (k == Field::tag && tag == Tag::application_blob_link && depth == 2 && outer(0) == Field::link) out.link_tag = v;
    return true;
  }

  bool String(const char* s, rapidjson::SizeType n, bool) {
    const std::string_view v(s, n);
    const auto k = current();
    if (tag == Tag::application_info) {
      if (depth == 2 && outer(0) == Field::application_info) {
        if (k == Field::application_name) out.application_name = v;
        if (k == Field::engine_name) out.engine_name = v;
      }
      return true;
    }
    if (tag == Tag::application_blob_link) {
      if (depth == 2 && outer(0) == Field::link) {
        if (k == Field::application) handle(v, out.link_application);
        if (k == Field::hash) handle(v, out.link_hash);
      }
      return true;
    }
    if (is_pipeline(tag)) {
      // "layout" is also a member of render-pass attachment references, but
      // there it is a number; only the pipeline's own is a string at depth 3.
      if (k == Field::layout && depth == 3)
        ref(Tag::pipeline_layout, v);
      else if (k == Field::render_pass && depth == 3)
        ref(Tag::render_pass, v);
      else if (k == Field::base_pipeline && depth == 3)
        ref(tag, v);
      else if (k == Field::module)
        ref(Tag::shader_module, v);
      else if (k == Field::libraries)
        ref(tag, v);
    } else if (tag == Tag::pipeline_layout) {
      if (k == Field::set_layouts) ref(Tag::descriptor_set_layout, v);
    } else if (tag == Tag::descriptor_set_layout) {
      if (k == Field::immutable_samplers) ref(Tag::sampler, v);
    }
    return true;
  }

  void handle(std::string_view v, std::uint64_t& dst) {
    const auto h = parse_hash(v);
    if (!h) {
      if (bad_handle.empty()) bad_handle = v;
      return;
    }
    dst = *h;
  }

  void ref(Tag t, std::string_view v) {
    std::uint64_t h = 0;
    handle(v, h);
    if (h != 0) out.refs.push_back(Ref{t, h});
  }
};

}  // namespace

namespace {

template <unsigned Flags, typename Stream>
void parse(Tag tag, Stream& stream, Peeked& out, const std::string& where) {
  out.clear();
  Handler h(tag, out);
  rapidjson::Reader reader;
  const auto ok = reader.Parse<Flags>(stream, h);
  if (!ok) {
    if (h.depth == Handler::kMaxDepth)
      throw Error(Errc::bad_record, where, "bad JSON payload: nested more than 64 levels");
    throw Error(Errc::bad_record, where,
                std::string("bad JSON payload at byte ") + std::to_string(ok.Offset()) + ": " +
                    rapidjson::GetParseError_En(ok.Code()));
  }
  if (!h.bad_handle.empty())
    throw Error(Errc::bad_record, where, "bad JSON payload: handle \"" + h.bad_handle + "\" is not 16 hex digits");
  if (tag == Tag::application_blob_link) out.link_ok = out.link_application != 0 || out.link_hash != 0;
}

// A shader module's JSON ends at its NUL: varint SPIR-V follows.
std::size_t json_size(Tag tag, std::span<const std::uint8_t> payload) {
  if (tag != Tag::shader_module) return payload.size();
  const void* nul = std::memchr(payload.data(), 0, payload.size());
  return nul ? static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - payload.data()) : payload.size();
}

}  // namespace

void peek_payload(Tag tag, std::span<const std::uint8_t> payload, Peeked& out, const std::string& where) {
  rapidjson::MemoryStream ms(reinterpret_cast<const char*>(payload.data()), json_size(tag, payload));
  parse<rapidjson::kParseDefaultFlags>(tag, ms, out, where);
}

void peek_payload_in_place(Tag tag, std::vector<std::uint8_t>& payload, Peeked& out, const std::string& where) {
  const std::size_t n = json_size(tag, payload);
  // In-situ parsing stops at a NUL: one inside the JSON of another entry
  // must still be an error, so such payloads take the copying path.
  if (tag != Tag::shader_module && std::memchr(payload.data(), 0, n)) {
    peek_payload(tag, payload, out, where);
    return;
  }
  const bool grew = n == payload.size();
  if (grew) payload.push_back(0);
  payload[n] = 0;  // a module's NUL is already there
  rapidjson::InsituStringStream ss(reinterpret_cast<char*>(payload.data()));
  struct Restore {
    std::vector<std::uint8_t>& p;
    bool grew;
    ~Restore() {
      if (grew) p.pop_back();
    }
  } restore{payload, grew};
  parse<rapidjson::kParseInsituFlag>(tag, ss, out, where);
}

}  // namespace libtrace::foz::detail
