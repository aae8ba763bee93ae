// SPDX-License-Identifier: MIT
// `trak-gpa profile`: an application run with VK_LAYER_TRAK_gpa in profiling
// mode, which samples its command buffers, render passes or draws through
// VK_AMD_gpa_interface and writes one row per sample; then what the rows say.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace libtrace::gpa {

struct ProfileRun {
  std::vector<std::string> command;
  std::string per = "command-buffer";  // or render-pass, draw
  std::string counters;                // names, comma-separated ("" the default set)
  std::string layer_dir;               // the folder of VkLayer_trak_gpa.json
};

struct Row {
  std::uint64_t frame = 0;
  std::uint32_t command_buffer = 0;
  std::string scope;
  double gpu_ns = 0;
  std::vector<std::uint64_t> counters;  // empty where the sample had none
};

struct Profile {
  int exec_errno = 0, status = 0, signal = 0;  // the command's (layer::CommandResult)
  double wall_seconds = 0;                     // the command's run, as the tool saw it
  std::vector<std::string> counter_names;
  std::vector<Row> rows;
  std::int64_t layer_cpu_ns = -1;  // -1: the layer never finished the profile
  std::uint64_t frames = 0;
};

// Runs the command and reads the rows. Throws Error(io) when it cannot.
Profile run_profile(const ProfileRun& run);
// The layer's CSV (profiler.hpp describes it). Error(bad_record) naming the
// line for a malformed one.
void read_rows(std::istream& in, const std::string& name, Profile& out);

struct ScopeCost {
  std::uint32_t command_buffer = 0;
  std::string scope;
  std::uint64_t samples = 0;
  double total_ns = 0, mean_ns = 0;
};

struct Summary {
  std::uint64_t frames = 0;                  // frames with samples
  double min_ns = 0, median_ns = 0, p95_ns = 0, max_ns = 0;  // GPU time per frame
  std::vector<double> frame_ns;              // per frame, in order
  std::vector<ScopeCost> costliest;          // by total GPU time, at most 10
  std::vector<std::uint64_t> counter_totals;  // per counter name
  double overhead_percent = 0;               // layer CPU time of the run's wall time
};

Summary summarize(const Profile& p);

std::string format_table(const Profile& p, const Summary& s);
std::string format_json(const Profile& p, const Summary& s);
std::string format_csv(const Profile& p);
// A self-contained page: the GPU time per frame as a plot, then the tables.
std::string format_html(const Profile& p, const Summary& s, const std::string& title);

}  // namespace libtrace::gpa
