// SPDX-License-Identifier: MIT
// Call sets as `apitrace dump --calls` takes them: "4", "0,2,4", "0-100/2",
// "0-1000/draw", "*/fbo", "frame", "@file".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace libtrace::apitrace {

class CallSet {
 public:
  // Everything.
  CallSet() = default;
  // Parses a set; throws Error(usage) naming the bad part. "@FILE" reads the
  // set from FILE (whitespace or commas between items).
  static CallSet parse(std::string_view spec);
  // Adds the items of another spec (repeated --calls options accumulate).
  void add(std::string_view spec);

  bool empty() const { return ranges_.empty(); }
  bool contains(std::uint64_t call_no, std::uint32_t flags) const;
  // The largest call number in the set (UINT64_MAX when open-ended).
  std::uint64_t last() const;

 private:
  struct Range {
    std::uint64_t first = 0, last = UINT64_MAX, step = 1;
    std::uint32_t flags = 0;  // required CallFlag bits; 0 means any call
  };
  void add_item(std::string_view item);
  std::vector<Range> ranges_;
};

// Which calls a dump or a cut keeps, chosen as `apitrace trim` chooses them:
// the calls in `calls`, or in the frames in `frames` (frames count from 0,
// each ended by a call flagged kCallEndFrame; "0-5/draw" keeps the draw
// calls of frames 0 to 5), and only those of the threads in `threads`. With
// no calls and no frames given, every call. Calls go through keep() in
// stream order.
class CallSelection {
 public:
  CallSet calls;
  bool calls_given = false;
  CallSet frames;
  bool frames_given = false;
  std::vector<std::uint32_t> threads;  // empty: every thread

  enum class Verdict { keep, skip, stop };
  // kept, left out, or past the last call and frame asked for: no later call
  // is kept either.
  Verdict next(std::uint64_t call_no, std::uint32_t thread, std::uint32_t flags);
  std::uint64_t frame() const { return frame_; }

 private:
  std::uint64_t frame_ = 0;
};

}  // namespace libtrace::apitrace
