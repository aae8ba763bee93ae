// SPDX-License-Identifier: MIT
// Writes version-6 trace streams (into any Sink, usually an encoder).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "libtrace/apitrace/model.hpp"
#include "libtrace/core/io.hpp"

namespace libtrace::apitrace {

// Emits `6 <semantic> properties`, then one enter and one leave event per
// call. Calls are numbered in the order they are written (as `apitrace trim`
// does); a call flagged kCallIncomplete gets only its enter event, so readers
// see it unfinished again. Signatures keep the ids they carry and are defined
// on first use, so signatures from one source must not be mixed with another's.
class Writer {
 public:
  // header.semantic_version is kept (clamped to 6); properties are copied.
  Writer(Sink& out, const TraceHeader& header);
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void write_call(const Call& call);
  // Hands buffered bytes to the sink (also done every 64 KiB).
  void flush();
  std::uint64_t calls_written() const { return next_no_; }

 private:
  // Which ids of one signature kind were already defined in the stream.
  class IdSet {
   public:
    // True the first time an id is seen.
    bool insert(std::uint64_t id);

   private:
    std::vector<bool> dense_;
    std::unordered_set<std::uint64_t> sparse_;
  };

  void put_byte(std::uint8_t b) { buf_.push_back(static_cast<char>(b)); }
  void put_uint(std::uint64_t v);
  void put_string(std::string_view s);
  void put_value(const Call& call, std::uint32_t idx);

  Sink& out_;
  std::string buf_;
  IdSet functions_, structs_, enums_, bitmasks_, frames_;
  std::uint64_t next_no_ = 0;
};

}  // namespace libtrace::apitrace
