// SPDX-License-Identifier: MIT
// The worker process's side of replay(): what its parent tells it, what it
// answers, and the body of run_worker() (libtrace/replay/foz/replay.hpp).
//
// The conversation, over the worker's socket (replay/foz/proto.hpp frames):
//   parent: setup   (right after the spawn)
//   worker: hello   (its device is up)            or fatal
//   parent: start   (once the plan is made and the worker said hello;
//                    the shared state's memfd attached)
//   worker: issue*  (one per pipeline that is not ok)
//   worker: cache   (with a cache file wanted: the blobs are saved, one
//                    per thread)
//   worker: bye     (all handed over; it ends next, with or without
//                    destroying its device: WorkerExit)
// The parent hears of a crash from the worker's exit status and the slot it
// left in the shared state; a worker hears of its parent's death from the
// socket (end of file) or PR_SET_PDEATHSIG.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "replay/foz/proto.hpp"
#include "replay/foz/session.hpp"
#include "replay/foz/worker.hpp"

namespace libtrace::foz::detail {

// Which device to make, from which archives: all a worker needs to start.
struct WorkerSetup {
  std::uint32_t id = 0;       // unique in the run: the shared state's owner ids
  std::uint32_t slot = 0;     // its first Slot in the shared state
  std::uint32_t threads = 1;  // one device, `threads` threads in slots slot, slot+1, ...
  std::int32_t parent = 0;    // pid: a worker whose parent is already gone exits
  std::vector<std::string> inputs;
  std::string device_spec;
  bool null_device = false;
  std::vector<std::string> load_caches;  // files whose header was checked
  std::uint64_t module_budget = 0;
  LoopLimits limits;
  std::string blob_dir;  // "" = no cache blob wanted, else where to save it
  WorkerExit exit = WorkerExit::automatic;
  CompileRequired compile_required = CompileRequired::compile;
  std::string stats_dir;  // "" = no --pipeline-stats, else where the worker's file goes
};

// What to do, once the plan exists (the pipelines themselves are in the
// shared state).
struct WorkerStart {
  // Items of a worker that died with several in flight: made one at a time
  // before anything else, so that the one that kills again is named.
  std::vector<std::uint64_t> solo;
  // Items of a worker that ended before making them, made before the queue.
  std::vector<std::uint64_t> again;
  InvalidModules invalid_modules;
};

std::string setup_message(const WorkerSetup& s);
// Error(unsupported) for a body of another protocol version.
WorkerSetup read_setup(std::string_view body);
std::string start_message(const WorkerStart& start);
WorkerStart read_start(std::string_view body);

// Whether a worker of this device, told `mode`, may end without destroying
// its device and instance (WorkerExit::automatic's rules).
bool skips_teardown(WorkerExit mode, const DeviceReport& d);

std::string hello_message(const DeviceReport& d);
DeviceReport read_hello(MsgIn& in);

}  // namespace libtrace::foz::detail
