// SPDX-License-Identifier: MIT
// Worker processes: spawn, watch, reap, replace. A worker reports through its
// socket and the shared state; when it dies, the slot's `item` names the
// pipeline it was creating, which is recorded as crashed (or timed out when
// the parent killed it), and a fresh worker carries on after it.
#include "foz_replay_pool.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "foz_replay_spawn.hpp"

namespace libtrace::foz::detail {

std::string signal_name(int sig) {
  if (const char* abbrev = ::sigabbrev_np(sig)) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(sig);
}

namespace {

constexpr double kStartStopLimit = 120;  // s: device creation, cache saving
constexpr int kMaxStartFailures = 3;

// ---- In the parent ------------------------------------------------------------------

struct Worker {
  pid_t pid = -1;
  int fd = -1;
  unsigned slot = 0;
  std::uint32_t id = 0;
  std::string inbuf;
  bool eof = false, hello = false, started = false, cached = false, bye = false, killed = false;
  std::uint64_t peak_rss = 0;
  std::vector<std::uint64_t> first;
};

class Pool {
 public:
  Pool(const Plan& plan, SharedState& shared, Ledger& ledger, const PoolConfig& cfg)
      : plan_(plan), shared_(shared), ledger_(ledger), cfg_(cfg) {}
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
  Slot& s = shared_.slot(slot);
  s.item.store(-1);
  s.phase.store(static_cast<std::uint32_t>(Phase::starting));
  s.started_ns.store(monotonic_ns());
  const SpawnedWorker child = spawn_worker(cfg_.exe);
  Worker w;
  w.pid = child.pid;
  w.fd = child.fd;
  w.slot = slot;
  w.id = ++next_id_;
  w.first = std::move(first);
  WorkerSetup setup = cfg_.setup;
  setup.id = w.id;
  setup.slot = slot;
  setup.parent = static_cast<std::int32_t>(::getpid());
  // A worker that cannot take its setup has died already: its end of file
  // says so, and reap() tells why.
  send_frame(w.fd, setup_message(setup));
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
    case MsgKind::hello: {
      w.hello = true;
      start_failures_ = 0;
      if (!result_.device) result_.device = read_hello(in);
      // Sent only now, while the worker waits for it: however large, it
      // cannot fill a socket nobody reads.
      static const InvalidModules kNone;
      w.started = true;
      send_frame(w.fd, start_message(w.first, cfg_.invalid_modules ? *cfg_.invalid_modules : kNone), shared_.fd());
      break;
    }
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
    default:  // not a worker's message: a worker of another build
      if (!fatal_) fatal_.emplace(Errc::bad_record, "trak-replay", "a worker sent an unknown message");
      break;
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

PoolResult run_processes(const Plan& plan, SharedState& shared, Ledger& ledger, const PoolConfig& cfg) {
  if (shared.fd() < 0) throw Error(Errc::usage, "trak-replay", "worker processes need a shared state between processes");
  if (cfg.exe.empty())
    throw Error(Errc::usage, "trak-replay", "worker processes need a worker executable (or run in-process)");
  Pool pool(plan, shared, ledger, cfg);
  return pool.run();
}

}  // namespace libtrace::foz::detail
