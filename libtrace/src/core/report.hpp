// SPDX-License-Identifier: MIT
// The two shapes every report of libtrace takes: a table of "key  value"
// rows for people, and one JSON object for machines (--json). Each
// renderer (trace, recording and archive statistics, merges, replays) fills
// one of these instead of setting up its own writer.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/json_text.hpp"

namespace libtrace::detail {

class JsonReport {
 public:
  using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

  JsonReport() : w_(sb_) {}
  JsonReport(const JsonReport&) = delete;
  JsonReport& operator=(const JsonReport&) = delete;

  // For what the helpers below do not cover (members written by shared code).
  Writer& writer() { return w_; }

  // One member each: key, then value. Keys are the report's own names (or
  // names of the library's tables), written as they are.
  void u64(std::string_view key, std::uint64_t v) {
    put_key(key);
    w_.Uint64(v);
  }
  void i64(std::string_view key, std::int64_t v) {
    put_key(key);
    w_.Int64(v);
  }
  void f64(std::string_view key, double v) {
    put_key(key);
    w_.Double(v);
  }
  void boolean(std::string_view key, bool v) {
    put_key(key);
    w_.Bool(v);
  }
  void null(std::string_view key) {
    put_key(key);
    w_.Null();
  }
  // Text from an input file or a driver (names, user data, paths): made valid UTF-8.
  void text(std::string_view key, std::string_view v) {
    put_key(key);
    text(v);
  }
  // Members in a row, given as key, value, key, value, ...: a report's plain
  // members read as one table instead of a call apiece. Each value is
  // written as its type says: text, bool, a count or a floating-point figure.
  void members() {}
  template <typename V, typename... More>
  void members(std::string_view key, const V& v, const More&... more) {
    if constexpr (std::is_same_v<V, bool>)
      boolean(key, v);
    else if constexpr (std::is_floating_point_v<V>)
      f64(key, v);
    else if constexpr (std::is_integral_v<V>) {
      // A negative count would read as a huge one: cast it, or write it with i64.
      static_assert(std::is_unsigned_v<V>, "members: a signed value");
      u64(key, v);
    } else
      text(key, v);
    members(more...);
  }
  // A member whose value is an object: `fields` writes its members.
  template <typename Fields>
  void object(std::string_view key, Fields&& fields) {
    put_key(key);
    object(fields);
  }
  // A member whose value is an array: `item` writes one value per element of
  // `items` (a bare value, or object(fields)).
  template <typename Range, typename Item>
  void array(std::string_view key, const Range& items, Item&& item) {
    put_key(key);
    w_.StartArray();
    for (const auto& i : items) item(i);
    w_.EndArray();
  }

  // The same for an array of objects: `fields` writes the members of one
  // element's object.
  template <typename Range, typename Fields>
  void objects(std::string_view key, const Range& items, Fields&& fields) {
    array(key, items, [&](const auto& i) { object([&] { fields(i); }); });
  }

  // The same for the indexes 0 .. count-1 (std::views::iota, which clang 14
  // cannot compile against libstdc++ 12's ranges: the fuzz build's compiler).
  template <typename Item>
  void array_of_indexes(std::string_view key, std::size_t count, Item&& item) {
    put_key(key);
    w_.StartArray();
    for (std::size_t i = 0; i < count; ++i) item(i);
    w_.EndArray();
  }

  // Bare values: the elements of an array.
  void u64(std::uint64_t v) { w_.Uint64(v); }
  void f64(double v) { w_.Double(v); }
  // rapidjson escapes what it is given but does not check its encoding.
  void text(std::string_view v) {
    const std::string u = to_utf8(v);
    w_.String(u.data(), static_cast<rapidjson::SizeType>(u.size()));
  }
  template <typename Fields>
  void object(Fields&& fields) {
    w_.StartObject();
    fields();
    w_.EndObject();
  }

  // The document (written as object(fields)), one line.
  std::string finish() const { return std::string(sb_.GetString(), sb_.GetSize()) + "\n"; }

 private:
  void put_key(std::string_view key) { w_.Key(key.data(), static_cast<rapidjson::SizeType>(key.size())); }

  rapidjson::StringBuffer sb_;
  Writer w_;
};

// The members "count" and "calls" (thread id -> calls), into the object the
// caller has opened, so it can add members of its own.
inline void put_thread_calls(JsonReport& report, const std::map<std::uint32_t, std::uint64_t>& calls) {
  report.u64("count", calls.size());
  report.object("calls", [&] {
    for (const auto& [tid, n] : calls) report.u64(std::to_string(tid), n);
  });
}

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

// printf onto the end of `out`: the rows of tables whose columns are printf
// widths, without a buffer whose size would cut a long name short.
[[gnu::format(printf, 2, 3)]] inline void appendf(std::string& out, const char* format, ...) {
  std::va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  if (n > 0) {
    const std::size_t at = out.size();
    out.resize(at + static_cast<std::size_t>(n) + 1);
    std::vsnprintf(out.data() + at, static_cast<std::size_t>(n) + 1, format, again);
    out.resize(at + static_cast<std::size_t>(n));
  }
  va_end(again);
}

// The p-quantile (0..1) of `v` by nearest rank: 0 the least, 1 the most; 0
// for no values.
inline double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, rank ? rank - 1 : 0)];
}

}  // namespace libtrace::detail
