// SPDX-License-Identifier: MIT
// run_worker(): a replay worker process from its first message to its last.
#include "replay/foz/child.hpp"

#include <signal.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "libtrace/replay/foz/replay.hpp"
#include "replay/foz/cache.hpp"
#include "replay/foz/spawn.hpp"

namespace libtrace::foz::detail {

namespace {

// Bumped whenever a message changes: the worker may be another build.
constexpr std::uint32_t kProtocol = 0x74726b03;

void put_strings(MsgOut& m, const std::vector<std::string>& v) {
  m.u32(static_cast<std::uint32_t>(v.size()));
  for (const auto& s : v) m.str(s);
}

std::vector<std::string> get_strings(MsgIn& in) {
  std::vector<std::string> v;
  for (std::uint32_t n = in.u32(); n > 0 && in.ok(); --n) v.push_back(in.str());
  return v;
}

std::uint64_t f64_bits(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

double bits_f64(std::uint64_t u) {
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

Error malformed(const char* what) {
  return Error(Errc::bad_record, "worker", std::string("malformed ") + what + " message from the parent");
}

}  // namespace

std::string setup_message(const WorkerSetup& s) {
  MsgOut m(MsgKind::setup);
  m.u32(kProtocol).u32(s.id).u32(s.slot).u32(s.threads).u32(static_cast<std::uint32_t>(s.parent));
  put_strings(m, s.inputs);
  m.str(s.device_spec).u8(s.null_device);
  put_strings(m, s.load_caches);
  m.u64(s.module_budget).u64(f64_bits(s.limits.seconds)).u64(s.limits.rss_bytes).str(s.blob_dir);
  m.u8(static_cast<std::uint8_t>(s.exit)).u8(static_cast<std::uint8_t>(s.compile_required)).str(s.stats_dir);
  return m.frame();
}

WorkerSetup read_setup(std::string_view body) {
  MsgIn in(body);
  if (in.u32() != kProtocol)
    throw Error(Errc::unsupported, "worker",
                "the parent speaks another protocol (is the worker another version of trak-replay?)");
  WorkerSetup s;
  s.id = in.u32();
  s.slot = in.u32();
  s.threads = in.u32();
  s.parent = static_cast<std::int32_t>(in.u32());
  s.inputs = get_strings(in);
  s.device_spec = in.str();
  s.null_device = in.u8();
  s.load_caches = get_strings(in);
  s.module_budget = in.u64();
  s.limits.seconds = bits_f64(in.u64());
  s.limits.rss_bytes = in.u64();
  s.blob_dir = in.str();
  const std::uint8_t exit = in.u8();
  if (exit > static_cast<std::uint8_t>(WorkerExit::fast)) throw malformed("setup");
  s.exit = static_cast<WorkerExit>(exit);
  const std::uint8_t compile_required = in.u8();
  if (compile_required > static_cast<std::uint8_t>(CompileRequired::skip)) throw malformed("setup");
  s.compile_required = static_cast<CompileRequired>(compile_required);
  s.stats_dir = in.str();
  if (!in.ok() || s.threads == 0 || s.threads > kMaxThreadsPerWorker) throw malformed("setup");
  return s;
}

std::string start_message(const WorkerStart& start) {
  MsgOut m(MsgKind::start);
  for (const auto* list : {&start.solo, &start.again}) {
    m.u32(static_cast<std::uint32_t>(list->size()));
    for (std::uint64_t i : *list) m.u64(i);
  }
  m.u32(static_cast<std::uint32_t>(start.invalid_modules.size()));
  for (const auto& [hash, why] : start.invalid_modules) m.u64(hash).str(why);
  return m.frame();
}

WorkerStart read_start(std::string_view body) {
  MsgIn in(body);
  WorkerStart s;
  for (auto* list : {&s.solo, &s.again})
    for (std::uint32_t n = in.u32(); n > 0 && in.ok(); --n) list->push_back(in.u64());
  for (std::uint32_t n = in.u32(); n > 0 && in.ok(); --n) {
    const std::uint64_t hash = in.u64();
    s.invalid_modules.emplace(hash, in.str());
  }
  if (!in.ok()) throw malformed("start");
  return s;
}

std::string hello_message(const DeviceReport& d) {
  MsgOut m(MsgKind::hello);
  m.str(d.name).str(d.driver).u32(d.vendor_id).u32(d.device_id).u32(d.api_version).u32(d.driver_id).raw(d.uuid, 16);
  m.u32(d.caches_loaded).u8(d.null_device);
  put_strings(m, d.missing_features);
  m.u32(static_cast<std::uint32_t>(d.warnings.size()));
  for (const auto& [where, what] : d.warnings) m.str(where).str(what);
  return m.frame();
}

DeviceReport read_hello(MsgIn& in) {
  DeviceReport d;
  d.name = in.str();
  d.driver = in.str();
  d.vendor_id = in.u32();
  d.device_id = in.u32();
  d.api_version = in.u32();
  d.driver_id = in.u32();
  in.take(d.uuid, 16);
  d.caches_loaded = in.u32();
  d.null_device = in.u8();
  d.missing_features = get_strings(in);
  for (std::uint32_t n = in.u32(); n > 0 && in.ok(); --n) {
    std::string where = in.str();
    d.warnings.emplace_back(std::move(where), in.str());
  }
  return d;
}

namespace {

// Mesa's reading of a boolean variable (env_var_as_boolean).
bool env_true(const char* name) {
  const char* v = std::getenv(name);
  if (!v) return false;
  const std::string s(v);
  return s == "1" || strcasecmp(v, "true") == 0 || strcasecmp(v, "y") == 0 || strcasecmp(v, "yes") == 0;
}

bool is_mesa(std::uint32_t driver_id) {
  switch (static_cast<VkDriverId>(driver_id)) {
    case VK_DRIVER_ID_MESA_RADV:
    case VK_DRIVER_ID_INTEL_OPEN_SOURCE_MESA:
    case VK_DRIVER_ID_MESA_LLVMPIPE:
    case VK_DRIVER_ID_MESA_TURNIP:
    case VK_DRIVER_ID_MESA_V3DV:
    case VK_DRIVER_ID_MESA_PANVK:
    case VK_DRIVER_ID_MESA_VENUS:
    case VK_DRIVER_ID_MESA_DOZEN:
    case VK_DRIVER_ID_MESA_NVK:
    case VK_DRIVER_ID_IMAGINATION_OPEN_SOURCE_MESA: return true;
    default: return false;
  }
}

}  // namespace

bool skips_teardown(WorkerExit mode, const DeviceReport& d) {
  if (mode != WorkerExit::automatic) return mode == WorkerExit::fast;
  if (d.null_device) return true;
  // Only where the driver's own disk cache is known to be off: otherwise its
  // last writes may still be queued, and vkDestroyDevice/vkDestroyInstance is
  // where a driver finishes them.
  if (is_mesa(d.driver_id)) return env_true("MESA_SHADER_CACHE_DISABLE") || env_true("MESA_GLSL_CACHE_DISABLE");
  if (d.driver_id == VK_DRIVER_ID_NVIDIA_PROPRIETARY) {
    const char* v = std::getenv("__GL_SHADER_DISK_CACHE");
    return v && std::string(v) == "0";
  }
  return false;
}

namespace {

struct ParentGone {};  // nobody to work for: the worker just ends

class Uplink {
 public:
  explicit Uplink(int fd) : fd_(fd) {}
  void send(const std::string& frame) {
    if (!send_frame(fd_, frame)) throw ParentGone{};
  }
  // The next message, which must be of kind `want`.
  std::string receive(MsgKind want, int* passed = nullptr) {
    MsgKind kind{};
    std::string body;
    if (!read_frame(fd_, buf_, kind, body, passed)) throw ParentGone{};
    if (kind != want) throw malformed("unexpected");
    return body;
  }

 private:
  int fd_;
  std::string buf_;
};

// The crash handler's view of the worker's threads: the slot each works in,
// so that a fault names its pipeline among those in flight. Written before
// the thread's id is published; read only by the handler.
std::atomic<pid_t> g_thread_ids[kMaxThreadsPerWorker];
Slot* g_thread_slots[kMaxThreadsPerWorker];

pid_t thread_id() { return static_cast<pid_t>(::syscall(SYS_gettid)); }

// Async-signal-safe: lock-free atomics and raise() only. The handler was
// reset as it ran (SA_RESETHAND), and the signal is blocked until it
// returns, so the raise kills the process with the very signal it got.
void mark_crash(int sig) {
  const pid_t self = thread_id();
  for (unsigned i = 0; i < kMaxThreadsPerWorker; ++i)
    if (g_thread_ids[i].load(std::memory_order_acquire) == self) {
      g_thread_slots[i]->crashed.store(1, std::memory_order_release);
      break;
    }
  ::raise(sig);
}

// Each thread's own stack for the handler: a stack overflow must still be
// told.
class AltStack {
 public:
  AltStack() : mem_(kBytes) {
    stack_t ss{};
    ss.ss_sp = mem_.data();
    ss.ss_size = mem_.size();
    ::sigaltstack(&ss, nullptr);
  }
  ~AltStack() {
    stack_t ss{};
    ss.ss_flags = SS_DISABLE;
    ::sigaltstack(&ss, nullptr);
  }
  AltStack(const AltStack&) = delete;
  AltStack& operator=(const AltStack&) = delete;

 private:
  static constexpr std::size_t kBytes = 64 * 1024;
  std::vector<char> mem_;
};

void set_up_process() {
  // Die with the parent: no orphaned workers (Fossilize issue #302). Not
  // inherited through exec, so set here, as early as can be.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Ctrl-C goes to the whole process group; the parent decides, and stops
  // the workers through the shared state so that caches are saved.
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_DFL);
  ::signal(SIGPIPE, SIG_IGN);
  // A crash must kill the worker, whatever the program set up: the parent
  // reads the signal from its status, and the slot the handler marked.
  struct sigaction sa {};
  sa.sa_handler = mark_crash;
  sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS}) ::sigaction(sig, &sa, nullptr);
}

std::string stats_file(const WorkerSetup& setup, unsigned thread) {
  if (setup.stats_dir.empty()) return {};
  return setup.stats_dir + "/stats-" + std::to_string(setup.id) + "-" + std::to_string(thread) + ".jsonl";
}

// The worker's threads, each a session on the process's one device in a
// slot of its own. Items a dead worker left in flight are made first, one
// at a time; then all threads take from the queue.
class WorkerThreads {
 public:
  WorkerThreads(Uplink& up, const WorkerSetup& setup, SharedState& shared,
                std::vector<std::unique_ptr<DeviceSession>>& sessions)
      : up_(up), setup_(setup), shared_(shared), sessions_(sessions), inject_(Injection::from_env()) {
    limits_ = setup.limits;
    // The limit is a thread's share: the device's own memory is paid once.
    limits_.rss_bytes *= sessions.size();
  }

