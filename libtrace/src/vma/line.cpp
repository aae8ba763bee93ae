// SPDX-License-Identifier: MIT
// One call line of a VMA recording: the reference parser, with the quirks of
// real files (see ../shared/reference/vma.md §1.5), and the fast parser the
// reader tries first (its pieces in vma/line_cols.hpp).
#include "vma/line.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <utility>

#include "vma/line_cols.hpp"
#include "vma/schema.hpp"

namespace libtrace::vma::detail {

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string_view next_field(std::string_view& s, bool& more) {
  const std::size_t c = s.find(',');
  std::string_view f = s.substr(0, c);
  more = c != std::string_view::npos;
  s = more ? s.substr(c + 1) : std::string_view{};
  return f;
}

bool parse_dec(std::string_view f, std::uint64_t& out) {
  if (f.empty()) return false;
  auto r = std::from_chars(f.data(), f.data() + f.size(), out);
  // from_chars also reads "inf" and "nan", which no recorder writes and no
  // duration or JSON number can hold.
  return r.ec == std::errc() && r.ptr == f.data() + f.size() && std::isfinite(out);
}

bool parse_ptr(std::string_view f, std::uint64_t& out) {
  if (f == "(nil)") {
    out = 0;
    return true;
  }
  if (f.size() > 2 && f[0] == '0' && (f[1] == 'x' || f[1] == 'X')) f.remove_prefix(2);
  if (f.empty() || f.size() > 16) return false;
  auto r = std::from_chars(f.data(), f.data() + f.size(), out, 16);
  return r.ec == std::errc() && r.ptr == f.data() + f.size();
}

bool parse_time(std::string_view f, double& out) {
  if (f.empty()) return false;
  auto r = std::from_chars(f.data(), f.data() + f.size(), out);
  // from_chars also reads "inf" and "nan", which no recorder writes and no
  // duration or JSON number can hold.
  return r.ec == std::errc() && r.ptr == f.data() + f.size() && std::isfinite(out);
}

namespace {

// The last 1.8 recorder (1e97603) dropped frameInUseCount: 6 columns.
bool six_column_pool(Function f, Version version, bool more, std::string_view rest) {
  return f == Function::CreatePool && version == Version{1, 8} && more &&
         std::count(rest.begin(), rest.end(), ',') == 5;
}

}  // namespace

std::optional<std::string> parse_call(std::string_view line, Version version, Call& call) {
  bool more = false;
  std::uint64_t v = 0;
  std::string_view rest = line;
  if (!parse_dec(next_field(rest, more), v) || !more || v > UINT32_MAX) {
    // The usual cause: a version line that says less than the recorder wrote.
    if (line.rfind("Config,", 0) == 0 && version < Version{1, 3})
      return "a Config line, but format " + version.str() + " has no Config section (it came with 1.3)";
    return "bad thread id";
  }
  call.thread = static_cast<std::uint32_t>(v);
  if (!parse_time(next_field(rest, more), call.time) || !more) return "bad time";
  if (!parse_dec(next_field(rest, more), v) || !more || v > UINT32_MAX) return "bad frame index";
  call.frame = static_cast<std::uint32_t>(v);
  const std::string_view fname = next_field(rest, more);
  const auto f = function_from_name(fname);
  if (!f) return "unknown function '" + std::string(fname) + "'";
  call.function = *f;
  const Schema& s = schema(*f);
  if (version < s.first || version > s.last)
    return std::string(fname) + " is not recorded by format " + version.str() + " (only " + s.first.str() + " to " +
           s.last.str() + ")";
  call.num.clear();
  call.lists.clear();
  call.text.clear();
  call.has_text = false;
  const Col* cols = s.cols.data();
  std::size_t ncols = s.cols.size();
  if (six_column_pool(*f, version, more, rest)) {
    cols = kSixColumnPool.c;
    ncols = kSixColumnPool.n;
  }
  for (std::size_t i = 0; i < ncols; ++i) {
    if (cols[i] == Col::text) {
      call.has_text = more;
      call.text = std::string(rest);  // everything left, commas included
      rest = {};
      more = false;
      break;
    }
    if (!more)
      return std::string(fname) + ": too few columns (" + std::to_string(i) + " of " + std::to_string(ncols) + ")";
    const std::string_view field = next_field(rest, more);
    const auto column = [i] { return " in column " + std::to_string(i + 5); };
    switch (cols[i]) {
      case Col::u32:
      case Col::u64:
      case Col::boolean:
        if (!parse_dec(field, v)) return std::string(fname) + ": bad number '" + std::string(field) + "'" + column();
        if (cols[i] == Col::u32 && v > UINT32_MAX) return std::string(fname) + ": value out of range" + column();
        if (cols[i] == Col::boolean && v > 1) return std::string(fname) + ": expected 0 or 1" + column();
        call.num.push_back(v);
        break;
      case Col::ptr:
        if (!parse_ptr(field, v)) return std::string(fname) + ": bad pointer '" + std::string(field) + "'" + column();
        call.num.push_back(v);
        break;
      case Col::ptr_list: {
        std::vector<std::uint64_t> list;
        std::string_view items = field;
        while (!items.empty()) {
          const std::size_t sp = items.find(' ');
          const std::string_view item = items.substr(0, sp);
          items = sp == std::string_view::npos ? std::string_view{} : items.substr(sp + 1);
          if (item.empty()) continue;
          if (!parse_ptr(item, v)) return std::string(fname) + ": bad pointer '" + std::string(item) + "' in a list";
          list.push_back(v);
        }
        call.lists.push_back(std::move(list));
        break;
      }
      case Col::text: break;
    }
  }
  // A fixed-arity line must end here; an empty trailing field (the comma the
  // recorder leaves before empty user data) is tolerated.
  if (more && !trim_right(rest).empty()) return std::string(fname) + ": too many columns";
  return std::nullopt;
}

namespace {

// Every column list compiled with every value kept (trak-convert and
// trak-replay use them all).
using LineColumns = const char* (*)(const char* p, const char* stop, LineCall& call);

template <std::size_t... K>
constexpr std::array<LineColumns, kColumnLists> all_columns(std::index_sequence<K...>) {
  return {&line_columns<kColumnsOf<K>, kAllColumns>...};
}

constexpr auto kAllColumnsOf = all_columns(std::make_index_sequence<kColumnLists>{});

}  // namespace

const char* parse_line_fast(const char* p, const char* stop, Version version, LineCall& call) {
  std::size_t list = 0;
  if (!(p = parse_head(p, stop, version, call, list, name_table()))) return nullptr;
  return kAllColumnsOf[list](p, stop, call);
}

const char* parse_call_fast(const char* p, const char* stop, Version version, Call& call) {
  thread_local LineCall line;
  const char* after = parse_line_fast(p, stop, version, line);
  if (!after) return nullptr;
  call.thread = line.thread;
  call.time = line.time;
  call.frame = line.frame;
  call.function = line.function;
  call.num.assign(line.num.begin(), line.num.begin() + line.numbers);
  call.lists.resize(line.lists);
  for (std::size_t i = 0; i < line.lists; ++i) call.lists[i] = line.list[i];
  call.text.assign(line.text);
  call.has_text = line.has_text;
  return after;
}

void to_line_call(const Call& c, LineCall& out) {
  out.thread = c.thread;
  out.time = c.time;
  out.frame = c.frame;
  out.function = c.function;
  out.numbers = static_cast<std::uint8_t>(c.num.size());
  std::copy(c.num.begin(), c.num.end(), out.num.begin());
  out.lists = static_cast<std::uint8_t>(c.lists.size());
  for (std::size_t i = 0; i < c.lists.size(); ++i) out.list[i] = c.lists[i];
  out.text = c.text;
  out.has_text = c.has_text;
}

}  // namespace libtrace::vma::detail
