// SPDX-License-Identifier: MIT
#include "capture/trace/stream.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <fstream>
#include <new>

#include "apitrace/grammar.hpp"
#include "capture/launcher_report.hpp"
#include "capture/names.hpp"
#include "capture/trace/trim.hpp"
#include "core/codec_internal.hpp"
#include "layer/layer.hpp"
#include "libtrace/apitrace/model.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/vktrace/dialect.hpp"
#include "registry/registry.hpp"

namespace libtrace::capture::trace {

namespace {

// apitrace's chunk size; a chunk is handed to the helper thread when full.
constexpr std::size_t kChunk = kSnappyChunk;
// Full chunks waiting for the helper: the application waits beyond that, so
// memory stays bounded when the disk is slower than the application.
constexpr std::size_t kQueueMax = 8;
// What a process killed without warning can lose at most.
constexpr auto kFlushEvery = std::chrono::milliseconds(200);
// How often a submit or present may wait for what is pending to be written:
// the application waits for a compression each time (about 1 ms for 100 ms
// of glxgears on zink), and every chunk compresses afresh.
constexpr auto kNudgeEvery = std::chrono::milliseconds(100);

// Ids beyond the registry's, for trak's own calls and structs.
constexpr std::uint32_t kExtraIds = 64;

// Signature definitions of kept events, once per process: a definition is
// the same bytes wherever it stands (names from the registry), and an enum's
// (VkFormat's: 8 KB) written into every kept call that uses it would cost the
// application more than the whole capture does.
class Definitions {
 public:
  Definitions() {
    const std::size_t sizes[4] = {registry::commands().size(), registry::structs().size(), registry::enums().size(),
                                  registry::enums().size()};
    for (int k = 0; k < 4; ++k) {
      have_[k] = std::vector<std::atomic<std::uint8_t>>(sizes[k] + kExtraIds);
      bytes_[k].resize(sizes[k] + kExtraIds);
    }
  }
  bool has(Sig k, std::uint32_t id) const {
    const auto& v = have_[static_cast<int>(k)];
    return id < v.size() && v[id].load(std::memory_order_acquire);
  }
  // Set once, never changed after: readers need no lock.
  void put(Sig k, std::uint32_t id, std::string_view def) {
    auto& v = have_[static_cast<int>(k)];
    if (id >= v.size()) return;
    const std::lock_guard lock(mu_);
    if (v[id].load(std::memory_order_relaxed)) return;
    bytes_[static_cast<int>(k)][id] = std::string(def);
    v[id].store(1, std::memory_order_release);
  }
  std::string_view get(Sig k, std::uint32_t id) const { return bytes_[static_cast<int>(k)][id]; }

 private:
  std::mutex mu_;
  std::vector<std::atomic<std::uint8_t>> have_[4];
  std::vector<std::string> bytes_[4];
};

Definitions& definitions() {
  static Definitions* d = new Definitions;  // never destroyed: hooks may run while the process exits
  return *d;
}

std::atomic<std::uint32_t> g_threads{0};
std::atomic<std::uint32_t> g_forks{0};  // a child of fork() numbers its threads anew
std::atomic<std::uint64_t> g_frames{0};

std::string self_command() {
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  for (char& c : all)
    if (c == '\0') c = ' ';
  while (!all.empty() && all.back() == ' ') all.pop_back();
  return all;
}

}  // namespace

bool Event::define(Sig k, std::uint32_t id) {
  if (!s_) {
    // Kept: where the definition stands, its bytes in definitions().
    for (const auto& d : spans_)
      if (d.kind == k && d.id == id) return false;  // marked earlier in this event
    const auto at = static_cast<std::uint32_t>(buf_.size());
    spans_.push_back({k, id, at});
    return !definitions().has(k, id);
  }
  if (s_->is_defined(k, id)) return false;
  if (locked_) {
    s_->set_defined(k, id);
  } else {
    for (const auto& c : claims_)
      if (c.first == k && c.second == id) return false;  // written earlier in this event
    claims_.emplace_back(k, id);
  }
  return true;
}

void Event::end_define() {
  if (s_) return;
  DefinitionSpan& d = spans_.back();
  definitions().put(d.kind, d.id, std::string_view(buf_).substr(d.begin));
  buf_.resize(d.begin);
}

void Event::splice(std::string_view bytes, std::span<const DefinitionSpan> spans) {
  std::size_t at = 0;
  for (const DefinitionSpan& d : spans) {
    buf_.append(bytes.substr(at, d.begin - at));
    if (define(d.kind, d.id)) buf_.append(definitions().get(d.kind, d.id));
    at = d.begin;
  }
  buf_.append(bytes.substr(at));
}

Stream::Stream(const std::string& path, const std::map<std::string, std::string>& properties, Container container,
               int level)
    : Stream(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), path, properties, container, level) {
}

