// SPDX-License-Identifier: MIT
// Helpers shared by the unit tests: scratch files and in-memory sinks.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "libtrace/io.hpp"

namespace test {

inline std::string data(const std::string& name) { return std::string(TRAK_TEST_DATA) + "/" + name; }

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << bytes;
}

// A fresh directory removed at scope exit.
struct ScratchDir {
  std::string path;
  ScratchDir() {
    char tmpl[] = "/tmp/trak-unit-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~ScratchDir() { std::system(("rm -rf '" + path + "'").c_str()); }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
};

struct StringSink final : libtrace::Sink {
  std::string bytes;
  bool finished = false;
  void write(const void* data, std::size_t size) override { bytes.append(static_cast<const char*>(data), size); }
  void finish() override { finished = true; }
};

}  // namespace test

#include <algorithm>
#include <cstdint>
#include <vector>

#include "libtrace/codec.hpp"

namespace test {

// Serves an uncompressed stream in small blocks, so every value straddles a
// block boundary somewhere.
struct MemDecoder final : libtrace::Decoder {
  std::string bytes;
  std::size_t block;
  std::size_t pos = 0;
  explicit MemDecoder(std::string b, std::size_t blk = 7) : bytes(std::move(b)), block(blk) {}
  bool next(std::vector<std::uint8_t>& out) override {
    if (pos >= bytes.size()) return false;
    const std::size_t n = std::min(block, bytes.size() - pos);
    out.assign(bytes.begin() + static_cast<std::ptrdiff_t>(pos), bytes.begin() + static_cast<std::ptrdiff_t>(pos + n));
    pos += n;
    return true;
  }
  libtrace::Container container() const override { return libtrace::Container::snappy; }
  std::uint64_t file_offset() const override { return pos; }
};

}  // namespace test
