// SPDX-License-Identifier: MIT
// Streaming writer of whole-state documents (trak-convert --to json).
#include "foz/json_out.hpp"
#include "libtrace/foz/object.hpp"
#include "libtrace/foz/varint.hpp"

namespace libtrace::foz {

using namespace detail;

struct DocumentWriter::Impl {
  explicit Impl(Sink s) : sink(std::move(s)), w(buf), rp2_w(rp2_buf) {}

  Sink sink;
  rapidjson::StringBuffer buf;
  JsonWriter w;
  // Render passes v2 go under their own key after the v1 ones; they are few.
  rapidjson::StringBuffer rp2_buf;
  JsonWriter rp2_w;
  bool rp2_open = false;
  int section = -1;
  bool finished = false;

  void drain(bool all) {
    if (buf.GetSize() >= (all ? 1 : (1u << 20))) {
      sink({buf.GetString(), buf.GetSize()});
      buf.Clear();
    }
  }

  void close_section() {
    switch (section) {
      case -1: return;
      case static_cast<int>(Tag::application_blob_link): w.EndArray(); break;
      case static_cast<int>(Tag::render_pass):
        w.EndObject();
        if (rp2_open) {
          rp2_w.EndObject();
          w.Key("renderPasses2");
          w.RawValue(rp2_buf.GetString(), rp2_buf.GetSize(), rapidjson::kObjectType);
        }
        break;
      default: w.EndObject(); break;
    }
  }

  void open_section(Tag tag, const Object& first, const std::string& where) {
    Out out(w, where);
    switch (tag) {
      case Tag::application_info:
        // Fossilize's replayer reads the device setup from the top level.
        write_application_members(out, first.application, first.features);
        out.begin_object("applicationInfos");
        break;
      case Tag::application_blob_link: out.begin_array("links"); break;
      case Tag::bucket_info: out.begin_object("bucketInfos"); break;
      default: out.begin_object(section_key(tag)); break;
    }
  }

  void add(const Object& o, const std::string& where) {
    const int tag = static_cast<int>(o.tag);
    if (tag < section)
      fail(where, std::string(tag_name(o.tag)) + " after " + std::string(tag_name(static_cast<Tag>(section))) +
                      ": objects must come in tag order");
    if (tag != section) {
      close_section();
      section = tag;
      open_section(o.tag, o, where);
    }
    Out out(w, where);
    switch (o.tag) {
      case Tag::application_info:
        out.begin_object(hash_hex(o.hash).c_str());
        write_application_members(out, o.application, o.features);
        out.end_object();
        break;
      case Tag::application_blob_link:
        out.begin_object();
        out.hash("application", o.link.application);
        out.u32("tag", static_cast<std::uint32_t>(o.link.tag));
        out.hash("hash", o.link.hash);
        out.end_object();
        break;
      case Tag::bucket_info:
        out.key(hash_hex(o.hash).c_str());
        w.RawValue(o.raw_json.data(), o.raw_json.size(), rapidjson::kObjectType);
        break;
      default: add_create_info(o, out, where); break;
    }
    drain(false);
  }

  void add_create_info(const Object& o, Out& out, const std::string& where) {
    if (!o.create_info) fail(where, "cannot write " + std::string(tag_name(o.tag)) + ": no create info");
    // Whole-state documents carry code as base64, as StateRecorder does.
    const auto base64 = [&](const VkShaderModuleCreateInfo& m) {
      out.begin_object();
      out.u32("flags", m.flags);
      out.u64("codeSize", m.codeSize);
      out.str("code", encode_base64(m.pCode, m.codeSize));
      out.end_object();
    };
    if (o.tag == Tag::render_pass && o.s_type() == VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2) {
      if (!rp2_open) rp2_w.StartObject();
      rp2_open = true;
      Out out2(rp2_w, where);
      out2.key(hash_hex(o.hash).c_str());
      write_create_info(out2, o, base64);
      return;
    }
    out.key(hash_hex(o.hash).c_str());
    write_create_info(out, o, base64);
  }
};

DocumentWriter::DocumentWriter(Sink sink) : impl_(std::make_unique<Impl>(std::move(sink))) {
  impl_->w.StartObject();
  impl_->w.Key("version");
  impl_->w.Uint(kFormatVersion);
}

DocumentWriter::~DocumentWriter() = default;

void DocumentWriter::add(const Object& object, const std::string& where) { impl_->add(object, where); }

void DocumentWriter::finish() {
  if (impl_->finished) return;
  impl_->finished = true;
  impl_->close_section();
  impl_->w.EndObject();
  impl_->buf.Put('\n');
  impl_->drain(true);
}

}  // namespace libtrace::foz
