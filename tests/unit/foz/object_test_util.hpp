// SPDX-License-Identifier: MIT
// Helpers for the object-model tests: every entry of an archive parsed into
// one arena, and JSON compared as values.
#pragma once

#include <rapidjson/document.h>

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "libtrace/foz/archive.hpp"
#include "libtrace/foz/object.hpp"

namespace test {

struct ParsedArchive {
  libtrace::foz::Arena arena;
  std::map<std::pair<libtrace::foz::Tag, libtrace::foz::Hash>, libtrace::foz::Object> objects;
  std::map<std::pair<libtrace::foz::Tag, libtrace::foz::Hash>, std::string> payloads;
  std::map<std::pair<libtrace::foz::Tag, libtrace::foz::Hash>, std::string> where;

  explicit ParsedArchive(const std::string& path) {
    libtrace::foz::ArchiveReader r(path);
    std::vector<std::uint8_t> bytes;
    for (const libtrace::foz::Entry& e : r.entries()) {
      r.read_payload(e, bytes);
      const auto key = std::make_pair(e.tag, e.hash);
      payloads[key].assign(bytes.begin(), bytes.end());
      where[key] = r.where(e);
      objects.emplace(key, libtrace::foz::parse_payload(payloads[key], arena, where[key]));
    }
  }

  libtrace::foz::Lookup lookup() const {
    return [this](libtrace::foz::Tag t, libtrace::foz::Hash h) -> const libtrace::foz::Object* {
      const auto it = objects.find({t, h});
      return it == objects.end() ? nullptr : &it->second;
    };
  }
};

// Archives Fossilize wrote (tests/data/README.md says where each came from).
inline std::vector<std::string> real_archives() {
  std::vector<std::string> out;
  for (const char* name : {"foz/vkcube.72991ed96a80f842.1.foz", "foz/synth_compute.foz",
                           "foz/edge/truncated_header.foz", "foz/edge/truncated_payload.foz"})
    out.push_back(std::string(TRAK_TEST_DATA) + "/" + name);
  return out;
}

inline bool same_json(const std::string& a, const std::string& b) {
  rapidjson::Document x, y;
  x.Parse(a.c_str(), a.find('\0') == std::string::npos ? a.size() : a.find('\0'));
  y.Parse(b.c_str(), b.find('\0') == std::string::npos ? b.size() : b.find('\0'));
  return !x.HasParseError() && !y.HasParseError() && x == y;
}

}  // namespace test
