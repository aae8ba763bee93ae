// SPDX-License-Identifier: MIT
// Recompression of trace streams, and the call-by-call comparison behind
// --verify.
#include "libtrace/apitrace/repack.hpp"

#include <cstring>
#include <optional>

#include "libtrace/apitrace/parser.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::apitrace {

namespace {

bool same_value(const Call& a, const Call& b, std::uint32_t ia, std::uint32_t ib) {
  if (ia == kNil || ib == kNil) return ia == ib;
  const Value& x = a.values[ia];
  const Value& y = b.values[ib];
  if (x.kind != y.kind || x.count != y.count || x.len != y.len) return false;
  switch (x.kind) {
    case Kind::float32:
    case Kind::float64: return std::memcmp(&x.num.d, &y.num.d, sizeof x.num.d) == 0;
    case Kind::string:
    case Kind::blob:
      if (x.has_data != y.has_data) return false;
      return !x.has_data || a.str(x) == b.str(y);
    case Kind::wstring:
      return std::string_view(a.bytes).substr(x.data, 4 * x.len) == std::string_view(b.bytes).substr(y.data, 4 * y.len);
    case Kind::enumeration: return x.num.i == y.num.i && x.enum_sig()->values == y.enum_sig()->values;
    case Kind::bitmask: return x.num.u == y.num.u && x.bitmask_sig()->flags == y.bitmask_sig()->flags;
    case Kind::structure:
      if (x.struct_sig()->name != y.struct_sig()->name || x.struct_sig()->member_names != y.struct_sig()->member_names)
        return false;
      [[fallthrough]];
    case Kind::array:
    case Kind::repr: {
      std::uint32_t cx = x.first, cy = y.first;
      for (std::uint32_t i = 0; i < x.count; ++i) {
        if (!same_value(a, b, cx, cy)) return false;
        cx = a.values[cx].next;
        cy = b.values[cy].next;
      }
      return true;
    }
    default: return x.num.u == y.num.u;
  }
}

bool same_call(const Call& a, const Call& b) {
  if (a.no != b.no || a.thread != b.thread || a.flags != b.flags || a.sig->name != b.sig->name ||
      a.sig->arg_names != b.sig->arg_names || a.args.size() != b.args.size() ||
      a.backtrace.size() != b.backtrace.size())
    return false;
  for (std::size_t i = 0; i < a.args.size(); ++i)
    if (!same_value(a, b, a.args[i], b.args[i])) return false;
  for (std::size_t i = 0; i < a.backtrace.size(); ++i) {
    const StackFrame& fa = *a.backtrace[i];
    const StackFrame& fb = *b.backtrace[i];
    if (fa.module != fb.module || fa.function != fb.function || fa.filename != fb.filename || fa.line != fb.line ||
        fa.offset != fb.offset)
      return false;
  }
  return same_value(a, b, a.ret, b.ret);
}

}  // namespace

std::uint64_t compare_traces(const std::string& expected, const std::string& actual, const std::string& actual_name) {
  InputFile in_a(expected), in_b(actual);
  const std::string name_b = actual_name.empty() ? in_b.name() : actual_name;
  Parser pa(prefetch(open_decoder(in_a)), in_a.name());
  std::unique_ptr<Parser> pb_holder;
  try {
    pb_holder = std::make_unique<Parser>(prefetch(open_decoder(in_b)), name_b);
  } catch (const Error& e) {
    throw Error(Errc::bad_record, e.where(), "verify failed: " + e.message());
  }
  Parser& pb = *pb_holder;
  if (pa.header().semantic_version != pb.header().semantic_version || pa.header().properties != pb.header().properties)
    throw Error(Errc::bad_record, name_b, "verify failed: header differs");
  std::uint64_t n = 0;
  for (;;) {
    const Call* a = pa.next();
    const Call* b = nullptr;
    try {
      b = pb.next();
    } catch (const Error& e) {
      throw Error(Errc::bad_record, e.where(), "verify failed: " + e.message());
    }
    if (!a && !b) break;
    if (!a || !b)
      throw Error(Errc::bad_record, name_b,
                  "verify failed: " + std::string(a ? "calls missing" : "extra calls") + " after call " +
                      std::to_string(n) + " of the comparison");
    if (!same_call(*a, *b))
      throw Error(Errc::bad_record, name_b,
                  "verify failed: call " + std::to_string(a->no) + " (" + a->sig->name + ") differs");
    ++n;
  }
  if (pa.stream_offset() != pb.stream_offset())
    throw Error(Errc::bad_record, name_b,
                "verify failed: stream is " + std::to_string(pb.stream_offset()) + " bytes, expected " +
                    std::to_string(pa.stream_offset()));
  return n;
}