// zstd at level 3 by default, zstd's own: with each chunk compressed against
// the frame's earlier ones it is 6 % smaller than level 1 (vkcube), and the
// helper thread still keeps up with glxgears on zink (a submit may wait for
// it); trak-repack --codec zstd --level 19 makes the archive copy.
Stream::Stream(int fd, const std::string& path, const std::map<std::string, std::string>& properties,
               Container container, int level)
    : path_(path), fd_(fd), framer_(container, level < 0 ? 3 : level) {
  // Written in place, not to a temporary: a capture whose application is
  // killed must still be there, readable up to the kill.
  if (fd_ < 0) throw Error(Errc::io, path, std::strerror(errno));
  const std::size_t sizes[4] = {registry::commands().size(), registry::structs().size(), registry::enums().size(),
                                registry::enums().size()};
  for (int k = 0; k < 4; ++k) defined_[k] = std::vector<std::atomic<std::uint8_t>>(sizes[k] + kExtraIds);
  Event header(*this);
  header.uint(apitrace::kTraceVersion);
  header.uint(apitrace::kTraceVersion);  // semantic version
  for (const auto& [key, value] : properties) {
    header.str(key);
    header.str(value);
  }
  header.str("");
  chunk_ = std::move(header.buf_);
  const std::string_view opening = framer_.opening();
  if (!opening.empty()) {
    if (::write(fd_, opening.data(), opening.size()) != static_cast<ssize_t>(opening.size())) {
      const int e = errno;
      ::close(fd_);
      throw Error(Errc::io, path, std::strerror(e ? e : ENOSPC));
    }
    written_ = opening.size();
  }
  thread_ = std::thread([this] { run(); });
}

Stream::~Stream() { finish(); }

namespace {

std::atomic<Stream*> g_stream{nullptr};

// The file this process writes, open and locked for as long as it lives.
// Processes of one command (one after the other, or at once) and runs that
// were given the same name must never write into one another's file: a
// process takes NAME when it creates it, or finds it empty (trak-capture
// empties it before the command starts) and unlocked; any other writes
// NAME.<pid>.trace (NAME.<pid>-2.trace, ... when that is taken), created
// anew. Nothing another process wrote is ever truncated.
std::pair<int, std::string> claim_file(const std::string& asked) {
  int fd = ::open(asked.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(Errc::io, asked, std::strerror(errno));
  struct stat st {};
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
    return {fd, asked};
  ::close(fd);
  const std::string ext = ".trace";
  const bool has = asked.size() > ext.size() && asked.compare(asked.size() - ext.size(), ext.size(), ext) == 0;
  const std::string stem =
      (has ? asked.substr(0, asked.size() - ext.size()) : asked) + "." + std::to_string(::getpid());
  for (int n = 1; n < 1000; ++n) {
    const std::string path = stem + (n == 1 ? "" : "-" + std::to_string(n)) + ext;
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ::flock(fd, LOCK_EX | LOCK_NB);
      return {fd, path};
    }
    if (errno != EEXIST) throw Error(Errc::io, path, std::strerror(errno));
  }
  throw Error(Errc::io, stem + ext, "every name for this process is taken");
}

}  // namespace

namespace {

// Whether this process made its stream (or tried to): a forked child starts
// over, and makes one of its own when it first traces.
std::mutex g_make_mu;
std::atomic<bool> g_made{false};

std::map<std::string, std::string> properties() {
  return {{"application", self_command()}, {"process.id", std::to_string(::getpid())}};
}

Container container_asked() {
  const std::string codec = layer::env(kEnvTraceCodec);
  if (!codec.empty() && codec != "snappy" && codec != "zstd")
    layer::log_once(kLayerName, "unknown " + std::string(kEnvTraceCodec) + " (snappy or zstd): snappy it is", codec);
  return codec == "zstd" ? Container::zstd : Container::snappy;
}

// zstd's level, 1 to 19; -1 for the default.
int level_asked() {
  const std::string text = layer::env(kEnvTraceLevel);
  if (text.empty()) return -1;
  int level = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), level);
  if (ec == std::errc() && end == text.data() + text.size() && level >= 1 && level <= 19) return level;
  layer::log_once(kLayerName, "unknown " + std::string(kEnvTraceLevel) + " (1 to 19): 3 it is", text);
  return -1;
}

}  // namespace

