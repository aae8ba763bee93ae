// SPDX-License-Identifier: MIT
// trak-replay's options for Vulkan captures (trak-capture --trace), and the
// replay of one.
#pragma once

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <iostream>
#include <string>

#include "libtrace/core/codec.hpp"
#include "libtrace/core/io.hpp"
#include "libtrace/replay/trace/replay.hpp"
#include "libtrace/vktrace/dialect.hpp"
#include "tool_main.hpp"

namespace tools {

struct TraceCli {
  libtrace::replay_trace::Options opt;
  std::string snapshots, frames, present = "offscreen";
  unsigned loop = 1;
  double min_psnr = 0;
  CLI::Option* min_psnr_option = nullptr;
};

// A driver that crashes on a value trak could not check takes the process
// with it: the user is told which call of the capture it was.
inline char g_fatal_file[512];

extern "C" inline void on_fatal_signal(int sig) {
  char line[1024];
  std::size_t n = 0;
  auto put = [&](const char* s, std::size_t len) {
    for (std::size_t i = 0; i < len && n < sizeof line - 1; ++i) line[n++] = s[i];
  };
  auto puts = [&](const char* s) { put(s, std::strlen(s)); };
  const volatile libtrace::replay_trace::Replaying& r = libtrace::replay_trace::replaying();
  puts("trak-replay: ");
  puts(g_fatal_file);
  if (r.active && r.name_size) {
    char digits[24];
    std::size_t d = sizeof digits;
    for (std::uint64_t v = r.call; d == sizeof digits || v; v /= 10) digits[--d] = static_cast<char>('0' + v % 10);
    puts(": call ");
    put(digits + d, sizeof digits - d);
    puts(" ");
    put(const_cast<const char*>(r.name), r.name_size);
  } else {
    puts(": after the last call");
  }
  puts(": the process died here (");
  puts(sigabbrev_np(sig) ? sigabbrev_np(sig) : "signal");
  puts(": a crash in the driver, on a value trak does not check, or in trak)\n");
  ssize_t ignored = ::write(2, line, n);
  (void)ignored;
  ::raise(sig);  // SA_RESETHAND: the default action now
}

inline void name_call_on_fatal_signals(const std::string& file) {
  std::snprintf(g_fatal_file, sizeof g_fatal_file, "%s", file.c_str());
  static char stack[1 << 16];  // a stack overflow still gets its line
  stack_t ss{};
  ss.ss_sp = stack;
  ss.ss_size = sizeof stack;
  ::sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sa.sa_flags = SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) ::sigaction(sig, &sa, nullptr);
}

