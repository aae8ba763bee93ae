// SPDX-License-Identifier: MIT
// Worker processes: fork, watch, reap, replace. A worker reports through its
// pipe and the shared mapping; when it dies, the slot's `item` names the
// pipeline it was creating, which is recorded as crashed (or timed out when
// the parent killed it), and a fresh worker carries on after it.
#include "foz_replay_pool.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "foz_replay_cache.hpp"
#include "foz_replay_proto.hpp"

namespace libtrace::foz::detail {

std::string signal_name(int sig) {
  if (const char* abbrev = ::sigabbrev_np(sig)) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(sig);
}

namespace {

constexpr double kStartStopLimit = 120;  // s: device creation, cache saving
constexpr int kMaxStartFailures = 3;

// ---- In the worker ---------------------------------------------------------------

void send(int fd, const std::string& frame) {
  const char* p = frame.data();
  std::size_t n = frame.size();
  while (n > 0) {
    const ssize_t r = ::write(fd, p, n);
    if (r < 0) {
      if (errno == EINTR) continue;
      ::_exit(1);  // the parent is gone: nobody to work for
    }
    p += r;
    n -= static_cast<std::size_t>(r);
  }
}

MsgOut hello_message(const DeviceReport& d) {
  MsgOut m(MsgKind::hello);
  m.str(d.name).str(d.driver).u32(d.vendor_id).u32(d.device_id).u32(d.api_version).raw(d.uuid, 16);
  m.u32(d.caches_loaded).u8(d.null_device);
  m.u32(static_cast<std::uint32_t>(d.missing_features.size()));
  for (const auto& f : d.missing_features) m.str(f);
  m.u32(static_cast<std::uint32_t>(d.warnings.size()));
  for (const auto& [where, what] : d.warnings) m.str(where).str(what);
  return m;
}

DeviceReport read_hello(MsgIn& in) {
  DeviceReport d;
  d.name = in.str();
  d.driver = in.str();
  d.vendor_id = in.u32();
  d.device_id = in.u32();
  d.api_version = in.u32();
  in.take(d.uuid, 16);
  d.caches_loaded = in.u32();
  d.null_device = in.u8();
  for (std::uint32_t n = in.u32(); n > 0 && in.ok(); --n) d.missing_features.push_back(in.str());
  for (std::uint32_t n = in.u32(); n > 0 && in.ok(); --n) {
    std::string where = in.str();
    d.warnings.emplace_back(std::move(where), in.str());
  }
  return d;
}

struct ChildArgs {
  const Plan* plan;
  SharedState* shared;
  const SessionFactory* factory;
  const PoolConfig* cfg;
  unsigned slot;
  std::uint32_t id;
  std::vector<std::uint64_t> first;
  int fd;
  pid_t parent;
};

[[noreturn]] void child_main(const ChildArgs& a) {
  // Die with the parent: no orphaned workers (Fossilize issue #302).
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != a.parent) ::_exit(1);
  // Ctrl-C goes to the whole process group; the parent decides, and stops
  // the workers through the shared mapping so that caches are saved.
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_DFL);
  ::signal(SIGPIPE, SIG_IGN);
  // A crash must kill the worker, whatever handler the host process set up
  // (a test framework's, say): the parent reads the signal from its status.
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS}) ::signal(sig, SIG_DFL);
  // stdout carries the parent's data only; anything a driver prints goes to
  // stderr.
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  Slot& slot = a.shared->slot(a.slot);
  try {
    auto session = (*a.factory)(*a.shared, a.slot);
    send(a.fd, hello_message(session->report()).frame());
    const Injection inject = Injection::from_env();
    run_items(*a.plan, *a.shared, a.slot, a.id, *session, a.first, a.cfg->limits, &inject,
              [&](std::uint64_t item, Outcome o, const std::string& reason) {
                MsgOut m(MsgKind::issue);
                send(a.fd, m.u64(item).u8(static_cast<std::uint8_t>(o)).str(reason).frame());
              });
    slot.phase.store(static_cast<std::uint32_t>(Phase::finishing));
    slot.started_ns.store(monotonic_ns());
    if (a.cfg->want_blobs) {
      const std::vector<std::uint8_t> blob = session->cache_data();
      const std::string path = a.cfg->blob_dir + "/w" + std::to_string(a.id) + ".bin";
      write_file_atomically(path, blob);
      MsgOut m(MsgKind::cache);
      send(a.fd, m.str(path).u64(blob.size()).frame());
    }
    // Destroying the device lets a driver finish writing its own disk cache.
    session.reset();
    MsgOut bye(MsgKind::bye);
    send(a.fd, bye.u64(peak_rss()).frame());
    ::_exit(0);
  } catch (const Error& e) {
    MsgOut m(MsgKind::fatal);
    send(a.fd, m.u8(static_cast<std::uint8_t>(e.code())).str(e.where()).str(e.message()).frame());
  } catch (const std::exception& e) {
    MsgOut m(MsgKind::fatal);
    send(a.fd, m.u8(static_cast<std::uint8_t>(Errc::unsupported)).str("worker").str(e.what()).frame());
  }
  ::_exit(1);
}

