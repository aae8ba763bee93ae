// SPDX-License-Identifier: MIT
// Helpers shared by the unit tests: scratch files and in-memory sinks.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "libtrace/core/io.hpp"

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

// The lines of an indented raw string literal, without their indentation and
// without blank lines, each ended by '\n': text files written in a test as
// they would look on disk.
inline std::string unindent(std::string_view text) {
  std::string out;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);)
    if (const auto at = line.find_first_not_of(' '); at != std::string::npos) out += line.substr(at) + '\n';
  return out;
}

// The memory layout of VMA's documentation example (a Radeon RX Vega): a
// recording's header and Config section, for tests to append calls to.
inline const std::string kVegaConfig =
    "Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\n"
    "PhysicalDeviceMemory,HeapCount,3\nPhysicalDeviceMemory,Heap,0,size,8304721920\n"
    "PhysicalDeviceMemory,Heap,0,flags,3\nPhysicalDeviceMemory,Heap,1,size,8286175232\n"
    "PhysicalDeviceMemory,Heap,1,flags,0\nPhysicalDeviceMemory,Heap,2,size,268435456\n"
    "PhysicalDeviceMemory,Heap,2,flags,3\nPhysicalDeviceMemory,TypeCount,4\n"
    "PhysicalDeviceMemory,Type,0,heapIndex,0\nPhysicalDeviceMemory,Type,0,propertyFlags,1\n"
    "PhysicalDeviceMemory,Type,1,heapIndex,1\nPhysicalDeviceMemory,Type,1,propertyFlags,6\n"
    "PhysicalDeviceMemory,Type,2,heapIndex,2\nPhysicalDeviceMemory,Type,2,propertyFlags,7\n"
    "PhysicalDeviceMemory,Type,3,heapIndex,1\nPhysicalDeviceMemory,Type,3,propertyFlags,14\nConfig,End\n";

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

// A library call's options (a tool's, with `input` and `output`) reading a
// file of tests/data and writing into a fresh scratch directory.
template <class Options>
struct Job {
  ScratchDir dir;
  Options opt;
  Job(const std::string& input, const std::string& output) {
    opt.input = data(input);
    opt.output = dir / output;
  }
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

#include "libtrace/core/codec.hpp"

namespace test {

// Serves an uncompressed stream in small blocks, so every value straddles a
// block boundary somewhere.
struct MemDecoder final : libtrace::Decoder {
  std::string bytes;
  std::size_t block;
  std::size_t pos = 0;
  explicit MemDecoder(std::string b, std::size_t blk = 7) : bytes(std::move(b)), block(blk) {}
  bool next(libtrace::Block& out) override {
    if (pos >= bytes.size()) return false;
    const std::size_t n = std::min(block, bytes.size() - pos);
    out.assign(bytes.begin() + static_cast<std::ptrdiff_t>(pos), bytes.begin() + static_cast<std::ptrdiff_t>(pos + n));
    pos += n;
    return true;
  }
  libtrace::Container container() const override { return libtrace::Container::snappy; }
  std::uint64_t file_offset() const override { return pos; }
};

// A VMA call line with one to three characters changed, dropped or added
// (from characters that matter to the parsers), its line end kept: for
// checking that a fast parser accepts only what the reference parser does.
template <class Rng>
std::string mutate_vma_line(std::string line, Rng& rng) {
  static const std::string kAlphabet = ",\r \t0123456789abcdefABCDEFxX(nil).-+e\n";
  line.pop_back();  // mutate the line, not its end
  for (int k = 1 + static_cast<int>(rng() % 3); k > 0 && !line.empty(); --k) {
    const std::size_t at = rng() % line.size();
    switch (rng() % 3) {
      case 0: line[at] = kAlphabet[rng() % kAlphabet.size()]; break;
      case 1: line.erase(at, 1); break;
      default: line.insert(at, 1, kAlphabet[rng() % kAlphabet.size()]); break;
    }
  }
  line += '\n';
  return line.substr(0, line.find('\n') + 1);  // an inserted line end cuts it
}

}  // namespace test
