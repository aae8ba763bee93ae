// SPDX-License-Identifier: MIT
// What the Vulkan trace dialect (libtrace/src/vktrace/FORMAT.md) fixes that
// a launcher, a replay or a profiling layer also needs to know: how frames
// are marked and counted, and where a capture's snapshots are.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace libtrace::vktrace {

// The queue label (VK_EXT_debug_utils) that ends a frame where nothing is
// presented: trak-replay inserts it where a capture presented offscreen,
// and VK_LAYER_TRAK_gpa's profiler counts it as a present.
inline constexpr const char* kFrameEndLabel = "vkQueuePresentKHR";

// "1,150,300" -> {1, 150, 300}: frames are numbered from 1, the first
// present. Throws Error(usage) for anything else.
std::set<std::uint64_t> parse_frames(const std::string& list);
// A trimmed capture's frame ranges: "200-300,900-910" (a single "5" is
// 5-5), in order and apart. Throws Error(usage) for anything else.
std::vector<std::pair<std::uint64_t, std::uint64_t>> parse_frame_ranges(const std::string& list);
// The file of a trimmed capture's range when there are several (or a
// trigger starts them): cube.trace -> cube.frames-000200.trace, names that
// sort as the frames do.
std::string range_trace_path(const std::string& trace_path, std::uint64_t first_frame);
// The header property of a trimmed capture: the frame its state is the
// start of. Its presents are that frame and the ones after it.
inline constexpr const char* kFirstFrameProperty = "trak.first_frame";

// Where the snapshots of a trace go: cube.trace -> cube.snapshots/, one
// file per frame (image::frame_file_name: frame-000150.png).
std::string snapshot_dir(const std::string& trace_path);

}  // namespace libtrace::vktrace