namespace {

// Decompresses both files and compares their streams byte for byte.
std::uint64_t compare_streams(const std::string& expected, const std::string& actual, const std::string& actual_name) {
  InputFile in_a(expected), in_b(actual);
  const std::string name_b = actual_name.empty() ? in_b.name() : actual_name;
  auto da = open_decoder(in_a), db = open_decoder(in_b);
  Block a, b;
  std::size_t ia = 0, ib = 0;
  std::uint64_t offset = 0;
  for (;;) {
    if (ia == a.size()) {
      ia = 0;
      if (!da->next(a)) a.clear();
    }
    if (ib == b.size()) {
      ib = 0;
      try {
        if (!db->next(b)) b.clear();
      } catch (const Error& e) {
        throw Error(Errc::bad_record, e.where(), "verify failed: " + e.message());
      }
    }
    if (a.empty() || b.empty()) {
      if (a.empty() != b.empty())
        throw Error(Errc::bad_record, name_b,
                    "verify failed: the stream " + std::string(a.empty() ? "goes on" : "ends") + " at byte " +
                        std::to_string(offset) + " of the input's");
      return offset;
    }
    const std::size_t n = std::min(a.size() - ia, b.size() - ib);
    if (std::memcmp(a.data() + ia, b.data() + ib, n) != 0)
      throw Error(Errc::bad_record, name_b,
                  "verify failed: the stream differs within bytes " + std::to_string(offset) + " to " +
                      std::to_string(offset + n));
    ia += n;
    ib += n;
    offset += n;
  }
}

// Copies the input's stream block by block into the encoder, and hands each
// block on to whoever reads from it (the parser, or drain()).
class Copier final : public Decoder {
 public:
  Copier(std::unique_ptr<Decoder> inner, Sink& out, RepackResult& result, const Progress& progress, InputFile& in)
      : inner_(std::move(inner)), out_(out), result_(result), progress_(progress), in_(in) {}

  bool next(Block& block) override {
    if (ended_) return false;
    try {
      if (!inner_->next(block)) {
        ended_ = true;
        return false;
      }
      out_.write(block.data(), block.size());
    } catch (const Error& e) {
      error_ = e;
      ended_ = true;
      throw;
    }
    result_.stream_bytes += block.size();
    if (progress_) progress_(inner_->file_offset(), in_.size());
    return true;
  }
  Container container() const override { return inner_->container(); }
  std::uint64_t file_offset() const override { return inner_->file_offset(); }

  // The rest of the stream, copied; throws the first error of the container
  // or of the output, whoever met it.
  void drain() {
    Block block;
    while (next(block)) {
    }
    if (error_) throw *error_;
  }

 private:
  std::unique_ptr<Decoder> inner_;
  Sink& out_;
  RepackResult& result_;
  const Progress& progress_;
  InputFile& in_;
  std::optional<Error> error_;
  bool ended_ = false;
};

// A decoder lent to a parser that must not own it.
class Lent final : public Decoder {
 public:
  explicit Lent(Decoder& d) : d_(d) {}
  bool next(Block& block) override { return d_.next(block); }
  Container container() const override { return d_.container(); }
  std::uint64_t file_offset() const override { return d_.file_offset(); }

 private:
  Decoder& d_;
};

// The stream written so far, then the input's error: parsed, it tells what a
// reader of the input would be told.
class ThenFail final : public Decoder {
 public:
  ThenFail(std::unique_ptr<Decoder> inner, Error error) : inner_(std::move(inner)), error_(std::move(error)) {}
  bool next(Block& block) override {
    if (inner_->next(block)) return true;
    throw error_;
  }
  Container container() const override { return inner_->container(); }
  std::uint64_t file_offset() const override { return inner_->file_offset(); }

