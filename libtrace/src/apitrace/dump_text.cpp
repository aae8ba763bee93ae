// SPDX-License-Identifier: MIT
// `apitrace dump` text, reproduced byte for byte, including its quirks: the
// sign-extended octal escapes, dropped carriage returns, leave-order output.
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/float_format.hpp"
#include "core/text_util.hpp"
#include "libtrace/apitrace/call_flags.hpp"
#include "libtrace/apitrace/dump.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::apitrace {

namespace {

using detail::put_hex;
using detail::put_i64;
using detail::put_u64;

// apitrace's colour escapes (trace_dump.cpp's Highlighter).
constexpr const char* kNormal = "\33[0m";
constexpr const char* kBold = "\33[1m";
constexpr const char* kStrike = "\33[9m";
constexpr const char* kRed = "\33[31m";
constexpr const char* kGreen = "\33[32m";
constexpr const char* kBlue = "\33[34m";

// ostream with precision(p) and no floatfield is printf's %.<p>g (doubles use
// 16; floats go through the faster put_float_g7).
void put_float(std::string& out, double v, int precision) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, precision);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

class Renderer {
 public:
  Renderer(const Call& call, const DumpOptions& opt, std::string& out) : call_(call), opt_(opt), out_(out) {}

  void value(std::uint32_t idx) {
    const Value& v = call_.values[idx];
    switch (v.kind) {
      case Kind::null: lit("NULL"); return;
      case Kind::boolean: lit(v.num.u ? "true" : "false"); return;
      case Kind::sint:
        color(kBlue);
        put_i64(out_, v.num.i);
        color(kNormal);
        return;
      case Kind::uint:
        color(kBlue);
        put_u64(out_, v.num.u);
        color(kNormal);
        return;
      case Kind::float32:
        color(kBlue);
        detail::put_float_g7(out_, static_cast<float>(v.num.d));
        color(kNormal);
        return;
      case Kind::float64:
        color(kBlue);
        put_float(out_, v.num.d, 16);
        color(kNormal);
        return;
      case Kind::string:
        color(kBlue);
        out_ += '"';
        escape(call_.str(v));
        out_ += '"';
        color(kNormal);
        return;
      case Kind::wstring: wstring(v); return;
      case Kind::blob:
        color(kGreen);
        out_ += "blob(";
        if (opt_.blob_dir.empty())
          put_u64(out_, v.len);
        else
          blob_file(v);
        out_ += ')';
        color(kNormal);
        return;
      case Kind::enumeration: enumeration(v); return;
      case Kind::bitmask: bitmask(v); return;
      case Kind::array: array(v); return;
      case Kind::structure:
        if (guid(v)) return;
        out_ += '{';
        members(v, false);
        out_ += '}';
        return;
      case Kind::pointer:
        color(kGreen);
        out_ += "0x";
        put_hex(out_, v.num.u);
        color(kNormal);
        return;
      case Kind::repr: value(v.first); return;
    }
  }

  // Anonymous (empty-named) struct members are printed inline in the parent.
  // Anonymous (empty-named) struct members are printed inline in the parent;
  // apitrace 11.1 silently leaves out an anonymous member that is no struct.
  bool members(const Value& s, bool need_sep) {
    const StructSig* sig = s.struct_sig();
    std::uint32_t child = s.first;
    for (std::size_t i = 0; i < s.count && child != kNil; ++i, child = call_.values[child].next) {
      const std::string& name = sig->member_names[i];
      const Value& m = call_.values[child];
      if (name.empty()) {
        if (m.kind == Kind::structure) need_sep = members(m, need_sep);
        continue;
      }
      if (need_sep) out_ += ", ";
      out_ += name;
      color(kNormal);
      out_ += " = ";
      value(child);
      need_sep = true;
    }
    return need_sep;
  }

  // apitrace takes each byte as a sign-extended char and prints its octal
  // escape with the middle digit repeated: reproduced exactly. Strings end at
  // their first NUL, as C strings do.
  void escape(std::string_view s) {
    for (const char ch : s) {
      if (ch == 0) break;
      escape_unit(static_cast<unsigned>(static_cast<int>(ch)));
    }
  }

