// SPDX-License-Identifier: MIT
// trak-replay of Vulkan captures (trak-capture --trace): the call stream
// replayed in order on this machine's device, offscreen, with object-based
// memory (every buffer and image placed by the replay in a memory type this
// device has, from what the capture says it needs), and the frames compared
// with the capture's snapshots.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "libtrace/core/codec.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/core/progress.hpp"

namespace libtrace::replay_trace {

struct Options {
  std::string device;                 // --device: an index or part of a name ("" : the first)
  std::set<std::uint64_t> snapshots;  // frames to write as PNGs (numbered from 1)
  std::string snapshot_dir;           // where (created if needed)
  bool compare = false;               // compare frames with the capture's snapshots
  std::string capture_snapshots;      // their folder (default: beside the trace)
  double tolerance = 0;               // largest channel difference (0..255) still a match
  std::optional<double> min_psnr;     // or: a PSNR (dB) at least this is a match
  // The frames that are timed, each from the end of the one before; frame 1
  // from the replay's start (with the setup: instance, device, pipelines).
  std::uint64_t first_frame = 2, last_frame = UINT64_MAX;
  std::string pipeline_cache;   // loaded before, saved after
  bool present_window = false;  // also show the frames in an X11 window
  // Every shader module through spirv-val before the driver sees it: a
  // module the validator rejects stops the replay, naming the call.
  bool validate = false;
  std::string spirv_val = "spirv-val";
  // The longest a wait may last (fences, semaphores, idle queues): past it,
  // what was waited for is taken as never signalled (a call missing from
  // the capture) and the replay stops.
  double wait_seconds = 10;
  // Testing: place objects differently than plain suballocation would
  // (every one aligned to 64 KiB, memory types in reverse order); the same
  // pixels are expected.
  bool shuffle_memory = false;
  // Testing: write every buffer's updates through a staging copy, as for
  // memory the host cannot see (lavapipe has none such).
  bool stage_updates = false;
  WarningSink warnings;
};

struct FrameCheck {
  std::uint64_t frame = 0;
  std::string capture_file;  // the capture-time snapshot compared with
  int max_difference = 0;    // largest channel difference, 0..255
  double psnr = 0;           // dB; infinite when equal
  bool size_differs = false;
  bool passed = false;
  // For a frame that differs: a PNG of where (image::difference_picture),
  // in the replay's snapshot folder.
  std::string difference_file;
};

struct MemoryUse {
  std::string flags;  // "DEVICE_LOCAL|HOST_VISIBLE|..."
  std::uint64_t objects = 0, bytes = 0;
};

struct Result {
  std::string file;
  std::string device;
  std::uint64_t calls = 0, skipped_calls = 0, updates = 0, update_bytes = 0;
  std::uint64_t frames = 0;
  double seconds = 0;  // the timed frames
  std::uint64_t timed_frames = 0;
  unsigned passes = 1;                    // --loop: whole replays, their timed frames together
  std::vector<double> frame_ms;           // each timed frame
  std::vector<MemoryUse> memory_here;     // by memory type of this device
  std::vector<MemoryUse> memory_capture;  // by memory type the application chose at capture
  std::vector<std::string> adapted;       // what was changed to replay here, one line each
  std::vector<std::string> snapshots;     // PNGs written
  std::vector<FrameCheck> checks;         // --compare
  std::optional<Error> error;             // where the replay stopped, if it did
  bool compare_failed() const;
};

// What the first bytes of a decompressed trace stream (its header and first
// call) are: a Vulkan capture's (the first call is a vk* command), a trace of
// another API, or too short or broken to tell (the parser then says why, as
// every tool's does).
enum class StreamKind { vulkan, other_api, unparsed };
StreamKind stream_kind(std::string_view head);

// The call being replayed now, for a tool's fatal-signal handler to say
// where the process died (a driver that crashes on a value trak cannot
// check): plain words, read without locks from the handler.
struct Replaying {
  bool active = false;  // a call is being replayed (the fields below are its)
  std::uint64_t call = 0;
  // A copy: the parser's signature table, which holds the names, may grow
  // (and move them) while the call runs.
  char name[96] = {};
  std::size_t name_size = 0;
};
const volatile Replaying& replaying();

// Replays the whole stream. Throws Error when it cannot start (not a Vulkan
// capture, no device); a problem during the replay ends it and is returned
// in `error` with what was replayed before.
Result replay(std::unique_ptr<Decoder> decoder, const std::string& name, const Options& opt);

// Adds the timed frames of another pass of the same capture to `total`.
void add_pass(Result& total, const Result& pass);

std::string report_table(const Result& r);
std::string report_json(const Result& r);

}  // namespace libtrace::replay_trace
