// SPDX-License-Identifier: MIT
// trace -> text / JSON Lines / trace, streaming one call at a time.
#include "libtrace/convert.hpp"

#include "libtrace/error.hpp"
#include "libtrace/trace_parser.hpp"
#include "libtrace/trace_writer.hpp"
#include "libtrace/vma.hpp"

namespace libtrace {

namespace {

constexpr std::size_t kTextFlush = 1 << 16;
constexpr std::uint64_t kProgressEvery = 1 << 14;  // calls

// Keeps what was converted before a failure and names where it went.
[[noreturn]] void fail_keeping_partial(const Error& e, OutputFile& out) {
  const std::string partial = out.keep_partial();
  if (partial.empty()) throw e;
  throw Error(e.code(), e.where(), e.message() + " (output so far kept in " + partial + ")");
}

}  // namespace

void convert_trace(const ConvertOptions& opt) {
  InputFile in(opt.input);
  ParserOptions popt;
  popt.keep_blob_data = opt.format == OutputFormat::trace;
  OutputFile out(opt.output);
  std::unique_ptr<Sink> encoder;
  std::unique_ptr<Writer> writer;
  std::string text;
  text.reserve(kTextFlush * 2);
  try {
    std::string head;
    auto decoder = peek_stream(open_decoder(in), 64, head);
    if (vma::looks_like_recording(head))
      throw Error(Errc::unsupported, in.name(), "this is a VMA calls recording; trak-convert does not convert recordings yet");
    Parser parser(prefetch(std::move(decoder)), in.name(), popt);
    const TraceHeader& header = parser.header();
    switch (opt.format) {
      case OutputFormat::text:
        dump_header(header, opt.dump, text);
        break;
      case OutputFormat::jsonl:
        jsonl_header(header, container_name(parser.container()), text);
        break;
      case OutputFormat::trace:
        encoder = make_encoder(opt.encoder, out);
        writer = std::make_unique<Writer>(*encoder, header);
        break;
    }
    const CallSet& calls = opt.dump.calls;
    const std::uint64_t last = calls.last();
    std::uint64_t n = 0;
    try {
      while (const Call* call = parser.next()) {
        // apitrace 11.1 stops at the first call past the set's end.
        if (call->no > last) break;
        if (calls.contains(call->no, call->flags)) {
          switch (opt.format) {
            case OutputFormat::text: dump_call(*call, opt.dump, text); break;
            case OutputFormat::jsonl: jsonl_call(*call, text); break;
            case OutputFormat::trace: writer->write_call(*call); break;
          }
          if (text.size() >= kTextFlush) {
            out.write(text.data(), text.size());
            text.clear();
          }
        }
        if (opt.progress && ++n % kProgressEvery == 0) opt.progress(parser.file_offset(), in.size());
      }
    } catch (const Error&) {
      // Everything complete so far goes out, even into a failed trace output,
      // which is then a valid (shorter) trace.
      out.write(text.data(), text.size());
      if (writer) {
        writer->flush();
        encoder->finish();
      }
      throw;
    }
    out.write(text.data(), text.size());
    if (writer) {
      writer->flush();
      encoder->finish();
    }
    if (opt.progress) opt.progress(in.offset(), in.offset());
    out.commit();
  } catch (const Error& e) {
    fail_keeping_partial(e, out);
  }
}

}  // namespace libtrace
