// SPDX-License-Identifier: MIT
// trace -> text / JSON Lines / trace, streaming one call at a time.
#include "libtrace/convert/convert.hpp"

#include <cstdio>

#include "libtrace/apitrace/parser.hpp"
#include "libtrace/apitrace/writer.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/vma/convert.hpp"
#include "libtrace/vma/recording.hpp"

namespace libtrace::convert {

// This module writes recordings in the trace stream grammar: apitrace is its
// vocabulary throughout.
using namespace libtrace::apitrace;

namespace {

constexpr std::size_t kTextFlush = 1 << 16;
constexpr std::uint64_t kProgressEvery = 1 << 14;  // calls

// Keeps what was converted before a failure and names where it went.
[[noreturn]] void fail_keeping_partial(const Error& e, OutputFile& out) {
  const std::string partial = out.keep_partial();
  if (partial.empty()) throw e;
  throw Error(e.code(), e.where(), e.message() + " (output so far kept in " + partial + ")");
}

// A recorded VMA call as a trace call: one function signature per VMA
// function (ids in enum order), arguments named as in the recording spec.
class RecordingToTrace {
 public:
  explicit RecordingToTrace(const vma::Header& h) {
    header_.semantic_version = kTraceVersion;
    header_.properties["vma.format.version"] = h.version.str();
    auto dev = h.config.physical_device.find("deviceName");
    if (dev != h.config.physical_device.end()) header_.properties["vma.device.name"] = dev->second;
  }
  const TraceHeader& header() const { return header_; }

  const Call& convert(const vma::Call& rc) {
    const auto fi = static_cast<std::size_t>(rc.function);
    FunctionSig& sig = sigs_[fi];
    const auto ps = vma::params(rc);
    if (sig.name.empty()) {
      sig.id = fi + 1;
      sig.name = std::string(vma::function_name(rc.function));
    }
    // Names follow the columns present (vmaCreatePool has two layouts).
    if (sig.arg_names.size() < ps.size())
      for (std::size_t i = sig.arg_names.size(); i < ps.size(); ++i) sig.arg_names.emplace_back(ps[i].name);
    call_.clear();
    call_.sig = &sig;
    call_.thread = rc.thread;
    for (const vma::Param& p : ps) call_.args.push_back(value(p, rc));
    return call_;
  }

 private:
  std::uint32_t add(Value v) {
    call_.values.push_back(v);
    return static_cast<std::uint32_t>(call_.values.size() - 1);
  }
  std::uint32_t pointer(std::uint64_t p) {
    Value v;
    v.kind = p ? Kind::pointer : Kind::null;
    v.num.u = p;
    return add(v);
  }
  std::uint32_t value(const vma::Param& p, const vma::Call& rc) {
    Value v;
    switch (p.kind) {
      case vma::ParamKind::number:
        v.kind = Kind::uint;
        v.num.u = p.value;
        return add(v);
      case vma::ParamKind::boolean:
        v.kind = Kind::boolean;
        v.num.u = p.value;
        return add(v);
      case vma::ParamKind::pointer: return pointer(p.value);
      case vma::ParamKind::text:
        v.kind = Kind::string;
        v.data = call_.bytes.size();
        v.len = rc.text.size();
        v.has_data = true;
        call_.bytes += rc.text;
        return add(v);
      case vma::ParamKind::pointer_list: {
        std::vector<std::uint32_t> kids;
        for (std::uint64_t x : *p.list) kids.push_back(pointer(x));
        v.kind = Kind::array;
        v.count = static_cast<std::uint32_t>(kids.size());
        for (std::size_t i = 0; i < kids.size(); ++i) {
          if (i == 0)
            v.first = kids[0];
          else
            call_.values[kids[i - 1]].next = kids[i];
        }
        return add(v);
      }
    }
    return add(v);
  }

