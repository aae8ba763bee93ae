// SPDX-License-Identifier: MIT
// Version-6 trace stream writer.
#include "libtrace/apitrace/writer.hpp"

#include <algorithm>
#include <cstring>

#include "apitrace/grammar.hpp"
#include "libtrace/apitrace/call_flags.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::apitrace {

namespace {
constexpr std::size_t kFlushAt = 1 << 16;
}

bool Writer::IdSet::insert(std::uint64_t id) {
  if (id < (1u << 16)) {
    if (id >= dense_.size()) dense_.resize(std::max<std::size_t>(id + 1, dense_.size() * 2));
    if (dense_[id]) return false;
    dense_[id] = true;
    return true;
  }
  return sparse_.insert(id).second;
}

Writer::Writer(Sink& out, const TraceHeader& header) : out_(out) {
  put_uint(kTraceVersion);
  put_uint(std::min(header.semantic_version, kTraceVersion));
  for (const auto& [key, value] : header.properties) {
    if (key.empty()) continue;  // an empty name would end the list early
    put_string(key);
    put_string(value);
  }
  put_string("");
}

Writer::~Writer() = default;

void Writer::put_uint(std::uint64_t v) { grammar::append_uint(buf_, v); }

void Writer::put_string(std::string_view s) {
  put_uint(s.size());
  buf_.append(s);
}

void Writer::flush() {
  if (!buf_.empty()) {
    out_.write(buf_.data(), buf_.size());
    buf_.clear();
  }
}

void Writer::put_value(const Call& call, std::uint32_t idx) {
  const Value& v = call.values[idx];
  switch (v.kind) {
    case Kind::null: put_byte(grammar::kNull); return;
    case Kind::boolean: put_byte(v.num.u ? grammar::kTrue : grammar::kFalse); return;
    case Kind::sint:
      if (v.num.i < 0) {
        put_byte(grammar::kSint);
        put_uint(0 - static_cast<std::uint64_t>(v.num.i));
      } else {
        put_byte(grammar::kUint);
        put_uint(static_cast<std::uint64_t>(v.num.i));
      }
      return;
    case Kind::uint:
      put_byte(grammar::kUint);
      put_uint(v.num.u);
      return;
    case Kind::float32: {
      put_byte(grammar::kFloat);
      const float f = static_cast<float>(v.num.d);
      char b[4];
      std::memcpy(b, &f, 4);
      buf_.append(b, 4);
      return;
    }
    case Kind::float64: {
      put_byte(grammar::kDouble);
      char b[8];
      std::memcpy(b, &v.num.d, 8);
      buf_.append(b, 8);
      return;
    }
    case Kind::string:
      put_byte(grammar::kString);
      put_string(call.str(v));
      return;
    case Kind::blob:
      if (!v.has_data) throw Error(Errc::usage, "", "blob payload was not kept; cannot write it");
      put_byte(grammar::kBlob);
      put_string(call.str(v));
      return;
    case Kind::enumeration: {
      const EnumSig* sig = v.enum_sig();
      put_byte(grammar::kEnum);
      put_uint(sig->id);
      if (enums_.insert(sig->id)) {
        put_uint(sig->values.size());
        for (const auto& [name, value] : sig->values) {
          put_string(name);
          put_byte(value < 0 ? grammar::kSint : grammar::kUint);
          put_uint(value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value));
        }
      }
      put_byte(v.num.i < 0 ? grammar::kSint : grammar::kUint);
      put_uint(v.num.i < 0 ? 0 - static_cast<std::uint64_t>(v.num.i) : static_cast<std::uint64_t>(v.num.i));
      return;
    }
    case Kind::bitmask: {
      const BitmaskSig* sig = v.bitmask_sig();
      put_byte(grammar::kBitmask);
      put_uint(sig->id);
      if (bitmasks_.insert(sig->id)) {
        put_uint(sig->flags.size());
        for (const auto& [name, value] : sig->flags) {
          put_string(name);
          put_uint(value);
        }
      }
      put_uint(v.num.u);
      return;
    }
    case Kind::array: {
      put_byte(grammar::kArray);
      put_uint(v.count);
      for (std::uint32_t c = v.first, i = 0; i < v.count && c != kNil; ++i, c = call.values[c].next) put_value(call, c);
      return;
    }
    case Kind::structure: {
      const StructSig* sig = v.struct_sig();
      put_byte(grammar::kStruct);
      put_uint(sig->id);
      if (structs_.insert(sig->id)) {
        put_string(sig->name);
        put_uint(sig->member_names.size());
        for (const auto& m : sig->member_names) put_string(m);
      }
      for (std::uint32_t c = v.first, i = 0; i < v.count && c != kNil; ++i, c = call.values[c].next) put_value(call, c);
      return;
    }
    case Kind::pointer:
      put_byte(grammar::kOpaque);
      put_uint(v.num.u);
      return;
    case Kind::repr:
      put_byte(grammar::kRepr);
      put_value(call, v.first);
      put_value(call, call.values[v.first].next);
      return;
    case Kind::wstring:
      put_byte(grammar::kWstring);
      put_uint(v.len);
      for (std::uint64_t k = 0; k < v.len; ++k) put_uint(call.wchar(v, k));
      return;
  }
}

void Writer::write_call(const Call& call) {
  const FunctionSig* sig = call.sig;
  const std::uint64_t no = next_no_++;
  put_byte(grammar::kEnter);
  put_uint(call.thread);
  put_uint(sig->id);
  if (functions_.insert(sig->id)) {
    put_string(sig->name);
    put_uint(sig->arg_names.size());
    for (const auto& a : sig->arg_names) put_string(a);
  }
  if (call.flags & kCallFake) {
    put_byte(grammar::kCallFlags);
    put_uint(grammar::kWireFake);
  }
  if (!call.backtrace.empty()) {
    put_byte(grammar::kCallBacktrace);
    put_uint(call.backtrace.size());
    for (const StackFrame* f : call.backtrace) {
      put_uint(f->id);
      if (!frames_.insert(f->id)) continue;
      if (!f->module.empty()) {
        put_byte(grammar::kFrameModule);
        put_string(f->module);
      }
      if (!f->function.empty()) {
        put_byte(grammar::kFrameFunction);
        put_string(f->function);
      }
      if (!f->filename.empty()) {
        put_byte(grammar::kFrameFilename);
        put_string(f->filename);
      }
      if (f->has_line) {
        put_byte(grammar::kFrameLine);
        put_uint(f->line);
      }
      if (f->has_offset) {
        put_byte(grammar::kFrameOffset);
        put_uint(f->offset);
      }
      put_byte(grammar::kFrameEnd);
    }
  }
  for (std::size_t i = 0; i < call.args.size(); ++i) {
    if (call.args[i] == kNil) continue;
    put_byte(grammar::kCallArg);
    put_uint(i);
    put_value(call, call.args[i]);
  }
  put_byte(grammar::kCallEnd);
  if (!(call.flags & kCallIncomplete)) {
    put_byte(grammar::kLeave);
    put_uint(no);
    if (call.ret != kNil) {
      put_byte(grammar::kCallRet);
      put_value(call, call.ret);
    }
    put_byte(grammar::kCallEnd);
  }
  if (buf_.size() >= kFlushAt) flush();
}

}  // namespace libtrace::apitrace
