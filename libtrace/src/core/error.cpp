// SPDX-License-Identifier: MIT
// libtrace::Error construction and the errno helper.
#include "libtrace/core/error.hpp"

#include <cerrno>
#include <cstring>

namespace libtrace {

namespace {
std::string join(const std::string& where, const std::string& message) {
  if (where.empty()) return message;
  std::string s;
  s.reserve(where.size() + 2 + message.size());
  s.append(where).append(": ").append(message);
  return s;
}
}  // namespace

Error::Error(Errc code, std::string where, const std::string& message)
    : std::runtime_error(join(where, message)), code_(code), where_(std::move(where)), message_(message) {}

std::string at_offset(std::string_view file, std::uint64_t offset) {
  std::string s(file);
  s.append(": offset ").append(std::to_string(offset));
  return s;
}

void throw_errno(std::string where, std::string_view action) {
  const int err = errno;
  std::string msg = std::strerror(err);
  if (!action.empty()) msg = std::string(action).append(": ").append(msg);
  throw Error(Errc::io, std::move(where), msg);
}

}  // namespace libtrace
