// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes as a trace file: container detection,
// the snappy/gzip/brotli/zstd decoders, then the parser.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "libtrace/apitrace/dump.hpp"
#include "libtrace/apitrace/parser.hpp"
#include "libtrace/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // InputFile reads real descriptors; a memfd makes one without touching disk.
  static const int fd = memfd_create("trak-fuzz", 0);
  if (fd < 0) return 0;
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return 0;
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  try {
    libtrace::InputFile in(path);
    libtrace::apitrace::Parser parser(libtrace::open_decoder(in), "fuzz");
    std::string out;
    while (const libtrace::apitrace::Call* call = parser.next()) {
      out.clear();
      libtrace::apitrace::dump_call(*call, libtrace::apitrace::DumpOptions{}, out);
    }
  } catch (const libtrace::Error&) {
  }
  return 0;
}