  void run(const WorkerStart& start) {
    Handover solo(start.solo);
    Handover again(start.again);
    AltStack stack;
    enlist(0);
    if (loop(0, solo, false) != LoopEnd::queue_empty) return;
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < sessions_.size(); ++t)
      threads.emplace_back([this, t, &again] {
        AltStack own;
        enlist(t);
        guarded(t, again);
      });
    guarded(0, again);
    for (auto& t : threads) t.join();
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  void enlist(unsigned t) {
    g_thread_slots[t] = &shared_.slot(setup_.slot + t);
    g_thread_ids[t].store(thread_id(), std::memory_order_release);
  }

  LoopEnd loop(unsigned t, Handover& first, bool take_queue) {
    return run_items(
        shared_.items_view(), shared_, setup_.slot + t, setup_.id, *sessions_[t], first, limits_, &inject_,
        [this](std::uint64_t item, Outcome o, const std::string& reason) {
          MsgOut m(MsgKind::issue);
          const std::string frame = m.u64(item).u8(static_cast<std::uint8_t>(o)).str(reason).frame();
          std::lock_guard<std::mutex> lock(send_);
          up_.send(frame);
        },
        take_queue);
  }

  // A thread's failure (the parent gone, an error) ends the worker once the
  // other threads are done with their pipelines.
  void guarded(unsigned t, Handover& again) {
    try {
      loop(t, again, true);
    } catch (...) {
      std::lock_guard<std::mutex> lock(send_);
      if (!failure_) failure_ = std::current_exception();
    }
  }

