// SPDX-License-Identifier: MIT
// Messages between a worker process and its parent, over the worker's own
// socket. A frame is a little-endian u32 length (of what follows), a kind
// byte and the body. Only what is rare travels here (what to do, device
// report, one message per failed pipeline, the cache blob's file, goodbye);
// outcomes go through shared memory (replay/foz/shared.hpp).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace libtrace::foz::detail {

enum class MsgKind : std::uint8_t {
  // Worker to parent.
  hello = 1,  // DeviceReport fields
  issue,      // u64 item, u8 outcome, string reason
  cache,      // string path of the saved cache blob, u64 bytes
  bye,        // u64 peak RSS bytes
  fatal,      // u8 Errc, string where, string message
  // Parent to worker (replay/foz/child.hpp).
  setup = 16,  // WorkerSetup: which device, which archives
  start,       // WorkerStart, with the shared state's memfd attached
};

class MsgOut {
 public:
  explicit MsgOut(MsgKind k) { buf_.assign(4, '\0'), buf_.push_back(static_cast<char>(k)); }
  MsgOut& u8(std::uint8_t v) { return raw(&v, 1); }
  MsgOut& u32(std::uint32_t v) {
    const std::uint8_t b[4] = {std::uint8_t(v), std::uint8_t(v >> 8), std::uint8_t(v >> 16), std::uint8_t(v >> 24)};
    return raw(b, 4);
  }
  MsgOut& u64(std::uint64_t v) { return u32(static_cast<std::uint32_t>(v)).u32(static_cast<std::uint32_t>(v >> 32)); }
  MsgOut& str(std::string_view s) { return u32(static_cast<std::uint32_t>(s.size())).raw(s.data(), s.size()); }
  MsgOut& raw(const void* p, std::size_t n) {
    buf_.append(static_cast<const char*>(p), n);
    return *this;
  }
  // The frame, length filled in.
  const std::string& frame() {
    const auto n = static_cast<std::uint32_t>(buf_.size() - 4);
    for (int i = 0; i < 4; ++i) buf_[static_cast<std::size_t>(i)] = static_cast<char>(n >> (8 * i));
    return buf_;
  }

 private:
  std::string buf_;
};

// Reads one body; a short body reads as zeros and sets !ok().
class MsgIn {
 public:
  explicit MsgIn(std::string_view body) : s_(body) {}
  std::uint8_t u8() {
    std::uint8_t v = 0;
    take(&v, 1);
    return v;
  }
  std::uint32_t u32() {
    std::uint8_t b[4] = {};
    take(b, 4);
    return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 | std::uint32_t(b[3]) << 24;
  }
  std::uint64_t u64() {
    const std::uint64_t lo = u32();
    return lo | static_cast<std::uint64_t>(u32()) << 32;
  }
  std::string str() {
    const std::uint32_t n = u32();
    if (n > s_.size() - pos_) {
      ok_ = false;
      pos_ = s_.size();
      return {};
    }
    std::string out(s_.substr(pos_, n));
    pos_ += n;
    return out;
  }
  void take(void* p, std::size_t n) {
    if (n > s_.size() - pos_) {
      ok_ = false;
      pos_ = s_.size();
      return;
    }
    std::memcpy(p, s_.data() + pos_, n);
    pos_ += n;
  }
  bool ok() const { return ok_; }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

// Takes the next complete frame off the front of `buf` (bytes read so far).
inline bool next_frame(std::string& buf, MsgKind& kind, std::string& body) {
  if (buf.size() < 5) return false;
  std::uint32_t n = 0;
  for (int i = 0; i < 4; ++i)
    n |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(buf[static_cast<std::size_t>(i)])) << (8 * i);
  if (n == 0 || buf.size() - 4 < n) {
    if (n == 0) buf.erase(0, 4);  // never sent; skip rather than misread what follows
    return n == 0 ? next_frame(buf, kind, body) : false;
  }
  kind = static_cast<MsgKind>(buf[4]);
  body.assign(buf, 5, n - 1);
  buf.erase(0, 4 + static_cast<std::size_t>(n));
  return true;
}

}  // namespace libtrace::foz::detail
