// SPDX-License-Identifier: MIT
// The apitrace stream grammar (docs/FORMAT.markdown, versions 0 to 6).
#include "libtrace/apitrace/parser.hpp"

#include <algorithm>
#include <cstring>

#include "apitrace/grammar.hpp"
#include "apitrace/parser_internal.hpp"
#include "libtrace/apitrace/call_flags.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::apitrace {

namespace {

// Unfinished calls at once: real traces have about one per thread.
constexpr std::size_t kMaxPending = 1u << 16;
constexpr std::uint64_t kMaxArgNo = 1u << 16;

}  // namespace

using detail::hex_byte;

Parser::Parser(std::unique_ptr<Decoder> decoder, std::string name, ParserOptions opt)
    : decoder_(std::move(decoder)), name_(std::move(name)), opt_(opt), container_(decoder_->container()) {
  parse_header();
}

Parser::~Parser() = default;

std::uint64_t Parser::file_offset() const { return decoder_->file_offset(); }

void Parser::fail(const std::string& why) const {
  throw Error(Errc::bad_record, name_ + ": stream offset " + std::to_string(stream_offset()), why);
}

bool Parser::refill() {
  if (eof_) return false;
  base_ += static_cast<std::uint64_t>(end_ - begin_);
  begin_ = p_ = end_ = nullptr;
  try {
    while (decoder_->next(block_)) {
      if (block_.empty()) continue;
      begin_ = p_ = block_.data();
      end_ = p_ + block_.size();
      return true;
    }
  } catch (const Error& e) {
    deferred_ = e;
  }
  eof_ = true;
  return false;
}

std::uint64_t Parser::read_uint_multi() {
  if (end_ - p_ >= 10) [[likely]] {
    std::uint64_t v = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
      const std::uint8_t b = *p_++;
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    fail("malformed variable-length integer");
  }
  return read_uint_slow();
}

std::uint64_t Parser::read_uint_slow() {
  std::uint64_t v = 0;
  for (unsigned shift = 0; shift < 70; shift += 7) {
    const std::uint8_t b = read_byte();
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  fail("malformed variable-length integer");
}

void Parser::read_bytes(void* dst, std::uint64_t n) {
  auto* out = static_cast<std::uint8_t*>(dst);
  while (n > 0) {
    if (p_ == end_ && !refill()) throw EndOfData{};
    const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(n, static_cast<std::uint64_t>(end_ - p_)));
    std::memcpy(out, p_, k);
    out += k;
    p_ += k;
    n -= k;
  }
}

void Parser::skip_bytes_slow(std::uint64_t n) {
  while (n > 0) {
    if (p_ == end_ && !refill()) throw EndOfData{};
    const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(n, static_cast<std::uint64_t>(end_ - p_)));
    p_ += k;
    n -= k;
  }
}

void Parser::append_bytes(std::string& dst, std::uint64_t n) {
  while (n > 0) {
    if (p_ == end_ && !refill()) throw EndOfData{};
    const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(n, static_cast<std::uint64_t>(end_ - p_)));
    dst.append(reinterpret_cast<const char*>(p_), k);
    p_ += k;
    n -= k;
  }
}

std::string Parser::read_string() {
  const std::uint64_t n = read_uint();
  std::string s;
  if (n <= static_cast<std::uint64_t>(end_ - p_)) {
    s.assign(reinterpret_cast<const char*>(p_), static_cast<std::size_t>(n));
    p_ += n;
  } else {
    append_bytes(s, n);
  }
  return s;
}

std::int64_t Parser::read_typed_sint() {
  const std::uint8_t t = read_byte();
  if (t == grammar::kSint) return -static_cast<std::int64_t>(read_uint());
  if (t == grammar::kUint) return static_cast<std::int64_t>(read_uint());
  fail("expected an integer, found value type " + hex_byte(t));
}

