// SPDX-License-Identifier: MIT
// libtrace::Error: the one exception type every libtrace entry point throws.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace libtrace {

enum class Errc {
  io = 1,       // the operating system refused a read, write, open or rename
  truncated,    // the data ends before the structure it started is complete
  bad_magic,    // not a format libtrace knows
  bad_record,   // the data is malformed or corrupt
  unsupported,  // a well-formed feature or version libtrace does not handle
  usage,        // the caller asked for something inconsistent
};

// what() is "<where>: <message>", so a tool prints "<tool>: " + what().
// `where` names the file and, when known, the position: "x.trace: offset 42".
class Error : public std::runtime_error {
 public:
  Error(Errc code, std::string where, const std::string& message);

  Errc code() const noexcept { return code_; }
  const std::string& where() const noexcept { return where_; }
  const std::string& message() const noexcept { return message_; }

 private:
  Errc code_;
  std::string where_;
  std::string message_;
};

// "<file>: offset <n>": the position form used for binary inputs.
std::string at_offset(std::string_view file, std::uint64_t offset);

// Throws Errc::io with strerror(errno) as the message.
[[noreturn]] void throw_errno(std::string where, std::string_view action = {});

// Non-fatal diagnostics (for example "dropped a cut-off last line"). libtrace
// never prints; callers that want warnings pass a sink.
using WarningSink = std::function<void(const std::string& where, const std::string& message)>;

}  // namespace libtrace
