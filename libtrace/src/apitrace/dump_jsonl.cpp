// SPDX-License-Identifier: MIT
// JSON Lines rendering of calls: one object per line, lossless for every
// value type except blob bytes (sizes only). The schema is in README.md.
#include <charconv>
#include <cmath>

#include "core/json_text.hpp"
#include "core/text_util.hpp"
#include "libtrace/apitrace/call_flags.hpp"
#include "libtrace/apitrace/dump.hpp"

namespace libtrace::apitrace {

namespace {

using detail::put_escaped_unit;
using detail::put_hex;
using detail::put_i64;
using detail::put_json_string;
using detail::put_u64;

void put_number(std::string& out, double d) {
  if (std::isnan(d)) {
    out += "\"nan\"";
  } else if (std::isinf(d)) {
    out += d < 0 ? "\"-inf\"" : "\"inf\"";
  } else {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, d);
    out.append(buf, static_cast<std::size_t>(r.ptr - buf));
  }
}

void put_value(const Call& call, std::uint32_t idx, std::string& out) {
  const Value& v = call.values[idx];
  switch (v.kind) {
    case Kind::null: out += "null"; return;
    case Kind::boolean: out += v.num.u ? "true" : "false"; return;
    case Kind::sint: put_i64(out, v.num.i); return;
    case Kind::uint: put_u64(out, v.num.u); return;
    case Kind::float32: put_number(out, static_cast<double>(static_cast<float>(v.num.d))); return;
    case Kind::float64: put_number(out, v.num.d); return;
    case Kind::string: put_json_string(out, call.str(v)); return;
    case Kind::wstring: {
      out += "{\"wstring\":\"";
      for (std::uint64_t k = 0; k < v.len; ++k) {
        const std::uint32_t c = call.wchar(v, k);
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
          out += static_cast<char>(c);
        else if (c > 0xffff)
          put_escaped_unit(out, 0xfffd);
        else
          put_escaped_unit(out, c);
      }
      out += "\"}";
      return;
    }
    case Kind::blob:
      out += "{\"blob\":";
      put_u64(out, v.len);
      out += '}';
      return;
    case Kind::enumeration: {
      out += "{\"enum\":";
      if (const std::string* name = v.enum_sig()->name_of(v.num.i))
        put_json_string(out, *name);
      else
        out += "null";
      out += ",\"value\":";
      put_i64(out, v.num.i);
      out += '}';
      return;
    }
    case Kind::bitmask: {
      out += "{\"bitmask\":[";
      std::uint64_t rest = v.num.u;
      bool first = true;
      for (const auto& [n, flag] : v.bitmask_sig()->flags) {
        if ((flag && (rest & flag) == flag) || (!flag && rest == 0)) {
          if (!first) out += ',';
          put_json_string(out, n);
          rest &= ~flag;
          first = false;
        }
        if (rest == 0) break;
      }
      out += "],\"value\":";
      put_u64(out, v.num.u);
      out += '}';
      return;
    }
    case Kind::array: {
      out += '[';
      std::uint32_t child = v.first;
      for (std::uint32_t i = 0; i < v.count && child != kNil; ++i, child = call.values[child].next) {
        if (i) out += ',';
        put_value(call, child, out);
      }
      out += ']';
      return;
    }
    case Kind::structure: {
      out += "{\"struct\":";
      put_json_string(out, v.struct_sig()->name);
      out += ",\"members\":{";
      std::uint32_t child = v.first;
      for (std::uint32_t i = 0; i < v.count && child != kNil; ++i, child = call.values[child].next) {
        if (i) out += ',';
        put_json_string(out, v.struct_sig()->member_names[i]);
        out += ':';
        put_value(call, child, out);
      }
      out += "}}";
      return;
    }
    case Kind::pointer: {
      out += "{\"pointer\":\"0x";
      put_hex(out, v.num.u);
      out += "\"}";
      return;
    }
    case Kind::repr:
      out += "{\"repr\":";
      put_value(call, v.first, out);
      out += ",\"raw\":";
      put_value(call, call.values[v.first].next, out);
      out += '}';
      return;
  }
}

struct FlagName {
  std::uint32_t bit;
  const char* name;
};
constexpr FlagName kFlagNames[] = {
    {kCallFake, "fake"},
    {kCallNonReproducible, "non_reproducible"},
    {kCallNoSideEffects, "no_side_effects"},
    {kCallRender, "render"},
    {kCallSwapRenderTarget, "swap_render_target"},
    {kCallEndFrame, "end_frame"},
    {kCallIncomplete, "incomplete"},
    {kCallVerbose, "verbose"},
    {kCallMarker, "marker"},
    {kCallMarkerPush, "marker_push"},
    {kCallMarkerPop, "marker_pop"},
};

}  // namespace

void jsonl_header(const TraceHeader& header, std::string_view container, std::string& out) {
  out += "{\"type\":\"header\",\"version\":";
  put_u64(out, header.version);
  out += ",\"semantic_version\":";
  put_u64(out, header.semantic_version);
  out += ",\"container\":";
  put_json_string(out, container);
  out += ",\"properties\":{";
  bool first = true;
  for (const auto& [k, v] : header.properties) {
    if (!first) out += ',';
    first = false;
    put_json_string(out, k);
    out += ':';
    put_json_string(out, v);
  }
  out += "}}\n";
}

void jsonl_call(const Call& call, std::string& out) {
  out += "{\"type\":\"call\",\"no\":";
  put_u64(out, call.no);
  out += ",\"thread\":";
  put_u64(out, call.thread);
  out += ",\"name\":";
  put_json_string(out, call.sig->name);
  out += ",\"args\":{";
  bool first = true;
  for (std::size_t i = 0; i < call.args.size(); ++i) {
    if (call.args[i] == kNil) continue;
    if (!first) out += ',';
    first = false;
    if (i < call.sig->arg_names.size())
      put_json_string(out, call.sig->arg_names[i]);
    else
      put_json_string(out, "arg" + std::to_string(i));
    out += ':';
    put_value(call, call.args[i], out);
  }
  out += '}';
  if (call.ret != kNil) {
    out += ",\"ret\":";
    put_value(call, call.ret, out);
  }
  out += ",\"flags\":[";
  first = true;
  for (const auto& f : kFlagNames) {
    if (!(call.flags & f.bit)) continue;
    if (!first) out += ',';
    first = false;
    out += '"';
    out += f.name;
    out += '"';
  }
  out += ']';
  if (!call.backtrace.empty()) {
    out += ",\"backtrace\":[";
    for (std::size_t i = 0; i < call.backtrace.size(); ++i) {
      const StackFrame& f = *call.backtrace[i];
      if (i) out += ',';
      out += "{\"module\":";
      put_json_string(out, f.module);
      out += ",\"function\":";
      put_json_string(out, f.function);
      out += ",\"file\":";
      put_json_string(out, f.filename);
      if (f.has_line) {
        out += ",\"line\":";
        put_u64(out, f.line);
      }
      if (f.has_offset) {
        out += ",\"offset\":";
        put_u64(out, f.offset);
      }
      out += '}';
    }
    out += ']';
  }
  out += "}\n";
}

}  // namespace libtrace::apitrace