Stream* Stream::get() {
  if (Stream* s = g_stream.load(std::memory_order_acquire)) return s;
  if (g_made.load(std::memory_order_acquire)) return nullptr;
  const std::lock_guard lock(g_make_mu);
  if (g_made) return g_stream.load(std::memory_order_acquire);
  g_made = true;
  const std::string asked = layer::env(kEnvTrace);
  // A trimmed capture's ranges make their own streams.
  if (asked.empty() || trim_asked()) return g_stream.load(std::memory_order_acquire);
  try {
    const auto [fd, path] = claim_file(asked);
    if (path != asked) layer::log(kLayerName, asked + " is another process's capture: this one writes " + path);
    g_stream.store(new Stream(fd, path, properties(), container_asked(), level_asked()), std::memory_order_release);
    tell_launcher(kReportTrace, path);
  } catch (const std::exception& e) {
    layer::log_once(kLayerName, "cannot create the trace; nothing is traced", e.what());
    tell_launcher(kReportProblem, std::string("cannot create the trace: ") + e.what());
  }
  return g_stream.load(std::memory_order_acquire);
}

Stream* Stream::peek() { return g_stream.load(std::memory_order_acquire); }

Stream* Stream::open_range(const std::string& asked, std::uint64_t first_frame) {
  const auto [fd, path] = claim_file(asked);
  if (path != asked) layer::log(kLayerName, asked + " is another process's capture: this one writes " + path);
  auto props = properties();
  props[vktrace::kFirstFrameProperty] = std::to_string(first_frame);
  auto* s = new Stream(fd, path, props, container_asked(), level_asked());
  g_stream.store(s, std::memory_order_release);
  tell_launcher(kReportTrace, path);
  return s;
}

void Stream::close_range() {
  // Left allocated: a hook on another thread may still hold it (what it
  // appends now is dropped).
  if (Stream* s = g_stream.exchange(nullptr, std::memory_order_acq_rel)) s->finish();
}

void Stream::forget_in_child() {
  // The parent's stream (its helper thread stayed behind) is not the
  // child's; the lock may have been copied held.
  g_stream.store(nullptr);
  new (&g_make_mu) std::mutex;
  g_made = false;
  g_threads.store(0);
  g_frames.store(0);
  g_forks.fetch_add(1, std::memory_order_release);
}

bool Stream::is_defined(Sig k, std::uint32_t id) const {
  const auto& v = defined_[static_cast<int>(k)];
  return id < v.size() && v[id].load(std::memory_order_acquire);
}

void Stream::set_defined(Sig k, std::uint32_t id) {
  auto& v = defined_[static_cast<int>(k)];
  if (id < v.size()) v[id].store(1, std::memory_order_release);
}

std::uint32_t Stream::thread_id() {
  thread_local std::uint32_t of = UINT32_MAX;
  thread_local std::uint32_t id = 0;
  if (const std::uint32_t now = g_forks.load(std::memory_order_acquire); of != now) {
    of = now;
    id = g_threads.fetch_add(1);
  }
  return id;
}

std::uint64_t Stream::next_frame() { return g_frames.fetch_add(1) + 1; }
std::uint64_t Stream::frames_so_far() { return g_frames.load(); }

std::uint64_t Stream::append_locked(Event& e, Kind kind) {
  if (finished_) return 0;
  const std::uint64_t no = kind == Kind::leave ? 0 : next_call_++;
  append_locked(e.buf_);
  if (kind == Kind::whole) {
    Event tail(*this);
    tail.byte(apitrace::grammar::kLeave);
    tail.uint(no);
    tail.byte(apitrace::grammar::kCallEnd);
    append_locked(tail.buf_);
  }
  return no;
}