void Parser::parse_header() {
  try {
    if (p_ == end_ && !refill()) {
      if (deferred_) throw *deferred_;
      throw Error(Errc::truncated, at_offset(name_, 0), "empty trace stream (no header)");
    }
    const std::uint64_t version = read_uint();
    if (version > kTraceVersion)
      throw Error(Errc::unsupported, name_ + ": stream offset 0",
                  "unsupported trace format version " + std::to_string(version) + " (trak reads 0 to " +
                      std::to_string(kTraceVersion) + ")");
    header_.version = static_cast<std::uint32_t>(version);
    header_.semantic_version = header_.version;
    if (version >= 6) {
      const std::uint64_t semantic = read_uint();
      if (semantic > version)
        fail("semantic version " + std::to_string(semantic) + " is newer than format version " +
             std::to_string(version));
      header_.semantic_version = static_cast<std::uint32_t>(semantic);
      for (;;) {
        std::string key = read_string();
        if (key.empty()) break;
        std::string value = read_string();
        header_.properties.insert_or_assign(std::move(key), std::move(value));
      }
    }
  } catch (const EndOfData&) {
    if (deferred_) throw *deferred_;
    throw Error(Errc::truncated, name_ + ": stream offset " + std::to_string(stream_offset()),
                "unexpected end of file inside the trace header");
  }
}

Call* Parser::take_call() {
  if (!free_.empty()) {
    Call* c = free_.back();
    free_.pop_back();
    c->clear();
    return c;
  }
  storage_.push_back(std::make_unique<Call>());
  return storage_.back().get();
}

void Parser::recycle(Call* call) {
  if (call && call != &scratch_) free_.push_back(call);
}

const Call* Parser::next() {
  recycle(current_);
  current_ = nullptr;
  if (finishing_) return finish_pending();
  std::uint64_t event_start = 0;
  try {
    for (;;) {
      if (p_ == end_ && !refill()) {
        complete_bytes_ = stream_offset();
        end_between_events();
        break;
      }
      event_start = complete_bytes_ = stream_offset();
      const std::uint8_t event = *p_++;
      if (event == grammar::kEnter) {
        parse_enter();
      } else if (event == grammar::kLeave) {
        Call* call = parse_leave();
        if (call) {
          current_ = call;
          return call;
        }
      } else {
        p_--;
        fail("unknown event " + hex_byte(event) + " (corrupt trace, or two traces joined?)");
      }
    }
  } catch (const EndOfData&) {
    if (!deferred_)
      deferred_.emplace(Errc::truncated, name_ + ": stream offset " + std::to_string(event_start),
                        "unexpected end of file inside the call event starting here");
  }
  finishing_ = true;
  return finish_pending();
}

const Call* Parser::finish_pending() {
  if (!pending_.empty()) {
    Call* call = pending_.front();
    pending_.erase(pending_.begin());
    call->flags |= kCallIncomplete;
    current_ = call;
    return call;
  }
  if (deferred_) {
    Error e = std::move(*deferred_);
    deferred_.reset();
    throw e;
  }
  return nullptr;
}

// The stream ran out between two events. A container error here that only
// says the container is cut short (no gzip trailer, no brotli end, a snappy
// chunk short of its length) lost nothing: every byte decoded is a whole
// event, as when the writer was never closed. apitrace reads such a trace
// without a word; trak says it once and ends as at a clean end. Corrupt data
// stays an error wherever it is.
void Parser::end_between_events() {
  if (!deferred_ || deferred_->code() != Errc::truncated) return;
  std::string why = deferred_->message();
  if (pending_.empty())
    why += ", between two calls: every call in it was read";
  else
    why += ", between two call events: every call in it was read, " + std::to_string(pending_.size()) + " incomplete";
  why += " (as when a trace is not closed)";
  cut_short_.emplace(Errc::truncated, deferred_->where(), why);
  deferred_.reset();
  if (opt_.warnings) opt_.warnings(cut_short_->where(), cut_short_->message());
}

void Parser::parse_enter() {
  std::uint32_t thread = 0;
  if (header_.version >= 4) thread = static_cast<std::uint32_t>(read_uint());
  const FunctionSig* sig = parse_function_sig();
  Call* call = take_call();
  call->sig = sig;
  call->thread = thread;
  call->no = next_call_no_;
  call->flags = sig->flags;
  try {
    if (!parse_details(*call)) {
      recycle(call);
      return;
    }
  } catch (...) {
    recycle(call);
    throw;
  }
  ++next_call_no_;
  if (pending_.size() >= kMaxPending) fail("more than 65536 calls entered and never left (corrupt trace?)");
  pending_.push_back(call);
}

