// SPDX-License-Identifier: MIT
// Writing calls with the capture's encoder and reading them back, for the
// trace writer's tests and the replay decoder's.
#pragma once

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "capture/trace/encode.hpp"
#include "capture/trace/stream.hpp"
#include "libtrace/apitrace/dump.hpp"
#include "libtrace/apitrace/parser.hpp"
#include "libtrace/core/codec.hpp"
#include "libtrace/core/io.hpp"
#include "registry/registry.hpp"

namespace trace_test {

using namespace libtrace;
using namespace libtrace::capture::trace;
inline std::string temp_path() {
  char name[] = "/tmp/trak-trace-test-XXXXXX";
  const int fd = ::mkstemp(name);
  REQUIRE(fd >= 0);
  ::close(fd);
  return name;
}

// Writes one call of `command` (its parameters as pointers to variables).
inline void write_call(Stream& s, const char* command, void** args, std::uint32_t thread = 0) {
  const registry::Command* cmd = registry::find_command(command);
  REQUIRE(cmd);
  std::vector<const char*> names;
  for (const auto& p : cmd->params()) names.push_back(p.name());
  const auto id = static_cast<std::uint32_t>(cmd - registry::commands().data());
  const auto enter = [&](Event& e) {
    begin_enter(e, thread, id, cmd->name(), names, false);
    for (std::size_t i = 0; i < cmd->params().size(); ++i) {
      if (is_output(cmd->params()[i])) continue;
      e.byte(0x01);
      e.uint(i);
      put_param(e, cmd->params(), i, args);
    }
    e.byte(0x00);
  };
  Event e(s);
  enter(e);
  const std::uint64_t no = s.commit(e, Stream::Kind::enter, enter);
  const auto leave = [&](Event& x) {
    x.byte(0x01);
    x.uint(no);
    for (std::size_t i = 0; i < cmd->params().size(); ++i) {
      if (!is_output(cmd->params()[i])) continue;
      x.byte(0x01);
      x.uint(i);
      put_param(x, cmd->params(), i, args);
    }
    x.byte(0x00);
  };
  Event l(s);
  leave(l);
  s.commit(l, Stream::Kind::leave, leave);
}

inline std::vector<std::string> dump_all(const std::string& path) {
  InputFile in(path);
  apitrace::Parser p(open_decoder(in), in.name());
  std::vector<std::string> out;
  apitrace::DumpOptions opt;
  opt.multiline = false;
  while (const apitrace::Call* c = p.next()) {
    std::string line;
    apitrace::dump_call(*c, opt, line);
    while (!line.empty() && line.back() == '\n') line.pop_back();
    out.push_back(line);
  }
  return out;
}

}  // namespace trace_test
