// SPDX-License-Identifier: MIT
#include "capture/launcher_report.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include "capture/names.hpp"
#include "layer/layer.hpp"

namespace libtrace::capture {

void append_report(const std::string& report, std::string_view kind, std::string_view detail) {
  if (report.empty()) return;
  const int fd = ::open(report.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  std::string line(kind);
  line += ':';
  for (char c : detail) line += c == '\n' ? ' ' : c;
  line += '\n';
  ssize_t w;
  do w = ::write(fd, line.data(), line.size());
  while (w < 0 && errno == EINTR);
  ::close(fd);
}

void tell_launcher(std::string_view kind, std::string_view detail) {
  append_report(layer::env(kEnvReport), kind, detail);
}

LauncherReport read_launcher_report(const std::string& path) {
  LauncherReport r;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string_view kind = std::string_view(line).substr(0, colon);
    std::string detail = line.substr(colon + 1);
    if (kind == kReportInstance) r.instance = true;
    if (kind == kReportDevice) r.device = r.instance = true;
    if (kind == kReportFoz)
      r.archives.push_back(std::move(detail));
    else if (kind == kReportTrace)
      r.traces.push_back(std::move(detail));
    else if (kind == kReportProblem)
      r.problems.push_back(std::move(detail));
  }
  return r;
}

}  // namespace libtrace::capture