// ---- In the parent ------------------------------------------------------------------

struct Worker {
  pid_t pid = -1;
  int fd = -1;
  unsigned slot = 0;
  std::uint32_t id = 0;
  std::string inbuf;
  bool eof = false, hello = false, cached = false, bye = false, killed = false;
  std::uint64_t peak_rss = 0;
  std::vector<std::uint64_t> first;
};

class Pool {
 public:
  Pool(const Plan& plan, SharedState& shared, Ledger& ledger, const SessionFactory& factory, const PoolConfig& cfg)
      : plan_(plan), shared_(shared), ledger_(ledger), factory_(factory), cfg_(cfg) {}
  ~Pool() {
    // Only on an error path: no worker outlives the run, none is left a zombie.
    for (Worker& w : workers_) {
      ::kill(w.pid, SIGKILL);
      ::waitpid(w.pid, nullptr, 0);
      ::close(w.fd);
    }
  }

  PoolResult run();

 private:
  void spawn(unsigned slot, std::vector<std::uint64_t> first);
  void read_from(Worker& w);
  void handle(Worker& w, MsgKind kind, const std::string& body);
  void reap(std::size_t index);
  void check_timeouts();
  void report_progress(bool force);
  std::string describe_death(const Worker& w, int status, Phase phase, Tag dep_tag, std::uint64_t dep_hash) const;

  const Plan& plan_;
  SharedState& shared_;
  Ledger& ledger_;
  const SessionFactory& factory_;
  const PoolConfig& cfg_;
  std::vector<Worker> workers_;
  PoolResult result_;
  std::uint32_t next_id_ = 0;
  int start_failures_ = 0;
  bool stopping_ = false;
  std::optional<Error> fatal_;
  std::int64_t last_progress_ = 0, last_settle_ = 0;
};

void Pool::spawn(unsigned slot, std::vector<std::uint64_t> first) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) throw_errno("trak-replay", "pipe");
  Slot& s = shared_.slot(slot);
  s.item.store(-1);
  s.phase.store(static_cast<std::uint32_t>(Phase::starting));
  s.started_ns.store(monotonic_ns());
  ChildArgs args{&plan_, &shared_, &factory_, &cfg_, slot, ++next_id_, first, p[1], ::getpid()};
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(p[0]);
    ::close(p[1]);
    throw_errno("trak-replay", "fork");
  }
  if (pid == 0) {
    ::close(p[0]);
    for (const Worker& w : workers_) ::close(w.fd);
    if (cfg_.done) ::close(cfg_.done->fd());
    child_main(args);
  }
  ::close(p[1]);
  ::fcntl(p[0], F_SETFL, O_NONBLOCK);
  Worker w;
  w.pid = pid;
  w.fd = p[0];
  w.slot = slot;
  w.id = args.id;
  w.first = std::move(first);
  workers_.push_back(std::move(w));
  ++result_.workers_started;
}

