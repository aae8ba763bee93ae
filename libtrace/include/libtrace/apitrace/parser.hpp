// SPDX-License-Identifier: MIT
// Pull parser for the apitrace trace stream (versions 0 to 6).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "libtrace/apitrace/model.hpp"
#include "libtrace/core/codec.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::apitrace {

struct ParserOptions {
  // Keep blob payloads in Call::bytes. Dumps and statistics only need sizes.
  bool keep_blob_data = true;
  // Read values without storing them: calls come out with no arguments and
  // no return value (for counting, as trak-stat does; blobs are still counted).
  bool skip_values = false;
  // Told of a container cut short where the stream holds whole events only
  // (see cut_short()).
  WarningSink warnings;
};

// Signatures by id, for one kind. Ids are small dense numbers in real traces;
// large ones go to a map so a corrupt id cannot force a huge allocation.
template <typename Sig>
class SigTable {
 public:
  const Sig* find(std::uint64_t id) const {
    if (id < dense_.size()) return dense_[id].get();
    auto it = sparse_.find(id);
    return it == sparse_.end() ? nullptr : it->second.get();
  }
  Sig* add(std::uint64_t id) {
    auto sig = std::make_unique<Sig>();
    sig->id = id;
    Sig* raw = sig.get();
    if (id < kDense) {
      if (id >= dense_.size()) dense_.resize(id + 1);
      dense_[id] = std::move(sig);
    } else {
      sparse_[id] = std::move(sig);
    }
    return raw;
  }

 private:
  static constexpr std::uint64_t kDense = 1 << 16;
  std::vector<std::unique_ptr<Sig>> dense_;
  std::unordered_map<std::uint64_t, std::unique_ptr<Sig>> sparse_;
};

// Yields one call at a time, in apitrace's order: a call comes out when its
// leave event is read (so multi-threaded traces are not in number order), and
// calls still unfinished at the end of the stream come out last, in number
// order, flagged kCallIncomplete. Memory stays flat: only unfinished calls and
// signatures are kept.
//
// Errors: malformed data throws Error(bad_record) at once, naming the offset in
// the decompressed stream. Truncated or corrupt containers throw only after
// every call that could be recovered has been returned, as apitrace prints
// them; a call cut in the middle of its event is dropped. A container cut
// short where its stream ends between two whole events is no error: that is
// a trace whose writer was never closed (the application exited or was
// killed), and nothing it wrote is lost. It ends the calls like a clean end,
// with a warning (ParserOptions::warnings, cut_short()).
class Parser {
 public:
  // `name` is used in error locations. Reads the header; throws on a bad one.
  Parser(std::unique_ptr<Decoder> decoder, std::string name, ParserOptions opt = {});
  ~Parser();
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  const TraceHeader& header() const { return header_; }
  Container container() const { return container_; }

  // The next call, or nullptr at the end. The call stays valid until the next
  // call to next().
  const Call* next();

  // Decompressed bytes consumed so far.
  std::uint64_t stream_offset() const { return base_ + static_cast<std::uint64_t>(p_ - begin_); }
  // The stream bytes that hold whole events only: where a cut stream can end
  // and still be read to its end.
  std::uint64_t complete_bytes() const { return complete_bytes_; }
  // Compressed bytes consumed so far (for progress).
  std::uint64_t file_offset() const;
  // Calls entered so far (the next call number).
  std::uint64_t calls_entered() const { return next_call_no_; }
  // Blobs read so far, and their bytes.
  std::uint64_t blobs() const { return blobs_; }
  std::uint64_t blob_bytes() const { return blob_bytes_; }
  // Once next() has returned nullptr: the warning for a container cut short
  // between two whole events ("<file>: offset N", why), if it was.
  const std::optional<Error>& cut_short() const { return cut_short_; }

 private:
  struct EndOfData {};

  bool refill();
  std::uint8_t read_byte() {
    if (p_ == end_ && !refill()) throw EndOfData{};
    return *p_++;
  }
  // Most integers in a trace are one byte: that case stays inline.
  std::uint64_t read_uint() {
    if (p_ != end_ && *p_ < 0x80) [[likely]]
      return *p_++;
    return read_uint_multi();
  }
  std::uint64_t read_uint_multi();
  std::uint64_t read_uint_slow();
  void read_bytes(void* dst, std::uint64_t n);
  void skip_bytes(std::uint64_t n) {
    if (n <= static_cast<std::uint64_t>(end_ - p_)) [[likely]]
      p_ += n;
    else
      skip_bytes_slow(n);
  }
  void skip_bytes_slow(std::uint64_t n);
  std::string read_string();
  void append_bytes(std::string& dst, std::uint64_t n);
  std::int64_t read_typed_sint();

  void parse_header();
  const Call* parse_event();  // nullptr when the event produced no call
  void parse_enter();
  Call* parse_leave();
  bool parse_details(Call& call);
  const FunctionSig* parse_function_sig();
  const StackFrame* parse_frame();
  std::uint32_t parse_value(Call& call, unsigned depth);
  void skip_value(unsigned depth);
  void parse_children(Call& call, std::uint32_t slot, std::uint64_t n, unsigned depth);
  const EnumSig* parse_enum_sig();
  std::int64_t enum_value(const EnumSig* sig);
  const BitmaskSig* parse_bitmask_sig();
  const StructSig* parse_struct_sig();
  void parse_value_into(Call& call, std::uint32_t slot, unsigned depth);
  Call* take_call();
  void recycle(Call* call);
  [[noreturn]] void fail(const std::string& why) const;
  [[noreturn]] [[gnu::noinline, gnu::cold]] void fail_too_many_values() const;
  [[noreturn]] [[gnu::noinline, gnu::cold]] void fail_too_deep() const;
  [[noreturn]] [[gnu::noinline, gnu::cold]] void fail_value_type(std::uint8_t type) const;
  const Call* finish_pending();
  void end_between_events();

  std::unique_ptr<Decoder> decoder_;
  std::string name_;
  ParserOptions opt_;
  Container container_;
  TraceHeader header_;

  Block block_;
  const std::uint8_t* begin_ = nullptr;
  const std::uint8_t* p_ = nullptr;
  const std::uint8_t* end_ = nullptr;
  std::uint64_t base_ = 0;
  std::uint64_t complete_bytes_ = 0;
  std::optional<Error> deferred_;  // truncation/corruption, raised at the end
  std::optional<Error> cut_short_;
  bool eof_ = false;

  SigTable<FunctionSig> functions_;
  SigTable<StructSig> structs_;
  SigTable<EnumSig> enums_;
  SigTable<BitmaskSig> bitmasks_;
  SigTable<StackFrame> frames_;

  std::uint64_t next_call_no_ = 0;
  std::uint64_t blobs_ = 0, blob_bytes_ = 0;
  std::vector<Call*> pending_;                  // entered, not yet left, in number order
  std::vector<std::unique_ptr<Call>> storage_;  // owns every Call
  std::vector<Call*> free_;
  Call* current_ = nullptr;  // returned by the last next()
  Call scratch_;             // leave events of unknown calls
  bool finishing_ = false;
};

}  // namespace libtrace::apitrace