  // One character of a string or (32-bit) wide string.
  void escape_unit(unsigned c) {
    if (c == '"') {
      out_ += "\\\"";
    } else if (c == '\\') {
      out_ += "\\\\";
    } else if (c >= 0x20 && c <= 0x7e) {
      out_ += static_cast<char>(c);
    } else if (c == '\t') {
      out_ += '\t';
    } else if (c == '\r') {
      // dropped, as apitrace does
    } else if (c == '\n') {
      if (!opt_.multiline) {
        out_ += "\\n";
      } else {
        // apitrace ends the colour before a line break and starts it again after.
        color(kNormal);
        out_ += '\n';
        color(kBlue);
      }
    } else {
      const unsigned o1 = (c >> 3) & 7;
      const unsigned o0 = c & 7;
      out_ += '\\';
      if (o1) {
        out_ += static_cast<char>('0' + o1);
        out_ += static_cast<char>('0' + o1);
      }
      out_ += static_cast<char>('0' + o0);
    }
  }

 private:
  void color(const char* esc) {
    if (opt_.color) out_ += esc;
  }
  void lit(const char* s) {
    color(kBlue);
    out_ += s;
    color(kNormal);
  }

  void wstring(const Value& v) {
    color(kBlue);
    out_ += "L\"";
    for (std::uint64_t k = 0; k < v.len; ++k) {
      const std::uint32_t c = call_.wchar(v, k);
      if (c == 0) break;
      escape_unit(c);
    }
    out_ += '"';
    color(kNormal);
  }

  // D3D GUID structs print as uuid(...). apitrace also knows ~600 symbolic
  // IID names; trak does not have that table (D3D traces only).
  bool guid(const Value& v) {
    if (v.struct_sig()->name != "GUID" || v.count != 4) return false;
    std::uint64_t part[3];
    std::uint32_t c = v.first;
    for (int i = 0; i < 3; ++i, c = call_.values[c].next) part[i] = call_.values[c].num.u;
    const Value& data4 = call_.values[c];
    if (data4.kind != Kind::array || data4.count != 8) return false;
    std::uint64_t b[8];
    std::uint32_t e = data4.first;
    for (int i = 0; i < 8; ++i, e = call_.values[e].next) b[i] = call_.values[e].num.u & 0xff;
    char buf[64];
    std::snprintf(buf, sizeof buf, "uuid(%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x)",
                  static_cast<unsigned>(part[0]), static_cast<unsigned>(part[1] & 0xffff),
                  static_cast<unsigned>(part[2] & 0xffff), static_cast<unsigned>(b[0]), static_cast<unsigned>(b[1]),
                  static_cast<unsigned>(b[2]), static_cast<unsigned>(b[3]), static_cast<unsigned>(b[4]),
                  static_cast<unsigned>(b[5]), static_cast<unsigned>(b[6]), static_cast<unsigned>(b[7]));
    out_ += buf;
    return true;
  }

  void enumeration(const Value& v) {
    if (const std::string* name = v.enum_sig()->name_of(v.num.i)) {
      lit(name->c_str());
      return;
    }
    color(kBlue);
    put_i64(out_, v.num.i);
    color(kNormal);
  }

  void bitmask(const Value& v) {
    std::uint64_t value = v.num.u;
    bool first = true;
    for (const auto& [name, flag] : v.bitmask_sig()->flags) {
      if ((flag && (value & flag) == flag) || (!flag && value == 0)) {
        if (!first) out_ += " | ";
        lit(name.c_str());
        value &= ~flag;
        first = false;
      }
      if (value == 0) break;
    }
    if (value || first) {
      if (!first) out_ += " | ";
      color(kBlue);
      out_ += "0x";
      put_hex(out_, value);
      color(kNormal);
    }
  }

  void array(const Value& v) {
    if (v.count == 1) {
      out_ += '&';
      value(v.first);
      return;
    }
    out_ += '{';
    std::uint32_t child = v.first;
    for (std::uint32_t i = 0; i < v.count && child != kNil; ++i, child = call_.values[child].next) {
      if (i) out_ += ", ";
      value(child);
    }
    out_ += '}';
  }

