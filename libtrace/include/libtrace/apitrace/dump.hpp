// SPDX-License-Identifier: MIT
// Text and JSON Lines renderings of calls. The text form is byte-identical to
// `apitrace dump` (11.1) for the same options.
#pragma once

#include <cstdint>
#include <memory>
#include <regex>
#include <string>

#include "libtrace/apitrace/callset.hpp"
#include "libtrace/apitrace/model.hpp"
#include "libtrace/core/io.hpp"

namespace libtrace::apitrace {

struct DumpOptions {
  bool verbose = false;     // also VERBOSE calls (glGetString, ...), like -v
  bool thread_ids = false;  // "@tid " after the call number (hex, as apitrace)
  bool call_nos = true;
  bool arg_names = true;
  bool multiline = true;  // newlines in strings kept; blank line after frames
  bool color = false;     // ANSI escapes as apitrace's --color=always
  // Each blob's bytes into a file of this folder, named as apitrace dump
  // --blobs names them (blob_call<NO>.bin, then blob_call<NO>_<k>.bin for
  // the call's k-th further blob) and printed as blob("NAME"); empty: blobs
  // print as blob(SIZE). Needs the parser to keep blob data.
  std::string blob_dir;
  // Only calls whose function name the expression finds a match in (as
  // apitrace dump --grep); null: every call. Traces only.
  std::shared_ptr<const std::regex> grep;
};

// Appends the header lines ("// key = "value"" per property) to `out`.
void dump_header(const TraceHeader& header, const DumpOptions& opt, std::string& out);

// Appends one call as apitrace dump prints it (nothing for hidden calls).
void dump_call(const Call& call, const DumpOptions& opt, std::string& out);

// JSON Lines: one object per call, schema in README ("trak-convert --to jsonl").
void jsonl_header(const TraceHeader& header, std::string_view container, std::string& out);
void jsonl_call(const Call& call, std::string& out);

}  // namespace libtrace::apitrace