 private:
  std::unique_ptr<Decoder> inner_;
  Error error_;
};

// Parser::cut_short() of a stream parsed to its end, counting and storing
// nothing; none where the parser fails. A stream the parser refuses is still
// copied, as repack always has.
std::optional<Error> cut_short(std::unique_ptr<Decoder> stream, const std::string& name) {
  ParserOptions popt;
  popt.keep_blob_data = false;
  popt.skip_values = true;
  try {
    Parser parser(std::move(stream), name, popt);
    while (parser.next()) {
    }
    return parser.cut_short();
  } catch (const Error&) {
    return std::nullopt;
  }
}

// After a failed repack: the output up to its last whole event, re-encoded
// and kept as "OUT.partial", so that it is a trace every reader takes to its
// end (a cut event would stop them). "" when nothing whole was written.
std::string keep_whole_events(const RepackOptions& opt, OutputFile& out) {
  out.flush();
  std::uint64_t cut = 0;
  {
    InputFile written(out.temp_path());
    std::unique_ptr<Parser> parser;
    try {
      parser = std::make_unique<Parser>(open_decoder(written), out.name());
      while (parser->next()) {
      }
    } catch (const Error&) {
      // The cut event: parser->complete_bytes() ends before it.
    }
    if (parser) cut = parser->complete_bytes();
  }
  if (cut == 0) return {};
  OutputFile fixed(opt.output);
  auto encoder = make_encoder(opt.encoder, fixed);
  InputFile written(out.temp_path());
  auto decoder = open_decoder(written);
  Block block;
  try {
    for (std::uint64_t left = cut; left > 0 && decoder->next(block);) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, block.size()));
      encoder->write(block.data(), n);
      left -= n;
    }
  } catch (const Error&) {
    // The cut lies before any damage the re-read could meet.
  }
  encoder->finish();
  return fixed.keep_partial();
}

}  // namespace

RepackResult repack_trace(const RepackOptions& opt) {
  InputFile in(opt.input);
  return repack_trace(opt, in, open_decoder(in));
}

RepackResult repack_trace(const RepackOptions& opt, InputFile& in, std::unique_ptr<Decoder> stream) {
  if (opt.verify && (is_stdio(opt.input) || is_stdio(opt.output)))
    throw Error(Errc::usage, "", "--verify needs a file input and a file output, not '-'");
  check_level(opt.encoder.container, opt.encoder.level);
  RepackResult result;
  OutputFile out(opt.output);
  if (opt.verify && out.in_place()) throw Error(Errc::usage, out.name(), "--verify needs a regular file to read back");
  auto encoder = make_encoder(opt.encoder, out);
  Copier copier(prefetch(std::move(stream)), *encoder, result, opt.progress, in);
  // An input whose container is cut short between two whole calls is no
  // failure: the output, finished, holds every call in a complete container.
  // Only a parse knows where the stream's events end. A file output is
  // parsed again only when the input fails, so that the copy stays a block
  // copy; a pipe cannot be read back, so its stream is parsed as it is
  // copied, the copying on a thread of its own.
  std::optional<Error> cut, failed;
  try {
    if (out.in_place() && !opt.bytes_only) cut = cut_short(prefetch(std::make_unique<Lent>(copier)), in.name());
    if (!cut) copier.drain();
  } catch (const Error& e) {
    failed = e;
  }
  encoder->finish();
  if (failed && failed->code() == Errc::truncated && !opt.bytes_only && !out.in_place()) {
    out.flush();
    InputFile written(out.temp_path());
    cut = cut_short(std::make_unique<ThenFail>(open_decoder(written), *failed), in.name());
  }
  if (failed && !cut) {
    // What could be read is a valid, shorter trace: keep it for salvage.
    const std::string partial = opt.bytes_only || out.in_place() ? out.keep_partial() : keep_whole_events(opt, out);
    if (partial.empty()) throw *failed;
    throw Error(failed->code(), failed->where(), failed->message() + " (readable part kept in " + partial + ")");
  }
  if (cut && opt.warnings) opt.warnings(cut->where(), cut->message());
  out.flush();
  if (opt.progress) opt.progress(in.offset(), in.offset());
  result.input_bytes = in.offset();
  result.output_bytes = out.bytes_written();
  if (opt.verify) {
    if (opt.bytes_only)
      result.bytes_verified = compare_streams(opt.input, out.temp_path(), out.name());
    else
      result.calls_verified = compare_traces(opt.input, out.temp_path(), out.name());
  }
  out.commit();
  return result;
}

}  // namespace libtrace::apitrace
