// SPDX-License-Identifier: MIT
// VMA recordings to other forms: CSV of another format version, JSON Lines,
// or an apitrace trace stream.
#pragma once

#include <string>

#include "libtrace/core/io.hpp"
#include "libtrace/vma/recording.hpp"

namespace libtrace::vma {

// Writes calls as a recording of `target` version. Refuses (Error
// unsupported, naming the line) a call the target version cannot express.
class CsvWriter {
 public:
  CsvWriter(Sink& out, const Header& source, Version target);
  void write(const Call& call);
  void flush();

 private:
  Sink& out_;
  Version target_;
  std::string buf_;
};

// One JSON object per call: {"line","thread","time","frame","function","args"}.
void jsonl_header(const Header& h, std::string& out);
void jsonl_call(const Call& c, std::string& out);

}  // namespace libtrace::vma
