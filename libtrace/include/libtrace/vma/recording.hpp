// SPDX-License-Identifier: MIT
// Vulkan Memory Allocator call recordings (CSV, format versions 1.0 to 1.8):
// the call model and a streaming reader.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libtrace/core/codec.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::vma {

// Every function any format version records, in no particular order.
enum class Function : std::uint8_t {
  CreateAllocator,
  DestroyAllocator,
  CreatePool,
  DestroyPool,
  SetAllocationUserData,
  CreateBuffer,
  DestroyBuffer,
  CreateImage,
  DestroyImage,
  FreeMemory,
  FreeMemoryPages,
  CreateLostAllocation,
  AllocateMemory,
  AllocateMemoryPages,
  AllocateMemoryForBuffer,
  AllocateMemoryForImage,
  MapMemory,
  UnmapMemory,
  FlushAllocation,
  InvalidateAllocation,
  TouchAllocation,
  GetAllocationInfo,
  MakePoolAllocationsLost,
  ResizeAllocation,
  DefragmentationBegin,
  DefragmentationEnd,
  SetPoolName,
};
inline constexpr std::size_t kFunctionCount = 27;

// "vmaCreateBuffer" and so on.
std::string_view function_name(Function f);
std::optional<Function> function_from_name(std::string_view name);

// A format version: 1.0 .. 1.8 (only major 1 exists).
struct Version {
  int major = 1, minor = 0;
  friend auto operator<=>(const Version&, const Version&) = default;
  std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
};

// The versions that record `f`: [first, last].
std::pair<Version, Version> function_versions(Function f);

struct Heap {
  std::uint64_t size = 0;
  std::uint32_t flags = 0;
};
struct MemoryType {
  std::uint32_t heap = 0;
  std::uint32_t property_flags = 0;
};

// The Config section (format 1.3 and later). Every line is also kept as
// written, so a writer can reproduce it.
struct Config {
  std::vector<std::string> lines;                      // between Config,Begin and Config,End
  std::map<std::string, std::string> physical_device;  // apiVersion, deviceName, ...
  std::map<std::string, std::string> limits;
  std::map<std::string, std::string> extensions;
  std::map<std::string, std::string> macros;
  std::string vulkan_api_version;  // "1,1"
  std::vector<Heap> heaps;
  std::vector<MemoryType> types;
};

struct Header {
  Version version;
  Config config;
};

// One recorded call. Parameters are in the recorder's column order: numbers
// (bools and pointers included, pointers as addresses, null as 0) in `num`,
// pointer lists in `lists` (in column order), and the free-text tail (user
// data or pool name, which may hold commas) in `text`.
struct Call {
  std::uint64_t line = 0;  // 1-based line number in the file
  std::uint32_t thread = 0;
  double time = 0;  // seconds since the first call
  std::uint32_t frame = 0;
  Function function = Function::CreateAllocator;
  std::vector<std::uint64_t> num;
  std::vector<std::vector<std::uint64_t>> lists;
  std::string text;
  bool has_text = false;  // the text column was present (possibly empty)
};

// A call's parameters with the spec's names, in column order.
enum class ParamKind { number, boolean, pointer, pointer_list, text };
struct Param {
  std::string_view name;
  ParamKind kind = ParamKind::number;
  std::uint64_t value = 0;                           // number, boolean, pointer
  const std::vector<std::uint64_t>* list = nullptr;  // pointer_list
};
// The text parameter's value is call.text.
std::vector<Param> params(const Call& call);

// What both replays of a recording take alike (the simulation, SimOptions,
// and the device's, ReplayOptions): the lines replayed and where warnings go.
struct ReplayLines {
  std::uint64_t first_line = 0, last_line = UINT64_MAX;  // --lines A-B (file lines)
  bool keep_going = false;
  // Malformed lines (with keep_going) and replay warnings (unknown pointers,
  // failures that the recording did not have). All are counted.
  WarningSink warnings;
};

struct ReaderOptions {
  // Malformed lines and unknown functions become counted warnings instead of
  // errors.
  bool keep_going = false;
  WarningSink warnings;
  // Decode and parse on a second thread, a few hundred calls ahead of the
  // caller (on machines with more than one core). Warnings and errors still
  // come from next(), in order.
  bool read_ahead = true;
};

// Reads a recording one call at a time, from plain text or any container the
// trace codecs read (a recording can be gzip- or brotli-compressed). Memory is
// flat: a few hundred calls at a time. Errors name the line: "FILE: line N:
// why".
class Reader {
 public:
  // Reads the two header lines and the Config section.
  Reader(std::unique_ptr<Decoder> decoder, std::string name, ReaderOptions opt = {});
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  const Header& header() const;
  // The next call, or nullptr at the end (and after an error); valid until
  // the next call.
  const Call* next();
  // Lines dropped with a warning (--keep-going, or a cut-off last line).
  std::uint64_t warnings() const;
  std::uint64_t lines_read() const;
  std::uint64_t bytes_read() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace libtrace::vma
