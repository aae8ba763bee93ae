// SPDX-License-Identifier: MIT
// Call-set parsing with apitrace's syntax (trace_callset.cpp).
#include "libtrace/apitrace/callset.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

#include "libtrace/apitrace/call_flags.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::apitrace {

namespace {

bool parse_number(std::string_view& s, std::uint64_t& out) {
  const char* end = s.data() + s.size();
  auto r = std::from_chars(s.data(), end, out);
  if (r.ec != std::errc() || r.ptr == s.data()) return false;
  s.remove_prefix(static_cast<std::size_t>(r.ptr - s.data()));
  return true;
}

std::uint32_t flags_for_word(std::string_view w) {
  if (w == "frame") return kCallEndFrame;
  if (w == "rendertarget" || w == "fbo") return kCallSwapRenderTarget;
  if (w == "render" || w == "draw") return kCallRender;
  return 0;
}

}  // namespace

CallSet CallSet::parse(std::string_view spec) {
  CallSet set;
  set.add(spec);
  return set;
}

void CallSet::add(std::string_view spec) {
  if (!spec.empty() && spec.front() == '@') {
    const std::string path(spec.substr(1));
    std::ifstream f(path);
    if (!f) throw Error(Errc::usage, path, "cannot read call set file");
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string text = ss.str();
    add(text);
    return;
  }
  std::size_t i = 0;
  while (i < spec.size()) {
    while (i < spec.size() && (spec[i] == ',' || std::isspace(static_cast<unsigned char>(spec[i])))) ++i;
    std::size_t j = i;
    while (j < spec.size() && spec[j] != ',' && !std::isspace(static_cast<unsigned char>(spec[j]))) ++j;
    if (j > i) add_item(spec.substr(i, j - i));
    i = j;
  }
}

void CallSet::add_item(std::string_view item) {
  const std::string whole(item);
  auto bad = [&] { throw Error(Errc::usage, "", "invalid call set item '" + whole + "'"); };
  Range r;
  if (item.front() == '*') {
    item.remove_prefix(1);
  } else if (const std::uint32_t f = flags_for_word(item)) {
    r.flags = f;  // a bare frequency word: every call with that flag
    item = {};
  } else {
    if (!parse_number(item, r.first)) bad();
    r.last = r.first;
    if (!item.empty() && item.front() == '-') {
      item.remove_prefix(1);
      if (item.empty() || item.front() == '/')
        r.last = UINT64_MAX;
      else if (!parse_number(item, r.last))
        bad();
    }
  }
  if (!item.empty()) {
    if (item.front() != '/') bad();
    item.remove_prefix(1);
    if (!item.empty() && std::isdigit(static_cast<unsigned char>(item.front()))) {
      if (!parse_number(item, r.step) || r.step == 0 || !item.empty()) bad();
    } else {
      r.flags = flags_for_word(item);
      if (!r.flags) bad();
    }
  }
  if (r.last < r.first) bad();
  ranges_.push_back(r);
}

bool CallSet::contains(std::uint64_t no, std::uint32_t flags) const {
  if (ranges_.empty()) return true;
  for (const Range& r : ranges_) {
    if (no < r.first || no > r.last) continue;
    if ((no - r.first) % r.step) continue;
    if (r.flags && !(flags & r.flags)) continue;
    return true;
  }
  return false;
}

std::uint64_t CallSet::last() const {
  if (ranges_.empty()) return UINT64_MAX;
  std::uint64_t m = 0;
  for (const Range& r : ranges_) m = std::max(m, r.last);
  return m;
}

CallSelection::Verdict CallSelection::next(std::uint64_t call_no, std::uint32_t thread, std::uint32_t flags) {
  // apitrace 11.1's dump stops at the first call past the set's end, and its
  // trim once past both the calls' and the frames' end.
  const bool past_calls = !calls_given || call_no > calls.last();
  if (!frames_given ? calls_given && past_calls : past_calls && frame_ > frames.last()) return Verdict::stop;
  bool keep = !frames_given ? calls.contains(call_no, flags)
                            : (calls_given && calls.contains(call_no, flags)) || frames.contains(frame_, flags);
  // Another thread's calls are left out, but its frame ends still count.
  if (!threads.empty() && std::find(threads.begin(), threads.end(), thread) == threads.end()) keep = false;
  if (flags & kCallEndFrame) ++frame_;
  return keep ? Verdict::keep : Verdict::skip;
}

}  // namespace libtrace::apitrace