  Uplink& up_;
  const WorkerSetup& setup_;
  SharedState& shared_;
  std::vector<std::unique_ptr<DeviceSession>>& sessions_;
  const Injection inject_;
  LoopLimits limits_;
  std::mutex send_;  // the uplink and failure_
  std::exception_ptr failure_;
};

int work(Uplink& up, const WorkerSetup& setup) {
  // The parent warned about the archives and the application info already.
  const Sources sources(setup.inputs, {});
  Arena app_arena;
  std::vector<std::string> ignored;
  const VkPhysicalDeviceFeatures2* features = application_features(sources, app_arena, ignored);
  std::vector<CacheFile> seeds;
  for (const auto& name : setup.load_caches) seeds.push_back(CacheFile{name, read_file_bytes(name)});
  auto device = setup.null_device ? std::make_unique<ReplayDevice>()
                                  : std::make_unique<ReplayDevice>(setup.device_spec, features);
  std::vector<std::unique_ptr<DeviceSession>> sessions;
  for (unsigned t = 0; t < setup.threads; ++t)
    sessions.push_back(std::make_unique<DeviceSession>(nullptr, device.get(), seeds, !setup.blob_dir.empty(),
                                                       setup.compile_required, stats_file(setup, t)));
  up.send(hello_message(sessions.front()->report()));

  int memfd = -1;
  const std::string start_body = up.receive(MsgKind::start, &memfd);
  if (memfd < 0) throw malformed("start (no shared state)");
  SharedState shared(memfd);
  if (setup.slot + setup.threads > shared.slots()) throw malformed("setup (no such slot)");
  const WorkerStart start = read_start(start_body);
  for (unsigned t = 0; t < setup.threads; ++t) {
    sessions[t]->start(sources, shared, setup.slot + t, setup.module_budget, &start.invalid_modules);
    // Started: a thread waiting for the items made alone is not slow to start.
    Slot& slot = shared.slot(setup.slot + t);
    slot.started_ns.store(0);
    slot.phase.store(static_cast<std::uint32_t>(Phase::idle));
  }

  WorkerThreads(up, setup, shared, sessions).run(start);
  for (unsigned t = 0; t < setup.threads; ++t) {
    Slot& slot = shared.slot(setup.slot + t);
    slot.phase.store(static_cast<std::uint32_t>(Phase::finishing));
    slot.started_ns.store(monotonic_ns());
  }
  if (!setup.blob_dir.empty()) {
    MsgOut m(MsgKind::cache);
    m.u32(setup.threads);
    for (unsigned t = 0; t < setup.threads; ++t) {
      const std::vector<std::uint8_t> blob = sessions[t]->cache_data();
      const std::string path = setup.blob_dir + "/w" + std::to_string(setup.id) + "-" + std::to_string(t) + ".bin";
      write_file_atomically(path, blob);
      m.str(path).u64(blob.size());
    }
    up.send(m.frame());
  }
  // Everything is handed over: the parent goes on (a replacement, the
  // merge) while this process ends.
  MsgOut bye(MsgKind::bye);
  up.send(bye.u64(peak_rss()).frame());
  if (skips_teardown(setup.exit, sessions.front()->report())) {
    // The caller _exits next; the kernel frees what the driver holds.
    for (auto& s : sessions) static_cast<void>(s.release());
    static_cast<void>(device.release());
    return 0;
  }
  // Destroying the device lets a driver finish writing its own disk cache.
  sessions.clear();
  device.reset();
  return 0;
}

}  // namespace
}  // namespace libtrace::foz::detail

namespace libtrace::foz {

int run_worker(int channel_fd) {
  using namespace detail;
  set_up_process();
  Uplink up(channel_fd);
  try {
    const WorkerSetup setup = read_setup(up.receive(MsgKind::setup));
    // The parent died before PR_SET_PDEATHSIG was set: this one was adopted.
    if (::getppid() != setup.parent) return 1;
    return work(up, setup);
  } catch (const ParentGone&) {
    return 1;
  } catch (const Error& e) {
    try {
      MsgOut m(MsgKind::fatal);
      up.send(m.u8(static_cast<std::uint8_t>(e.code())).str(e.where()).str(e.message()).frame());
    } catch (const ParentGone&) {
    }
  } catch (const std::exception& e) {
    try {
      MsgOut m(MsgKind::fatal);
      up.send(m.u8(static_cast<std::uint8_t>(Errc::unsupported)).str("worker").str(e.what()).frame());
    } catch (const ParentGone&) {
    }
  }
  return 1;
}

}  // namespace libtrace::foz