  void blob_file(const Value& v) {
    std::string name = "blob_call" + std::to_string(call_.no);
    if (blobs_) name += "_" + std::to_string(blobs_);
    name += ".bin";
    ++blobs_;
    if (!v.has_data) throw Error(Errc::usage, name, "the blob's bytes were not kept (ParserOptions::keep_blob_data)");
    OutputFile f((std::filesystem::path(opt_.blob_dir) / name).string());
    const std::string_view bytes = call_.str(v);
    f.write(bytes.data(), bytes.size());
    f.commit();
    out_ += '"';
    out_ += name;
    out_ += '"';
  }

  const Call& call_;
  const DumpOptions& opt_;
  std::string& out_;
  unsigned blobs_ = 0;  // written so far for this call
};

void frame_line(const StackFrame& f, std::string& out) {
  out += f.module.empty() ? "?" : f.module;
  if (!f.function.empty()) {
    out += ": ";
    out += f.function;
  }
  // apitrace keeps the offset in a long long and the line in an int.
  if (f.has_offset && f.offset < (1ull << 63)) {
    out += "+0x";
    put_hex(out, f.offset);
  }
  if (!f.filename.empty()) {
    out += ": ";
    out += f.filename;
    const auto line = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.line));
    if (f.has_line && line >= 0) {
      out += ':';
      put_i64(out, line);
    }
  }
  out += '\n';
}

}  // namespace

void dump_header(const TraceHeader& header, const DumpOptions& opt, std::string& out) {
  static const Call empty_call;
  for (const auto& [key, value] : header.properties) {
    out += "// ";
    out += key;  // raw: apitrace escapes and colours only the value
    out += " = ";
    if (opt.color) out += kBlue;
    out += '"';
    Renderer(empty_call, opt, out).escape(value);
    out += '"';
    if (opt.color) out += kNormal;
    out += '\n';
  }
}

void dump_call(const Call& call, const DumpOptions& opt, std::string& out) {
  if ((call.flags & kCallVerbose) && !opt.verbose) return;
  if (opt.call_nos) {
    put_u64(out, call.no);
    out += ' ';
  }
  if (opt.thread_ids) {
    out += '@';
    put_hex(out, call.thread);
    out += ' ';
  }
  if (opt.color) {
    out += (call.flags & kCallNonReproducible) ? kStrike : (call.flags & kCallNoSideEffects) ? kNormal : kBold;
  }
  out += call.sig->name;
  if (opt.color) out += kNormal;
  out += '(';
  Renderer r(call, opt, out);
  const std::size_t nargs = std::max(call.args.size(), call.sig->arg_names.size());
  for (std::size_t i = 0; i < nargs; ++i) {
    if (i) out += ", ";
    if (opt.arg_names) {
      if (i < call.sig->arg_names.size())
        out += call.sig->arg_names[i];
      else
        out += "?";
      if (opt.color) out += kNormal;
      out += " = ";
    }
    if (i < call.args.size() && call.args[i] != kNil)
      r.value(call.args[i]);
    else
      out += '?';
  }
  out += ')';
  if (call.ret != kNil) {
    out += " = ";
    r.value(call.ret);
  }
  if (call.flags & (kCallFake | kCallIncomplete)) {
    out += " //";
    if (call.flags & kCallFake) out += " fake";
    if (call.flags & kCallIncomplete) {
      out += ' ';
      if (opt.color) out += kRed;
      out += "incomplete";
      if (opt.color) out += kNormal;
    }
  }
  out += '\n';
  if (opt.multiline) {
    if (!call.backtrace.empty()) {
      if (opt.color) out += kRed;
      out += "Backtrace:";
      if (opt.color) out += kNormal;
      out += '\n';
      for (const StackFrame* f : call.backtrace) frame_line(*f, out);
    }
    if (call.flags & kCallEndFrame) out += '\n';
  }
}

}  // namespace libtrace::apitrace