void Pool::read_from(Worker& w) {
  char buf[1 << 16];
  for (;;) {
    const ssize_t r = ::read(w.fd, buf, sizeof buf);
    if (r > 0) {
      w.inbuf.append(buf, static_cast<std::size_t>(r));
      continue;
    }
    if (r == 0) w.eof = true;
    if (r < 0 && errno == EINTR) continue;
    break;  // EAGAIN: all read for now
  }
  MsgKind kind;
  std::string body;
  while (next_frame(w.inbuf, kind, body)) handle(w, kind, body);
}

void Pool::handle(Worker& w, MsgKind kind, const std::string& body) {
  MsgIn in(body);
  switch (kind) {
    case MsgKind::hello:
      w.hello = true;
      start_failures_ = 0;
      if (!result_.device) result_.device = read_hello(in);
      break;
    case MsgKind::issue: {
      const std::uint64_t item = in.u64();
      const auto o = static_cast<Outcome>(in.u8());
      ledger_.note_issue(item, o, in.str());
      break;
    }
    case MsgKind::cache:
      result_.blob_files.push_back(in.str());
      w.cached = true;
      ledger_.commit_worker(w.id);
      break;
    case MsgKind::bye:
      w.bye = true;
      w.peak_rss = in.u64();
      break;
    case MsgKind::fatal: {
      const auto code = static_cast<Errc>(in.u8());
      std::string where = in.str();
      if (!fatal_) fatal_.emplace(code, std::move(where), in.str());
      break;
    }
  }
}

std::string Pool::describe_death(const Worker& w, int status, Phase phase, Tag dep_tag, std::uint64_t dep_hash) const {
  std::string s;
  if (w.killed)
    s = "no result after " + std::to_string(static_cast<long long>(cfg_.timeout_seconds)) + " s: the worker was killed";
  else if (WIFSIGNALED(status))
    s = "the worker died of " + signal_name(WTERMSIG(status));
  else
    s = "the worker exited with status " + std::to_string(WEXITSTATUS(status));
  if (phase == Phase::dependency) s += " while creating " + describe_entry(dep_tag, dep_hash);
  return s;
}