// Whether two paths name one existing folder.
inline bool same_folder(const std::string& a, const std::string& b) {
  struct stat x {};
  struct stat y {};
  return ::stat(a.c_str(), &x) == 0 && ::stat(b.c_str(), &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

inline constexpr int kFramesDiffer = 3;

inline void add_trace_options(CLI::App& app, TraceCli& t) {
  app.add_option("--snapshot", t.snapshots, "Captures: write the frames presented at FRAMES (1,150,300) as PNGs")
      ->type_name("FRAMES");
  app.add_option("--snapshot-dir", t.opt.snapshot_dir,
                 "Captures: the folder of --snapshot's PNGs (default: beside the capture, NAME.replay/)")
      ->type_name("DIR");
  app.add_flag("--compare", t.opt.compare,
               "Captures: compare each frame the capture has a snapshot of with it (exit 3 past --tolerance)");
  app.add_option("--tolerance", t.opt.tolerance,
                 "Captures: the largest channel difference (0-255) that still matches (default 0: bit for bit)")
      ->check(CLI::Range(0, 255));
  t.min_psnr_option =
      app.add_option("--min-psnr", t.min_psnr,
                     "Captures: or a PSNR of at least DB matches (another GPU rasterizes slightly differently: 25)")
          ->type_name("DB")
          ->check(CLI::Range(0.0, 200.0));
  app.add_option("--frames", t.frames,
                 "Captures: time frames A to B (from 1; frame 1 holds the setup), or frame N alone (default 2 to "
                 "the end)")
      ->type_name("A-B|N");
  app.add_option("--present", t.present,
                 "Captures: offscreen (default), or window: also show the frames in an X11 window")
      ->check(CLI::IsMember({"offscreen", "window"}));
  app.add_option("--loop", t.loop,
                 "Captures: replay N times, the timed frames of every pass in the figures. .foz: create every "
                 "selected pipeline N times (as fossilize-replay --loop), each pass counted")
      ->type_name("N")
      ->check(CLI::Range(1u, 100000u));
  app.add_flag("--shuffle-memory", t.opt.shuffle_memory,
               "Captures, testing: memory types in reverse order and every object aligned to 64 KiB");
  app.add_flag("--stage-updates", t.opt.stage_updates,
               "Captures, testing: every buffer update through a staging copy, as for memory the host cannot see");
}

inline const char* const kTraceHelp = R"(

Vulkan captures (trak-capture --trace), offscreen, on any device:
  trak-replay cube.trace                            replay; frames, fps, memory here and at capture
  trak-replay cube.trace --compare                  compare with the capture's snapshots (PSNR, largest difference)
  trak-replay cube.trace --compare --min-psnr 25    on another GPU: frames within 25 dB PSNR match
  trak-replay cube.trace --snapshot 1,100 --snapshot-dir out
  trak-replay gl.trace --frames 10-200 --json       time frames 10 to 200
  trak-replay gl.trace --frames 10-200 --loop 5     five passes, their frames 10 to 200 timed together
  trak-replay gl.trace --pipeline-cache gl.cache    load the cache if it is there, save it after
  trak-replay gl.trace --validate                   spirv-val on every shader module before the driver sees it
  trak-replay gl.trace --present window             watch it (an X11 display; the frames are blitted there)
Exit status for captures: 0 replayed, 1 bad input or a call that fails here, 2 usage, 3 frames differ.
)";

inline int run_trace(TraceCli& t, const std::string& input, std::unique_ptr<libtrace::Decoder> decoder,
                     const std::string& name, const std::string& device, const std::string& pipeline_cache, bool json) {
  auto& o = t.opt;
  o.device = device;
  o.present_window = t.present == "window";
  o.pipeline_cache = pipeline_cache;
  if (!t.snapshots.empty()) o.snapshots = libtrace::vktrace::parse_frames(t.snapshots);
  if (t.min_psnr_option && t.min_psnr_option->count()) {
    if (std::isnan(t.min_psnr)) throw UsageError("--min-psnr wants a number of dB (0 to 200), not nan");
    o.min_psnr = t.min_psnr;
  }
  const bool pipe = libtrace::is_stdio(input);
  if (pipe && o.compare) throw UsageError("--compare finds the capture's snapshots beside it: give a file, not a pipe");
  if (pipe && !o.snapshots.empty() && o.snapshot_dir.empty())
    throw UsageError("--snapshot from a pipe needs --snapshot-dir DIR");
  if (o.snapshot_dir.empty()) {
    const std::string dir = libtrace::vktrace::snapshot_dir(input);  // NAME.snapshots
    o.snapshot_dir = dir.substr(0, dir.size() - 10) + ".replay";
  }
  o.capture_snapshots = libtrace::vktrace::snapshot_dir(input);
  // The capture's snapshots are the references: the replay's never go there.
  if (!o.snapshots.empty() && same_folder(o.snapshot_dir, o.capture_snapshots))
    throw UsageError("--snapshot-dir " + o.snapshot_dir +
                     " is the capture's own snapshot folder: its references would be overwritten");
  if (!t.frames.empty()) {
    const auto dash = t.frames.find('-');
    auto number = [&](std::string_view s, std::uint64_t& out) {
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
      if (s.empty() || ec != std::errc() || end != s.data() + s.size() || out == 0)
        throw UsageError("--frames wants A-B or N (frames from 1), not '" + t.frames + "'");
    };
    number(std::string_view(t.frames).substr(0, dash), o.first_frame);
    o.last_frame = o.first_frame;
    if (dash != std::string::npos) number(std::string_view(t.frames).substr(dash + 1), o.last_frame);
    if (o.last_frame < o.first_frame) throw UsageError("--frames: the range " + t.frames + " is empty");
  }
  o.warnings = warning_sink("trak-replay");
  if (t.loop > 1 && pipe) throw UsageError("--loop reads the capture again: give a file, not a pipe");
  name_call_on_fatal_signals(name);
  auto r = libtrace::replay_trace::replay(std::move(decoder), name, o);
  for (unsigned pass = 1; pass < t.loop && !r.error; ++pass) {
    libtrace::InputFile again(input);
    libtrace::replay_trace::Options quiet = o;  // snapshots and checks come from the first pass
    quiet.snapshots.clear();
    quiet.compare = false;
    add_pass(r, libtrace::replay_trace::replay(libtrace::open_decoder(again), name, quiet));
  }
  std::cout << (json ? libtrace::replay_trace::report_json(r) : libtrace::replay_trace::report_table(r));
  std::cout.flush();
  if (r.error) throw *r.error;
  // Frames asked for that the capture does not have.
  const std::string frames = std::to_string(r.frames) + (r.frames == 1 ? " frame" : " frames");
  if (!t.frames.empty() && o.last_frame > r.frames)
    o.warnings("--frames " + t.frames,
               "the capture has " + frames + ": " +
                   (o.first_frame > r.frames ? "none was timed"
                                             : "frames past " + std::to_string(r.frames) + " were not timed"));
  for (const std::uint64_t f : o.snapshots)
    if (f > r.frames)
      o.warnings("--snapshot " + std::to_string(f),
                 "the capture has " + frames + ": frame " + std::to_string(f) + " never came");
  if (o.compare && r.checks.empty())
    throw libtrace::Error(libtrace::Errc::io, o.capture_snapshots,
                          "--compare: the capture has no snapshots to compare with");
  return r.compare_failed() ? kFramesDiffer : kOk;
}

}  // namespace tools
