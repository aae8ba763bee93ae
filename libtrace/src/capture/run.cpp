// SPDX-License-Identifier: MIT
#include "libtrace/capture/run.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "capture/launcher_report.hpp"
#include "capture/names.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/layer/run.hpp"
#include "libtrace/vktrace/dialect.hpp"

namespace libtrace::capture {

namespace {

// The trace's name is the first tracing process's only when the file is
// empty when it starts (trace/stream.cpp): an earlier capture of that name
// is replaced, as any output is, but never one another run still writes.
void empty_trace(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw_errno(path, "create");
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    throw Error(Errc::io, path, "another capture is writing it now");
  }
  const bool ok = ::ftruncate(fd, 0) == 0;
  const int err = errno;
  ::close(fd);
  if (!ok) {
    errno = err;
    throw_errno(path, "truncate");
  }
}

// After the command: a trace no process took is not left behind, empty.
void drop_untaken(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st {};
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0 && ::fstat(fd, &st) == 0 && st.st_size == 0) ::unlink(path.c_str());
  ::close(fd);
}

}  // namespace

RunResult run(const RunOptions& opt) {
  layer::ReportFile report;
  std::vector<layer::EnvEdit> env = layer::layer_environment(kLayerName, opt.layer_dir);
  env.push_back({kEnvReport, report.path()});
  if (!opt.foz_base.empty()) env.push_back({kEnvFoz, opt.foz_base});
  // The files a trimmed capture writes, emptied as the trace is.
  std::vector<std::string> traces;
  const auto ranges =
      opt.frames.empty() ? decltype(vktrace::parse_frame_ranges("")){} : vktrace::parse_frame_ranges(opt.frames);
  if (!opt.trace.empty() && (ranges.size() > 1 || !opt.trigger.empty())) {
    for (const auto& [first, last] : ranges) traces.push_back(vktrace::range_trace_path(opt.trace, first));
  } else if (!opt.trace.empty()) {
    traces.push_back(opt.trace);
  }
  for (const std::string& t : traces) empty_trace(t);
  if (!opt.trace.empty()) env.push_back({kEnvTrace, opt.trace});
  if (!opt.frames.empty()) env.push_back({kEnvTraceFrames, opt.frames});
  if (!opt.trigger.empty()) env.push_back({kEnvTraceTrigger, opt.trigger});
  if (!opt.snapshots.empty()) env.push_back({kEnvSnapshots, opt.snapshots});
  if (!opt.codec.empty()) env.push_back({kEnvTraceCodec, opt.codec});
  if (opt.level >= 0) env.push_back({kEnvTraceLevel, std::to_string(opt.level)});
  const layer::CommandResult r = layer::run_command(opt.command, env);
  RunResult out;
  out.exec_errno = r.exec_errno;
  out.status = r.status;
  out.signal = r.signal;
  for (const std::string& t : traces) drop_untaken(t);
  if (r.exec_errno) return out;
  LauncherReport said = read_launcher_report(report.path());
  out.instance_seen = said.instance;
  out.device_seen = said.device;
  out.archives = std::move(said.archives);
  out.traces = std::move(said.traces);
  out.problems = std::move(said.problems);
  if (!out.instance_seen) out.unseen_because = layer::why_layer_unseen(kLayerName, opt.command.front());
  return out;
}

}  // namespace libtrace::capture