void Pool::reap(std::size_t index) {
  Worker w = std::move(workers_[index]);
  workers_.erase(workers_.begin() + static_cast<std::ptrdiff_t>(index));
  int status = 0;
  rusage ru{};
  while (::wait4(w.pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  ::close(w.fd);
  result_.peak_rss_worker =
      std::max({result_.peak_rss_worker, w.peak_rss, static_cast<std::uint64_t>(ru.ru_maxrss) * 1024});

  Slot& slot = shared_.slot(w.slot);
  const std::int64_t culprit = slot.item.load();
  const auto phase = static_cast<Phase>(slot.phase.load());
  const auto dep_tag = static_cast<Tag>(slot.dep_tag.load());
  const std::uint64_t dep_hash = slot.dep_hash.load();
  slot.item.store(-1);
  slot.started_ns.store(0);
  slot.phase.store(static_cast<std::uint32_t>(Phase::idle));

  const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0 && w.bye;
  std::vector<std::uint64_t> handover;
  for (std::uint64_t i : w.first)
    if (static_cast<std::int64_t>(i) != culprit && shared_.outcome_of(i) == Outcome::pending) handover.push_back(i);

  if (!clean && !fatal_) {
    const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    const std::string why = describe_death(w, status, phase, dep_tag, dep_hash);
    if (culprit >= 0 && shared_.outcome_of(static_cast<std::size_t>(culprit)) == Outcome::pending) {
      const auto i = static_cast<std::size_t>(culprit);
      const Outcome o = w.killed ? Outcome::timed_out : Outcome::crashed;
      ledger_.note_issue(i, o, why, sig);
      shared_.finish(i, o, w.id);
      if (phase == Phase::dependency && dep_tag == Tag::shader_module) shared_.ban(dep_hash);
    } else if (!w.hello) {
      if (++start_failures_ >= kMaxStartFailures)
        fatal_.emplace(Errc::unsupported, "trak-replay",
                       "workers keep dying while they set up the device (" + why + ")");
    } else if (cfg_.warnings) {
      cfg_.warnings("trak-replay", "worker " + std::to_string(w.id) + ": " + why + " outside any pipeline");
    }
    const auto reclaimed = ledger_.reclaim_uncommitted(w.id, shared_.control().next.load());
    result_.lost_from_cache += reclaimed.size();
    handover.insert(handover.end(), reclaimed.begin(), reclaimed.end());
  }
  const bool more = shared_.control().next.load() < plan_.items.size() || !handover.empty();
  if (more && !stopping_ && !fatal_) spawn(w.slot, std::move(handover));
}

void Pool::check_timeouts() {
  const std::int64_t now = monotonic_ns();
  for (Worker& w : workers_) {
    if (w.killed || w.eof) continue;
    const Slot& s = shared_.slot(w.slot);
    const std::int64_t started = s.started_ns.load(std::memory_order_acquire);
    if (!started || cfg_.timeout_seconds <= 0) continue;
    const auto phase = static_cast<Phase>(s.phase.load());
    const bool in_pipeline = phase == Phase::pipeline || phase == Phase::dependency;
    const double limit = in_pipeline ? cfg_.timeout_seconds : std::max(cfg_.timeout_seconds, kStartStopLimit);
    if (static_cast<double>(now - started) / 1e9 > limit) {
      ::kill(w.pid, SIGKILL);
      w.killed = true;
    }
  }
}

void Pool::report_progress(bool force) {
  if (!cfg_.progress) return;
  const std::int64_t now = monotonic_ns();
  if (!force && now - last_progress_ < 200'000'000) return;
  last_progress_ = now;
  cfg_.progress(ledger_.progress());
}

PoolResult Pool::run() {
  const unsigned n = static_cast<unsigned>(std::min<std::uint64_t>(cfg_.jobs, plan_.items.size()));
  for (unsigned s = 0; s < n; ++s) spawn(s, {});
  std::vector<pollfd> fds;
  while (!workers_.empty()) {
    if (!stopping_ && ((cfg_.stop && cfg_.stop->load()) || fatal_)) {
      stopping_ = true;
      result_.stopped = !fatal_;
      shared_.control().stop.store(1);
      if (fatal_)
        for (Worker& w : workers_) ::kill(w.pid, SIGKILL);
    }
    fds.clear();
    for (const Worker& w : workers_) fds.push_back(pollfd{w.fd, POLLIN, 0});
    const int r = ::poll(fds.data(), fds.size(), 50);
    if (r < 0 && errno != EINTR) throw_errno("trak-replay", "poll");
    for (std::size_t i = 0; i < fds.size(); ++i)
      if (fds[i].revents) read_from(workers_[i]);
    bool reaped = false;
    for (std::size_t i = workers_.size(); i-- > 0;)
      if (workers_[i].eof) reap(i), reaped = true;
    check_timeouts();
    // Settling scans the outcomes since the oldest unsettled pipeline: ten
    // times a second is often enough for progress and the resume database.
    const std::int64_t now = monotonic_ns();
    if (reaped || now - last_settle_ > 100'000'000) {
      last_settle_ = now;
      ledger_.settle(shared_.control().next.load());
      if (cfg_.done) cfg_.done->flush();
    }
    report_progress(false);
  }
  if (fatal_) throw *fatal_;
  return std::move(result_);
}

}  // namespace

PoolResult run_processes(const Plan& plan, SharedState& shared, Ledger& ledger, const SessionFactory& factory,
                         const PoolConfig& cfg) {
  Pool pool(plan, shared, ledger, factory, cfg);
  return pool.run();
}

}  // namespace libtrace::foz::detail
