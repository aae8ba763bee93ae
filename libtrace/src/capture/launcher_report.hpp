// SPDX-License-Identifier: MIT
// What the layer tells trak-capture: one line per event, appended to the
// file TRAK_CAPTURE_REPORT names, so that the launcher can say what was
// recorded, and why nothing was, after the command ended however it ended.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace libtrace::capture {

// The kinds of line, each "<kind>:<detail>".
inline constexpr std::string_view kReportInstance = "instance";  // pid: an instance reached the layer
inline constexpr std::string_view kReportDevice = "device";      // pid: a device did
inline constexpr std::string_view kReportFoz = "foz";            // an archive's path
inline constexpr std::string_view kReportTrace = "trace";        // a trace's path
inline constexpr std::string_view kReportProblem = "problem";    // what could not be recorded, and why

// Appends one line to the report file `report` (a single write with
// O_APPEND: lines of several processes never mix); never throws.
void append_report(const std::string& report, std::string_view kind, std::string_view detail);
// append_report() to the launcher's file; nothing when the layer runs
// without the launcher.
void tell_launcher(std::string_view kind, std::string_view detail);

struct LauncherReport {
  bool instance = false, device = false;
  std::vector<std::string> archives, traces, problems;  // in the order they came
};
// Reads what tell_launcher() wrote to `path`; unknown lines are skipped.
LauncherReport read_launcher_report(const std::string& path);

}  // namespace libtrace::capture