Call* Parser::parse_leave() {
  const std::uint64_t no = read_uint();
  Call* call = nullptr;
  // The call being left is almost always the newest one.
  for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) {
    if ((*it)->no == no) {
      call = *it;
      pending_.erase(std::next(it).base());
      break;
    }
  }
  if (!call) {
    // apitrace skips a leave for a call it does not know; its details must
    // still be read to stay in step.
    scratch_.clear();
    scratch_.sig = nullptr;
    parse_details(scratch_);
    return nullptr;
  }
  try {
    parse_details(*call);
  } catch (...) {
    recycle(call);  // a call cut inside its leave event is dropped, as apitrace does
    throw;
  }
  if (call->sig->verbose_if_zero_return && call->ret != kNil) {
    const Value& r = call->values[call->ret];
    if ((r.kind == Kind::enumeration || r.kind == Kind::sint || r.kind == Kind::uint) && r.num.i == 0)
      call->flags |= kCallVerbose;
  }
  return call;
}

bool Parser::parse_details(Call& call) {
  for (;;) {
    const std::uint8_t detail = read_byte();
    switch (detail) {
      case grammar::kCallEnd: return true;
      case grammar::kCallArg: {
        const std::uint64_t arg = read_uint();
        if (arg >= kMaxArgNo) fail("argument number " + std::to_string(arg) + " is out of range");
        if (opt_.skip_values) {
          skip_value(0);
          break;
        }
        if (arg >= call.args.size()) call.args.resize(arg + 1, kNil);
        const std::uint32_t v = parse_value(call, 0);
        call.args[arg] = v;
        break;
      }
      case grammar::kCallRet:
        // The glGetError rule needs the return value even when skipping.
        if (opt_.skip_values && !(call.sig && call.sig->verbose_if_zero_return))
          skip_value(0);
        else
          call.ret = parse_value(call, 0);
        break;
      case grammar::kCallThread: call.thread = static_cast<std::uint32_t>(read_uint()); break;
      case grammar::kCallBacktrace: {
        const std::uint64_t n = read_uint();
        for (std::uint64_t i = 0; i < n; ++i) call.backtrace.push_back(parse_frame());
        break;
      }
      case grammar::kCallFlags: {
        const std::uint64_t flags = read_uint();
        if (flags & grammar::kWireFake) call.flags |= kCallFake;
        break;
      }
      default: p_--; fail("unknown call detail " + hex_byte(detail));
    }
  }
}

const FunctionSig* Parser::parse_function_sig() {
  const std::uint64_t id = read_uint();
  if (const FunctionSig* sig = functions_.find(id)) return sig;
  std::string name = read_string();
  const std::uint64_t nargs = read_uint();
  std::vector<std::string> arg_names;
  for (std::uint64_t i = 0; i < nargs; ++i) arg_names.push_back(read_string());
  FunctionSig* sig = functions_.add(id);
  sig->name = std::move(name);
  sig->arg_names = std::move(arg_names);
  sig->flags = call_flags_for_name(sig->name);
  sig->verbose_if_zero_return = sig->name == "glGetError";
  return sig;
}

const StackFrame* Parser::parse_frame() {
  const std::uint64_t id = read_uint();
  if (const StackFrame* f = frames_.find(id)) return f;
  StackFrame frame;
  for (;;) {
    const std::uint8_t kind = read_byte();
    switch (kind) {
      case grammar::kFrameEnd: {
        StackFrame* added = frames_.add(id);
        frame.id = id;
        *added = std::move(frame);
        return added;
      }
      case grammar::kFrameModule: frame.module = read_string(); break;
      case grammar::kFrameFunction: frame.function = read_string(); break;
      case grammar::kFrameFilename: frame.filename = read_string(); break;
      case grammar::kFrameLine:
        frame.line = read_uint();
        frame.has_line = true;
        break;
      case grammar::kFrameOffset:
        frame.offset = read_uint();
        frame.has_offset = true;
        break;
      default: p_--; fail("unknown backtrace frame detail " + hex_byte(kind));
    }
  }
}

}  // namespace libtrace::apitrace
