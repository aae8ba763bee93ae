// SPDX-License-Identifier: MIT
#include "libtrace/capture/run.hpp"

#include "capture/names.hpp"
#include "libtrace/layer/run.hpp"

namespace libtrace::capture {

RunResult run(const RunOptions& opt) {
  layer::ReportFile report;
  std::vector<layer::EnvEdit> env = {{"VK_ADD_LAYER_PATH", opt.layer_dir, layer::EnvEdit::prepend},
                                      // After the user's own layers: those stay nearer the application.
                                      {"VK_INSTANCE_LAYERS", kLayerName, layer::EnvEdit::append},
                                      {kEnvReport, report.path()},
                                      {kEnvTraceOwner, ""}};  // the command's first tracing process takes the name
  if (!opt.foz_base.empty()) env.push_back({kEnvFoz, opt.foz_base});
  if (!opt.trace.empty()) env.push_back({kEnvTrace, opt.trace});
  if (!opt.snapshots.empty()) env.push_back({kEnvSnapshots, opt.snapshots});
  const layer::CommandResult r = layer::run_command(opt.command, env);
  RunResult out;
  out.exec_errno = r.exec_errno;
  out.status = r.status;
  out.signal = r.signal;
  if (r.exec_errno) return out;
  const std::string trace_prefix = "trace:";
  for (std::string& line : report.lines()) {
    if (line.compare(0, trace_prefix.size(), trace_prefix) == 0) out.traces.push_back(line.substr(trace_prefix.size()));
    else out.archives.push_back(std::move(line));
  }
  return out;
}

}  // namespace libtrace::capture
