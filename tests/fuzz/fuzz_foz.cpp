// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes as a .foz archive, through the indexed
// reader (every payload decoded), the streaming statistics (CRC, inflate,
// JSON peeking) over a pipe-like read and over a mapping, and both renderings.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "libtrace/core/error.hpp"
#include "libtrace/foz/archive.hpp"
#include "libtrace/foz/stat.hpp"

namespace {

// One in-memory file reused for every input, opened by path like a real one.
const std::string& mem_path() {
  static const std::string path = [] {
    const int fd = ::memfd_create("fuzz.foz", 0);
    return "/proc/self/fd/" + std::to_string(fd);
  }();
  return path;
}

void load(const std::uint8_t* data, std::size_t size) {
  const int fd = std::stoi(mem_path().substr(14));
  if (::ftruncate(fd, 0) != 0) __builtin_trap();
  std::size_t off = 0;
  while (off < size) {
    const ssize_t r = ::pwrite(fd, data + off, size - off, static_cast<off_t>(off));
    if (r <= 0) __builtin_trap();
    off += static_cast<std::size_t>(r);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  load(data, size);
  namespace foz = libtrace::foz;
  try {
    foz::ArchiveReader r(mem_path());
    std::vector<std::uint8_t> out;
    for (const foz::Entry& e : r.entries()) {
      try {
        r.read_payload(e, out);
      } catch (const libtrace::Error&) {
      }
    }
    for (unsigned t = 0; t < foz::kTagCount; ++t) (void)r.hashes(static_cast<foz::Tag>(t));
  } catch (const libtrace::Error&) {
  }
  // Statistics through both scanner modes: blocks read from a descriptor,
  // and the file mapped and scanned in place.
  try {
    libtrace::InputFile in(mem_path());
    const foz::FozStats s = foz::stats(in);
    (void)foz::report_json(s);
    (void)foz::report_table(s);
  } catch (const libtrace::Error&) {
  }
  try {
    (void)foz::report_json(foz::stats(mem_path()));
  } catch (const libtrace::Error&) {
  }
  return 0;
}
