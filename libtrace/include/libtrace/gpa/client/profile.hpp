// SPDX-License-Identifier: MIT
// `trak-gpa profile`: an application run with VK_LAYER_TRAK_gpa in profiling
// mode, which samples its command buffers, render passes or draws through
// VK_AMD_gpa_interface and writes one row per sample, one file per device of
// every process of the command; then what the rows say.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "libtrace/core/error.hpp"

namespace libtrace::gpa::client {

// The counters the layer samples: the device's pipeline statistics, by the
// short names `--counters` takes, in event order.
std::vector<std::string> counter_names();
// The counters sampled when none are named.
std::vector<std::string> default_counters();

struct ProfileRun {
  std::vector<std::string> command;
  std::string per = "command-buffer";  // or render-pass, draw
  std::string counters;                // names, comma-separated ("" the default set, "none")
  std::string layer_dir;               // the folder of VkLayer_trak_gpa.json
  WarningSink warn;                    // a torn last row dropped, a device's profile left unfinished
};

// A device one process of the command made, in the order they were made.
struct ProfiledDevice {
  int pid = 0;
  std::uint32_t index = 0;  // among its process's devices
  bool profiled = true;     // false: the layer could not sample it (why_not says why)
  std::string why_not;
  std::int64_t layer_cpu_ns = -1;  // -1: the process ended before the layer closed its profile
  std::uint64_t frames = 0;        // presented (where unclosed: the last with samples)
  std::uint64_t samples = 0;
};

struct Row {
  std::uint32_t device = 0;  // index in Profile::devices
  std::uint64_t frame = 0;
  std::uint32_t command_buffer = 0;
  std::string scope;
  double gpu_ns = 0;
  std::vector<std::uint64_t> counters;  // per Profile::counter_names; empty where the sample had none
};

struct Profile {
  int exec_errno = 0, status = 0, signal = 0;  // the command's (layer::CommandResult)
  double wall_seconds = 0;                     // the command's run, as the tool saw it
  std::vector<std::string> counter_names;
  std::vector<ProfiledDevice> devices;
  std::vector<Row> rows;
  std::int64_t layer_cpu_ns = -1;  // over the devices whose profile was closed; -1: none was
  std::uint64_t frames = 0;        // over every device
  std::uint64_t torn_rows = 0;     // dropped: cut off by the end of their process
};

// Runs the command and reads the rows. Throws Error(io) when it cannot.
Profile run_profile(const ProfileRun& run);
// One device's file of rows (gpa/rows_file.hpp and gpa/profiler.hpp in the
// sources describe it), added to `out` as a device of its own. A last line
// without its end (the process died while writing it) is dropped with a
// warning; any other malformed line is Error(bad_record) naming the line.
void read_rows(std::istream& in, const std::string& name, Profile& out, const WarningSink& warn);

struct ScopeCost {
  std::uint32_t device = 0;
  std::uint32_t command_buffer = 0;
  std::string scope;
  std::uint64_t samples = 0;
  double total_ns = 0, mean_ns = 0;
};

struct Summary {
  std::uint64_t frames = 0;                                  // frames with samples
  double min_ns = 0, median_ns = 0, p95_ns = 0, max_ns = 0;  // GPU time per frame
  std::vector<double> frame_ns;                              // per frame: device by device, in order
  std::vector<ScopeCost> costliest;                          // by total GPU time, at most 10
  std::vector<std::uint64_t> counter_totals;                 // per counter name
  double overhead_percent = 0;                               // layer CPU time of the run's wall time
};

Summary summarize(const Profile& p);

std::string report_table(const Profile& p, const Summary& s);
std::string report_json(const Profile& p, const Summary& s);
std::string report_csv(const Profile& p);
// A self-contained page: the GPU time per frame as a plot, then the tables.
std::string report_html(const Profile& p, const Summary& s, const std::string& title);

}  // namespace libtrace::gpa::client