void Stream::append_locked(std::string_view bytes) {
  // apitrace reads a chunk into a buffer of kChunk bytes: no chunk may hold
  // more. An event that does not fit starts the next chunk, so that what
  // reaches the file ends with a whole event (a process may be killed at
  // any time); only an event larger than a chunk (a texture's update) is
  // spread over several.
  if (!chunk_.empty() && chunk_.size() + bytes.size() > kChunk) hand_over_locked();
  while (!bytes.empty()) {
    const std::size_t n = std::min(bytes.size(), kChunk - chunk_.size());
    chunk_.append(bytes.substr(0, n));
    bytes.remove_prefix(n);
    if (chunk_.size() >= kChunk) hand_over_locked();
  }
}

void Stream::wait_for_space_locked(std::unique_lock<std::mutex>& lock) {
  space_.wait(lock, [&] { return queue_.size() < kQueueMax || stop_; });
}

void Stream::hand_over_locked() {
  ++handed_;
  queue_.push_back(std::move(chunk_));
  chunk_.clear();
  wake_.notify_one();
}

void Stream::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    if (queue_.empty() && !stop_) {
      wake_.wait_for(lock, kFlushEvery);
      if (queue_.empty() && !chunk_.empty()) hand_over_locked();
    }
    if (queue_.empty()) {
      if (stop_) return;
      continue;
    }
    std::string chunk = std::move(queue_.front());
    queue_.pop_front();
    space_.notify_all();
    ++writing_;
    lock.unlock();
    write_chunk(chunk);
    last_write_.store(std::chrono::steady_clock::now().time_since_epoch().count(), std::memory_order_relaxed);
    lock.lock();
    --writing_;
    ++done_;
    space_.notify_all();
  }
}

void Stream::nudge() {
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  if (now - std::chrono::steady_clock::duration(last_write_.load(std::memory_order_relaxed)) < kNudgeEvery) return;
  std::unique_lock lock(mu_);
  if (chunk_.empty() || finished_) return;
  hand_over_locked();
  const std::uint64_t mine = handed_;
  space_.wait(lock, [&] { return done_ >= mine || write_failed_ || stop_; });
}

void Stream::flush_before_dying(std::chrono::milliseconds limit) {
  // The thread that died may hold the lock (it was appending): then nothing
  // can be added safely, and what the helper has is written all the same.
  const auto deadline = std::chrono::steady_clock::now() + limit;
  auto try_lock = [&](std::unique_lock<std::mutex>& lock) {
    while (!lock.try_lock()) {
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
  };
  std::unique_lock lock(mu_, std::defer_lock);
  if (!try_lock(lock)) return;
  if (!chunk_.empty()) hand_over_locked();
  wake_.notify_one();
  while (!queue_.empty() || writing_ > 0) {
    lock.unlock();
    if (std::chrono::steady_clock::now() >= deadline) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (!try_lock(lock)) return;
  }
}

void Stream::write_chunk(const std::string& chunk) {
  if (write_failed_ || chunk.empty()) return;
  std::string out;
  try {
    framer_.frame(chunk, out);
  } catch (const std::exception& e) {
    layer::log_once(kLayerName, "cannot compress the trace; the rest of it is lost", e.what());
    write_failed_ = true;
    return;
  }
  write_all(out);
  if (!write_failed_) framer_.wrote(out.size(), chunk.size());
}

// Whole or not at all: a torn chunk or frame is cut off again.
void Stream::write_all(const std::string& out) {
  if (write_failed_) return;
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t w = ::write(fd_, out.data() + done, out.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      // A torn chunk would make every reader stop with an error on what is
      // a capture that ended early: the file is cut back to its last whole
      // chunk, which readers take for the end of the stream.
      const int err = w < 0 ? errno : ENOSPC;
      const bool cut = ::ftruncate(fd_, static_cast<off_t>(written_)) == 0;
      const std::string why =
          path_ + ": " + std::strerror(err) +
          (cut ? "; the trace ends at the last whole chunk (byte " + std::to_string(written_) + ")" : "");
      layer::log_once(kLayerName, "cannot write the trace; the rest of it is lost", why);
      tell_launcher(kReportProblem, "cannot write the trace, the rest of it is lost: " + why);
      write_failed_ = true;
      return;
    }
    done += static_cast<std::size_t>(w);
  }
  written_ += out.size();
}

void Stream::finish() {
  {
    std::unique_lock lock(mu_);
    if (finished_) return;
    finished_ = true;
    if (!chunk_.empty()) hand_over_locked();
    stop_ = true;
    wake_.notify_one();
    space_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  write_all(framer_.closing());
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace libtrace::capture::trace
