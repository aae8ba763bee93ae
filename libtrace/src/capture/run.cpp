// SPDX-License-Identifier: MIT
#include "libtrace/capture/run.hpp"

#include "capture/names.hpp"
#include "libtrace/layer/run.hpp"

namespace libtrace::capture {

RunResult run(const RunOptions& opt) {
  layer::ReportFile report;
  const layer::CommandResult r = layer::run_command(
      opt.command, {{"VK_ADD_LAYER_PATH", opt.layer_dir, layer::EnvEdit::prepend},
                    // After the user's own layers: those stay nearer the application.
                    {"VK_INSTANCE_LAYERS", kLayerName, layer::EnvEdit::append},
                    {kEnvFoz, opt.foz_base},
                    {kEnvReport, report.path()}});
  RunResult out;
  out.exec_errno = r.exec_errno;
  out.status = r.status;
  out.signal = r.signal;
  if (!r.exec_errno) out.archives = report.lines();
  return out;
}

}  // namespace libtrace::capture
