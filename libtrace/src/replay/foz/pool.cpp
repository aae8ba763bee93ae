// SPDX-License-Identifier: MIT
// Worker processes: spawn, watch, reap, replace. A worker runs one or more
// threads, each in a slot of the shared state, and reports through its
// socket and the slots; when it dies, its slots name the pipelines in
// flight. The culprit (the one the parent timed out, the one whose thread
// faulted, or the only one) is recorded as crashed or timed out; the others
// go to a fresh worker, which carries on after it. A worker that said
// goodbye is done with: its slots go to a replacement at once,
// and its process is reaped when it is gone (freeing a driver's memory takes
// a while, and need not hold anything up but the end of the run).
#include "replay/foz/pool.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "replay/foz/spawn.hpp"

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
  unsigned slot = 0, slots = 1;  // its threads' slots: slot, slot+1, ...
  int timed_out_slot = -1;       // the slot whose pipeline the parent killed it for
  std::uint32_t id = 0;
  std::string inbuf;
  bool eof = false, hello = false, started = false, cached = false, bye = false, killed = false;
  bool retired = false;  // said goodbye and was settled: only its exit is awaited
  std::int64_t spawned_ns = 0, retired_ns = 0;
  std::uint64_t peak_rss = 0;
  std::vector<std::uint64_t> solo, again;  // WorkerStart's
};

// Where a worker process starts: its first slot and its number of threads.
struct Crew {
  unsigned slot = 0, threads = 1;
};

// `jobs` slots in as few processes of at most `per` threads as hold them,
// the threads spread evenly (10 jobs by 8: 5 and 5, not 8 and 2).
std::vector<Crew> crews(unsigned jobs, unsigned per) {
  const unsigned n = (jobs + per - 1) / per;
  std::vector<Crew> v;
  for (unsigned i = 0, slot = 0; i < n; ++i) {
    const unsigned threads = jobs / n + (i < jobs % n ? 1 : 0);
    v.push_back({slot, threads});
    slot += threads;
  }
  return v;
}

struct Respawn {
  Crew crew;
  std::vector<std::uint64_t> solo, again;
};

}  // namespace