  TraceHeader header_;
  FunctionSig sigs_[vma::kFunctionCount];
  Call call_;
};

vma::Version parse_version(const std::string& text, vma::Version fallback) {
  if (text.empty()) return fallback;
  // "1.N" (or "1,N", as the file's second line spells it), nothing else.
  if (text.size() != 3 || text[0] != '1' || (text[1] != '.' && text[1] != ',') || text[2] < '0' || text[2] > '8')
    throw Error(Errc::usage, "", "recording format version must be 1.0 to 1.8, not '" + text + "'");
  return {1, text[2] - '0'};
}

void convert_recording(const ConvertOptions& opt, InputFile& in, std::unique_ptr<Decoder> decoder, OutputFile& out) {
  vma::ReaderOptions ro;
  ro.keep_going = opt.keep_going;
  ro.warnings = opt.warnings;
  vma::Reader reader(std::move(decoder), in.name(), ro);
  const vma::Version target = parse_version(opt.recording_version, reader.header().version);
  std::unique_ptr<Sink> encoder;
  std::unique_ptr<Writer> writer;
  std::unique_ptr<vma::CsvWriter> csv;
  std::unique_ptr<RecordingToTrace> to_trace;
  std::string text;
  const bool as_csv = opt.format == OutputFormat::csv || opt.format == OutputFormat::text;
  if (as_csv) {
    csv = std::make_unique<vma::CsvWriter>(out, reader.header(), target);
  } else if (opt.format == OutputFormat::jsonl) {
    vma::jsonl_header(reader.header(), text);
  } else {
    to_trace = std::make_unique<RecordingToTrace>(reader.header());
    encoder = make_encoder(opt.encoder, out);
    writer = std::make_unique<Writer>(*encoder, to_trace->header());
  }
  auto finish = [&] {
    out.write(text.data(), text.size());
    text.clear();
    if (csv) csv->flush();
    if (writer) {
      writer->flush();
      encoder->finish();
    }
  };
  // --calls numbers a recording's calls from 0 in file order, as the trace
  // it converts to numbers them.
  if (opt.select.frames_given || !opt.select.threads.empty())
    throw Error(Errc::usage, in.name(), "--frames and --thread apply to traces; a recording has no frames or threads");
  const CallSet& calls = opt.select.calls;
  const std::uint64_t last = calls.last();
  std::uint64_t no = 0;
  try {
    while (const vma::Call* c = reader.next()) {
      if (no > last) break;
      if (!calls.contains(no++, 0)) continue;
      if (csv) {
        try {
          csv->write(*c);
        } catch (const Error& e) {
          throw Error(e.code(), in.name() + ": " + e.where(), e.message());
        }
      } else if (writer) {
        writer->write_call(to_trace->convert(*c));
      } else {
        vma::jsonl_call(*c, text);
        if (text.size() >= kTextFlush) {
          out.write(text.data(), text.size());
          text.clear();
        }
      }
    }
  } catch (const Error&) {
    finish();
    throw;
  }
  finish();
  if (opt.progress) opt.progress(in.offset(), in.offset());
}

// One input into `out`, which the caller commits.
void convert_into(const ConvertOptions& opt, InputFile& in, Sniffed sniffed, OutputFile& out) {
  ParserOptions popt;
  popt.keep_blob_data = opt.format == OutputFormat::trace || !opt.dump.blob_dir.empty();
  popt.warnings = opt.warnings;
  std::unique_ptr<Sink> encoder;
  std::unique_ptr<Writer> writer;
  std::string text;
  text.reserve(kTextFlush * 2);
  if (sniffed.format != Format::apitrace && sniffed.format != Format::vma_recording)
    throw Error(Errc::unsupported, in.name(),
                "this is " + std::string(format_name(sniffed.format)) + ", neither a trace nor a recording");
  auto decoder = std::move(sniffed.stream);
  if (sniffed.format == Format::vma_recording) {
    convert_recording(opt, in, std::move(decoder), out);
    return;
  }
  if (opt.format == OutputFormat::csv)
    throw Error(Errc::usage, in.name(), "--to csv applies to VMA recordings; this is a trace");
  Parser parser(prefetch(std::move(decoder)), in.name(), popt);
  const TraceHeader& header = parser.header();
  switch (opt.format) {
    case OutputFormat::text:
      // apitrace dump --grep prints the calls alone.
      if (!opt.dump.grep) dump_header(header, opt.dump, text);
      break;
    case OutputFormat::jsonl: jsonl_header(header, container_name(parser.container()), text); break;
    case OutputFormat::trace:
    case OutputFormat::csv:
      encoder = make_encoder(opt.encoder, out);
      writer = std::make_unique<Writer>(*encoder, header);
      break;
  }
  CallSelection select = opt.select;
  std::uint64_t n = 0;
  try {
    while (const Call* call = parser.next()) {
      const auto verdict = select.next(call->no, call->thread, call->flags);
      if (verdict == CallSelection::Verdict::stop) break;
      if (verdict == CallSelection::Verdict::keep &&
          (!opt.dump.grep || std::regex_search(call->name().begin(), call->name().end(), *opt.dump.grep))) {
        switch (opt.format) {
          case OutputFormat::text: {
            // A blob file that cannot be written stops the dump: the call's
            // half-rendered line does not go out with the calls before it.
            const std::size_t whole = text.size();
            try {
              dump_call(*call, opt.dump, text);
            } catch (const Error&) {
              text.resize(whole);
              throw;
            }
            break;
          }
          case OutputFormat::jsonl: jsonl_call(*call, text); break;
          case OutputFormat::trace:
          case OutputFormat::csv: writer->write_call(*call); break;
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
}

}  // namespace

void convert_trace(const ConvertOptions& opt) {
  InputFile in(opt.input);
  convert_trace(opt, in, sniff(in));
}

void convert_trace(const ConvertOptions& opt, InputFile& in, Sniffed sniffed) {
  OutputFile out(opt.output);
  try {
    convert_into(opt, in, std::move(sniffed), out);
    out.commit();
  } catch (const Error& e) {
    fail_keeping_partial(e, out);
  }
}

void convert_traces(const ConvertOptions& opt, const std::vector<std::string>& inputs) {
  if (inputs.size() > 1 && opt.format != OutputFormat::text && opt.format != OutputFormat::jsonl)
    throw Error(Errc::usage, "",
                "several inputs convert to text or jsonl, one after the other; a trace or CSV takes one");
  OutputFile out(opt.output);
  try {
    for (const std::string& path : inputs) {
      InputFile in(path);
      convert_into(opt, in, sniff(in), out);
    }
    out.commit();
  } catch (const Error& e) {
    fail_keeping_partial(e, out);
  }
}

}  // namespace libtrace::convert
