// SPDX-License-Identifier: MIT
// The two shapes every report of libtrace takes: a table of "key  value"
// rows for people, and one JSON object for machines (--json). Each
// formatter (trace, recording and archive statistics, merges, replays) fills
// one of these instead of setting up its own writer.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_util.hpp"

namespace libtrace::detail {

class JsonReport {
 public:
  using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

  JsonReport() : w_(sb_) {}
  JsonReport(const JsonReport&) = delete;
  JsonReport& operator=(const JsonReport&) = delete;

  // For what the helpers below do not cover (nested objects, arrays, floats).
  Writer& writer() { return w_; }

  void u64(const char* key, std::uint64_t v) {
    w_.Key(key);
    w_.Uint64(v);
  }
  // Text from an input file (names, user data, paths): made valid UTF-8.
  void text(const char* key, std::string_view v) {
    w_.Key(key);
    text(v);
  }
  void text(std::string_view v) { put_text(w_, v); }

  // The document, one line.
  std::string finish() const { return std::string(sb_.GetString(), sb_.GetSize()) + "\n"; }

 private:
  rapidjson::StringBuffer sb_;
  Writer w_;
};

// Rows of "key value", the keys padded to one column.
class TableReport {
 public:
  explicit TableReport(int key_width) : width_(key_width) {}

  void row(const char* key, const std::string& value) {
    out_.append(key);
    const int pad = width_ - static_cast<int>(std::string_view(key).size());
    out_.append(static_cast<std::size_t>(pad > 0 ? pad : 0) + 1, ' ');
    out_.append(value).push_back('\n');
  }
  // For lines of other shapes between the rows.
  std::string& text() { return out_; }

 private:
  int width_;
  std::string out_;
};

// The p-quantile (0..1) of `v` by nearest rank: 0 the least, 1 the most; 0
// for no values.
inline double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, rank ? rank - 1 : 0)];
}

}  // namespace libtrace::detail
