// SPDX-License-Identifier: MIT
// run_worker(): a replay worker process from its first message to its last.
#include "replay/foz/child.hpp"

#include <signal.h>
#include <strings.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "libtrace/replay/foz/replay.hpp"
#include "replay/foz/cache.hpp"
#include "replay/foz/spawn.hpp"

namespace libtrace::foz::detail {

namespace {

// Bumped whenever a message changes: the worker may be another build.
constexpr std::uint32_t kProtocol = 0x74726b02;

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
  m.u32(kProtocol).u32(s.id).u32(s.slot).u32(static_cast<std::uint32_t>(s.parent));
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
  if (!in.ok()) throw malformed("setup");
  return s;
}

std::string start_message(const std::vector<std::uint64_t>& first, const InvalidModules& invalid) {
  MsgOut m(MsgKind::start);
  m.u32(static_cast<std::uint32_t>(first.size()));
  for (std::uint64_t i : first) m.u64(i);
  m.u32(static_cast<std::uint32_t>(invalid.size()));
  for (const auto& [hash, why] : invalid) m.u64(hash).str(why);
  return m.frame();
}

WorkerStart read_start(std::string_view body) {
  MsgIn in(body);
  WorkerStart s;
  for (std::uint32_t n = in.u32(); n > 0 && in.ok(); --n) s.first.push_back(in.u64());
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
  // reads the signal from its status.
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS}) ::signal(sig, SIG_DFL);
}

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
  const std::string stats_file =
      setup.stats_dir.empty() ? "" : setup.stats_dir + "/stats-" + std::to_string(setup.id) + ".jsonl";
  auto session = std::make_unique<DeviceSession>(std::move(device), nullptr, seeds, setup.compile_required, stats_file);
  up.send(hello_message(session->report()));

  int memfd = -1;
  const std::string start_body = up.receive(MsgKind::start, &memfd);
  if (memfd < 0) throw malformed("start (no shared state)");
  SharedState shared(memfd);
  if (setup.slot >= shared.slots()) throw malformed("setup (no such slot)");
  const WorkerStart start = read_start(start_body);
  session->start(sources, shared, setup.slot, setup.module_budget, &start.invalid_modules);

  Slot& slot = shared.slot(setup.slot);
  const Injection inject = Injection::from_env();
  run_items(shared.items_view(), shared, setup.slot, setup.id, *session, start.first, setup.limits, &inject,
            [&](std::uint64_t item, Outcome o, const std::string& reason) {
              MsgOut m(MsgKind::issue);
              up.send(m.u64(item).u8(static_cast<std::uint8_t>(o)).str(reason).frame());
            });
  slot.phase.store(static_cast<std::uint32_t>(Phase::finishing));
  slot.started_ns.store(monotonic_ns());
  if (!setup.blob_dir.empty()) {
    const std::vector<std::uint8_t> blob = session->cache_data();
    const std::string path = setup.blob_dir + "/w" + std::to_string(setup.id) + ".bin";
    write_file_atomically(path, blob);
    MsgOut m(MsgKind::cache);
    up.send(m.str(path).u64(blob.size()).frame());
  }
  // Everything is handed over: the parent goes on (a replacement, the
  // merge) while this process ends.
  MsgOut bye(MsgKind::bye);
  up.send(bye.u64(peak_rss()).frame());
  if (skips_teardown(setup.exit, session->report())) {
    // The caller _exits next; the kernel frees what the driver holds.
    static_cast<void>(session.release());
    return 0;
  }
  // Destroying the device lets a driver finish writing its own disk cache.
  session.reset();
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