struct ProcessPool::Impl {
  explicit Impl(const PoolConfig& c) : cfg(c) {}
  ~Impl() {
    // Only on an error path: no worker outlives the run, none is left a zombie.
    for (Worker& w : workers) {
      ::kill(w.pid, SIGKILL);
      while (::waitpid(w.pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      ::close(w.fd);
    }
  }

  void spawn(Crew crew, std::vector<std::uint64_t> solo, std::vector<std::uint64_t> again);
  void begin_slot(const Worker& w);
  void send_start(Worker& w);
  void read_from(Worker& w);
  void handle(Worker& w, MsgKind kind, const std::string& body);
  void retire(Worker& w);
  void reap(std::size_t index);
  void settle_death(Worker& w, int status);
  void check_timeouts();
  void report_progress(bool force);
  std::string describe_death(const Worker& w, int status, Phase phase, Tag dep_tag, std::uint64_t dep_hash) const;
  std::size_t active() const {
    return static_cast<std::size_t>(
        std::count_if(workers.begin(), workers.end(), [](const Worker& w) { return !w.retired; }));
  }

  const PoolConfig& cfg;
  // Set by run(); null while prestarted workers wait for the plan.
  const Plan* plan = nullptr;
  SharedState* shared = nullptr;
  Ledger* ledger = nullptr;
  std::vector<Worker> workers;
  std::vector<Respawn> respawn;
  PoolResult result;
  std::uint32_t next_id = 0;
  int start_failures = 0;
  bool stopping = false;
  std::optional<Error> fatal;
  std::int64_t last_progress = 0, last_settle = 0;
};

void ProcessPool::Impl::spawn(Crew crew, std::vector<std::uint64_t> solo, std::vector<std::uint64_t> again) {
  const SpawnedWorker child = spawn_worker(cfg.exe);
  Worker w;
  w.pid = child.pid;
  w.fd = child.fd;
  w.slot = crew.slot;
  w.slots = crew.threads;
  w.id = ++next_id;
  w.solo = std::move(solo);
  w.again = std::move(again);
  w.spawned_ns = monotonic_ns();
  WorkerSetup setup = cfg.setup;
  setup.id = w.id;
  setup.slot = crew.slot;
  setup.threads = crew.threads;
  setup.parent = static_cast<std::int32_t>(::getpid());
  // A worker that cannot take its setup has died already: its end of file
  // says so, and reap() tells why.
  send_frame(w.fd, setup_message(setup));
  if (shared) begin_slot(w);
  workers.push_back(std::move(w));
  ++result.workers_started;
}

// The slot's record of a starting worker, which the timeouts read.
void ProcessPool::Impl::begin_slot(const Worker& w) {
  for (unsigned i = w.slot; i < w.slot + w.slots; ++i) {
    Slot& s = shared->slot(i);
    s.item.store(-1);
    s.crashed.store(0);
    s.phase.store(static_cast<std::uint32_t>(Phase::starting));
    s.started_ns.store(w.spawned_ns);
  }
}

void ProcessPool::Impl::send_start(Worker& w) {
  // Sent only once the worker said hello, while it waits for it: however
  // large, it cannot fill a socket nobody reads.
  WorkerStart start{w.solo, w.again, cfg.invalid_modules ? *cfg.invalid_modules : InvalidModules{}};
  w.started = true;
  send_frame(w.fd, start_message(start), shared->fd());
}

void ProcessPool::Impl::read_from(Worker& w) {
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
  while (!w.retired && next_frame(w.inbuf, kind, body)) handle(w, kind, body);
}

void ProcessPool::Impl::handle(Worker& w, MsgKind kind, const std::string& body) {
  MsgIn in(body);
  switch (kind) {
    case MsgKind::hello:
      w.hello = true;
      start_failures = 0;
      if (!result.device) result.device = read_hello(in);
      if (shared) send_start(w);
      break;
    case MsgKind::issue: {
      const std::uint64_t item = in.u64();
      const auto o = static_cast<Outcome>(in.u8());
      ledger->note_issue(item, o, in.str());
      break;
    }
    case MsgKind::cache:
      for (std::uint32_t n = in.u32(); n > 0 && in.ok(); --n) {
        result.blob_files.push_back(in.str());
        in.u64();
      }
      w.cached = true;
      ledger->commit_worker(w.id);
      break;
    case MsgKind::bye:
      w.bye = true;
      w.peak_rss = in.u64();
      retire(w);
      break;
    case MsgKind::fatal: {
      const auto code = static_cast<Errc>(in.u8());
      std::string where = in.str();
      if (!fatal) fatal.emplace(code, std::move(where), in.str());
      break;
    }
    default:  // not a worker's message: a worker of another build
      if (!fatal) fatal.emplace(Errc::bad_record, "", "a worker sent an unknown message");
      break;
  }
}

std::string ProcessPool::Impl::describe_death(const Worker& w, int status, Phase phase, Tag dep_tag,
                                              std::uint64_t dep_hash) const {
  std::string s;
  if (w.killed && !w.retired)
    s = "no result after " + std::to_string(static_cast<long long>(cfg.timeout_seconds)) + " s: the worker was killed";
  else if (WIFSIGNALED(status))
    s = "the worker died of " + signal_name(WTERMSIG(status));
  else
    s = "the worker exited with status " + std::to_string(WEXITSTATUS(status));
  if (phase == Phase::dependency) s += " while creating " + describe_entry(dep_tag, dep_hash);
  return s;
}

// After goodbye: everything it made is accounted for, its slots are free,
// and a replacement starts if there is work left; its process ends on its
// own.
void ProcessPool::Impl::retire(Worker& w) {
  w.retired = true;
  w.retired_ns = monotonic_ns();
  for (unsigned i = w.slot; i < w.slot + w.slots; ++i) {
    Slot& slot = shared->slot(i);
    slot.item.store(-1);
    slot.started_ns.store(0);
    slot.phase.store(static_cast<std::uint32_t>(Phase::idle));
  }
  const auto pending = [&](const std::vector<std::uint64_t>& v) {
    std::vector<std::uint64_t> left;
    for (std::uint64_t i : v)
      if (shared->outcome_of(i) == Outcome::pending) left.push_back(i);
    return left;
  };
  Respawn next{{w.slot, w.slots}, pending(w.solo), pending(w.again)};
  // Spawned once the messages read are handled: `w` lives in `workers`.
  const bool more = shared->control().next.load() < plan->items.size() || !next.solo.empty() || !next.again.empty();
  if (more && !stopping && !fatal) respawn.push_back(std::move(next));
}

// A worker that died before its goodbye. Of the pipelines its threads had in
// flight, the culprit is the one the parent timed out, the one whose thread
// faulted (the crash handler marked its slot) or the only one. Without one
// (killed from outside, or exit() in a driver), they are all suspects, which
// the replacement makes one at a time. What else it had not finished goes to
// the replacement too.
void ProcessPool::Impl::settle_death(Worker& w, int status) {
  struct InFlight {
    unsigned slot;
    std::size_t item;
  };
  std::vector<InFlight> flying;
  int culprit_slot = -1;
  for (unsigned i = w.slot; i < w.slot + w.slots; ++i) {
    const Slot& slot = shared->slot(i);
    const std::int64_t item = slot.item.load();
    if (item < 0 || shared->outcome_of(static_cast<std::size_t>(item)) != Outcome::pending) continue;
    flying.push_back({i, static_cast<std::size_t>(item)});
    if (slot.crashed.load() && culprit_slot < 0) culprit_slot = static_cast<int>(i);
  }
  // Killed for a timeout: the cause is known, and the others in flight are
  // bystanders even when the slow one finished just before the kill.
  const bool timed_out = w.killed && w.timed_out_slot >= 0;
  if (timed_out)
    culprit_slot = std::any_of(flying.begin(), flying.end(),
                               [&](const InFlight& f) { return static_cast<int>(f.slot) == w.timed_out_slot; })
                       ? w.timed_out_slot
                       : -1;
  else if (culprit_slot < 0 && flying.size() == 1)
    culprit_slot = static_cast<int>(flying.front().slot);
  const bool suspects = culprit_slot < 0 && !timed_out && flying.size() > 1;
  Phase phase = Phase::idle;
  Tag dep_tag{};
  std::uint64_t dep_hash = 0;
  if (culprit_slot >= 0) {
    const Slot& slot = shared->slot(static_cast<unsigned>(culprit_slot));
    phase = static_cast<Phase>(slot.phase.load());
    dep_tag = static_cast<Tag>(slot.dep_tag.load());
    dep_hash = slot.dep_hash.load();
  }
  for (unsigned i = w.slot; i < w.slot + w.slots; ++i) {
    Slot& slot = shared->slot(i);
    slot.item.store(-1);
    slot.crashed.store(0);
    slot.started_ns.store(0);
    slot.phase.store(static_cast<std::uint32_t>(Phase::idle));
  }

  Respawn next{{w.slot, w.slots}, {}, {}};
  const auto hand = [&](std::vector<std::uint64_t>& to, std::uint64_t i) {
    if (shared->outcome_of(i) != Outcome::pending) return;
    if (std::find(next.solo.begin(), next.solo.end(), i) != next.solo.end()) return;
    if (std::find(next.again.begin(), next.again.end(), i) != next.again.end()) return;
    to.push_back(i);
  };
  std::size_t culprit = SIZE_MAX;
  for (const InFlight& f : flying)
    if (static_cast<int>(f.slot) == culprit_slot) culprit = f.item;
  if (!fatal) {
    const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    const std::string why = describe_death(w, status, phase, dep_tag, dep_hash);
    if (culprit != SIZE_MAX) {
      const Outcome o = w.killed ? Outcome::timed_out : Outcome::crashed;
      ledger->note_issue(culprit, o, why, sig);
      shared->finish(culprit, o, w.id);
      if (phase == Phase::dependency && dep_tag == Tag::shader_module) shared->ban(dep_hash);
    } else if (!w.hello) {
      if (++start_failures >= kMaxStartFailures)
        fatal.emplace(Errc::unsupported, "", "workers keep dying while they set up the device (" + why + ")");
    } else if (cfg.warnings && !timed_out) {
      cfg.warnings("", "worker " + std::to_string(w.id) + ": " + why +
                           (suspects ? " with " + std::to_string(flying.size()) +
                                           " pipelines in flight: they are made again, one at a time"
                                     : " outside any pipeline"));
    }
    // Suspects first, alone; the items it was handed and those in flight
    // beside the culprit were never the problem.
    for (const InFlight& f : flying) hand(suspects ? next.solo : next.again, f.item);
    for (std::uint64_t i : w.solo) hand(next.solo, i);
    for (std::uint64_t i : w.again) hand(next.again, i);
    const auto reclaimed = ledger->reclaim_uncommitted(w.id, shared->control().next.load());
    result.lost_from_cache += reclaimed.size();
    for (std::uint64_t i : reclaimed) hand(next.again, i);
  }
  const bool more = shared->control().next.load() < plan->items.size() || !next.solo.empty() || !next.again.empty();
  if (more && !stopping && !fatal) spawn(next.crew, std::move(next.solo), std::move(next.again));
}

void ProcessPool::Impl::reap(std::size_t index) {
  Worker w = std::move(workers[index]);
  workers.erase(workers.begin() + static_cast<std::ptrdiff_t>(index));
  int status = 0;
  rusage ru{};
  while (::wait4(w.pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  ::close(w.fd);
  result.peak_rss_worker =
      std::max({result.peak_rss_worker, w.peak_rss, static_cast<std::uint64_t>(ru.ru_maxrss) * 1024});
  const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!w.retired) {
    settle_death(w, status);
  } else if (!clean && !w.killed && !fatal && cfg.warnings) {
    // Its results were in; a driver that crashes tearing down costs nothing.
    cfg.warnings("", "worker " + std::to_string(w.id) + ": " + describe_death(w, status, Phase::idle, {}, 0) +
                         " after it had handed everything over");
  }
}

void ProcessPool::Impl::check_timeouts() {
  const std::int64_t now = monotonic_ns();
  for (Worker& w : workers) {
    if (w.killed || w.eof) continue;
    if (w.retired) {  // a driver stuck tearing down must not stall the run's end
      if (static_cast<double>(now - w.retired_ns) / 1e9 > kStartStopLimit) ::kill(w.pid, SIGKILL), w.killed = true;
      continue;
    }
    if (cfg.timeout_seconds <= 0) continue;
    for (unsigned i = w.slot; i < w.slot + w.slots && !w.killed; ++i) {
      const Slot& s = shared->slot(i);
      const std::int64_t started = s.started_ns.load(std::memory_order_acquire);
      if (!started) continue;
      const auto phase = static_cast<Phase>(s.phase.load());
      const bool in_pipeline = phase == Phase::pipeline || phase == Phase::dependency;
      const double limit = in_pipeline ? cfg.timeout_seconds : std::max(cfg.timeout_seconds, kStartStopLimit);
      if (static_cast<double>(now - started) / 1e9 > limit) {
        ::kill(w.pid, SIGKILL);
        w.killed = true;
        w.timed_out_slot = static_cast<int>(i);
      }
    }
  }
}

void ProcessPool::Impl::report_progress(bool force) {
  if (!cfg.progress) return;
  const std::int64_t now = monotonic_ns();
  if (!force && now - last_progress < 200'000'000) return;
  last_progress = now;
  cfg.progress(ledger->progress());
}

ProcessPool::ProcessPool(const PoolConfig& cfg) : impl_(std::make_unique<Impl>(cfg)) {
  if (cfg.exe.empty()) throw Error(Errc::usage, "", "worker processes need a worker executable (or run in-process)");
}

ProcessPool::~ProcessPool() = default;

void ProcessPool::prestart() {
  if (impl_->workers.empty() && impl_->cfg.jobs > 0)
    impl_->spawn(crews(impl_->cfg.jobs, impl_->cfg.threads_per_worker).front(), {}, {});
}

PoolResult ProcessPool::run(const Plan& plan, SharedState& shared, Ledger& ledger) {
  if (shared.fd() < 0) throw Error(Errc::usage, "", "worker processes need a shared state between processes");
  Impl& p = *impl_;
  p.plan = &plan;
  p.shared = &shared;
  p.ledger = &ledger;
  // A prestarted worker runs even with nothing to do: its hello names the
  // device.
  for (Worker& w : p.workers) {
    p.begin_slot(w);
    if (w.hello && !w.started) p.send_start(w);
  }
  // Only as many threads as there are pipelines: the crews that cover them.
  const unsigned n = static_cast<unsigned>(std::min<std::uint64_t>(p.cfg.jobs, plan.items.size()));
  for (const Crew& c : crews(p.cfg.jobs, p.cfg.threads_per_worker))
    if (c.slot < n && !(c.slot == 0 && !p.workers.empty())) p.spawn({c.slot, std::min(c.threads, n - c.slot)}, {}, {});
  std::vector<pollfd> fds;
  while (!p.workers.empty()) {
    if (!p.stopping && ((p.cfg.stop && p.cfg.stop->load()) || p.fatal)) {
      p.stopping = true;
      p.result.stopped = !p.fatal;
      shared.control().stop.store(1);
      if (p.fatal)
        for (Worker& w : p.workers) ::kill(w.pid, SIGKILL), w.killed = true;
    }
    fds.clear();
    for (const Worker& w : p.workers) fds.push_back(pollfd{w.fd, POLLIN, 0});
    const int r = ::poll(fds.data(), fds.size(), 50);
    if (r < 0 && errno != EINTR) throw_errno("", "poll");
    for (std::size_t i = 0; i < fds.size(); ++i)
      if (fds[i].revents) p.read_from(p.workers[i]);
    for (Respawn& next : p.respawn) p.spawn(next.crew, std::move(next.solo), std::move(next.again));
    p.respawn.clear();
    bool reaped = false;
    for (std::size_t i = p.workers.size(); i-- > 0;)
      if (p.workers[i].eof) p.reap(i), reaped = true;
    p.check_timeouts();
    // Settling scans the outcomes since the oldest unsettled pipeline: ten
    // times a second is often enough for progress and the resume database;
    // and at once when the last worker is done.
    const std::int64_t now = monotonic_ns();
    if (reaped || p.active() == 0 || now - p.last_settle > 100'000'000) {
      p.last_settle = now;
      ledger.settle(shared.control().next.load());
      if (p.cfg.done) p.cfg.done->flush();
    }
    p.report_progress(false);
  }
  if (p.fatal) throw *p.fatal;
  return std::move(p.result);
}

}  // namespace libtrace::foz::detail
