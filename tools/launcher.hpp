// SPDX-License-Identifier: MIT
// What the tools that run a command (trak-capture, trak-gpa profile) check
// before the command starts: a full run of an application must not end in
// "cannot write the report", and a mistyped option must not be run as the
// command.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "tool_main.hpp"

namespace tools {

// With prefix_command(), CLI11 takes the first word it does not know for the
// command: a word that looks like an option there is a mistyped one.
inline void reject_unknown_option(const std::vector<std::string>& remaining) {
  if (!remaining.empty() && remaining.front().size() > 1 && remaining.front()[0] == '-' && remaining.front() != "--")
    throw UsageError("unknown option " + remaining.front() + " (the command goes after --)");
}

// The folder part of a path ("." for a bare name).
inline std::string folder_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// `path` made absolute: the layer opens it inside the command, which may
// change its directory first (a game's launch script does).
inline std::string absolute(const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  char buf[4096];
  if (!::getcwd(buf, sizeof buf)) libtrace::throw_errno(".", "getcwd");
  return std::string(buf) + "/" + (path.rfind("./", 0) == 0 ? path.substr(2) : path);
}

// A file the command's run will write, checked before it starts: its folder
// exists and can be written, and the name is not a folder or a device.
inline void check_output(const std::string& path, const std::string& option) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      throw libtrace::Error(libtrace::Errc::io, path, "is a folder (" + option + " names a file)");
    if (!S_ISREG(st.st_mode))
      throw libtrace::Error(libtrace::Errc::io, path, "is not a regular file (" + option + " names a file)");
  }
  const std::string folder = folder_of(path);
  if (::stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw libtrace::Error(libtrace::Errc::io, folder, "no such folder (" + option + ")");
  if (::access(folder.c_str(), W_OK) != 0)
    throw libtrace::Error(libtrace::Errc::io, folder, std::string(std::strerror(errno)) + " (" + option + ")");
}

// Two outputs of one run under one name would leave only one of them.
inline void check_distinct(const std::vector<std::pair<std::string, std::string>>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      const auto& [a, what_a] = outputs[i];
      const auto& [b, what_b] = outputs[j];
      if (a.empty() || b.empty() || libtrace::is_stdio(a) || libtrace::is_stdio(b)) continue;
      struct stat sa {
      }, sb{};
      const bool same = absolute(a) == absolute(b) || (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 &&
                                                       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
      if (same) throw UsageError(what_a + " and " + what_b + " name the same file: " + a);
    }
}

}  // namespace tools
