// SPDX-License-Identifier: MIT
#include "capture/trace_stream.hpp"

#include <fcntl.h>
#include <snappy.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>

#include "capture/names.hpp"
#include "layer/layer.hpp"
#include "libtrace/core/error.hpp"
#include "registry/registry.hpp"

namespace libtrace::capture::trace {

namespace {

// apitrace's chunk size; a chunk is handed to the helper thread when full.
constexpr std::size_t kChunk = 1 << 20;
// Full chunks waiting for the helper: the application waits beyond that, so
// memory stays bounded when the disk is slower than the application.
constexpr std::size_t kQueueMax = 8;
// What a process killed without warning can lose at most.
constexpr auto kFlushEvery = std::chrono::milliseconds(200);
// Ids beyond the registry's, for trak's own calls and structs.
constexpr std::uint32_t kExtraIds = 64;

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
  if (s_.is_defined(k, id)) return false;
  if (locked_) {
    s_.set_defined(k, id);
  } else {
    for (const auto& c : claims_)
      if (c.first == k && c.second == id) return false;  // written earlier in this event
    claims_.emplace_back(k, id);
  }
  return true;
}

Stream::Stream(const std::string& path, const std::map<std::string, std::string>& properties) : path_(path) {
  // Written in place, not to a temporary: a capture whose application is
  // killed must still be there, readable up to the kill.
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw Error(Errc::io, path, std::strerror(errno));
  const std::size_t sizes[4] = {registry::commands().size(), registry::structs().size(), registry::enums().size(),
                                registry::enums().size()};
  for (int k = 0; k < 4; ++k) defined_[k] = std::vector<std::atomic<std::uint8_t>>(sizes[k] + kExtraIds);
  Event header(*this);
  header.uint(6);  // version: the grammar
  header.uint(6);  // semantic version
  for (const auto& [key, value] : properties) {
    header.str(key);
    header.str(value);
  }
  header.str("");
  chunk_ = std::move(header.buf_);
  if (::write(fd_, "at", 2) != 2) {
    const int e = errno;
    ::close(fd_);
    throw Error(Errc::io, path, std::strerror(e));
  }
  thread_ = std::thread([this] { run(); });
}

Stream::~Stream() { finish(); }

namespace {

std::atomic<Stream*> g_stream{nullptr};

// The name this process writes: TRAK_CAPTURE_TRACE for the first process
// that traces, NAME.<pid>.trace for others of the same run.
std::string own_path(const std::string& asked) {
  const std::string owner = layer::env(kEnvTraceOwner);
  const std::string pid = std::to_string(::getpid());
  if (owner.empty() || owner == pid) {
    ::setenv(kEnvTraceOwner, pid.c_str(), 1);  // for the processes this one starts
    return asked;
  }
  const std::string ext = ".trace";
  const bool has = asked.size() > ext.size() && asked.compare(asked.size() - ext.size(), ext.size(), ext) == 0;
  return (has ? asked.substr(0, asked.size() - ext.size()) : asked) + "." + pid + ext;
}

void report_trace(const std::string& path) {
  const std::string report = layer::env(kEnvReport);
  if (report.empty()) return;
  const int fd = ::open(report.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  const std::string line = "trace:" + path + "\n";
  if (::write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    layer::log_once(kLayerName, "cannot report the trace", report);
  ::close(fd);
}

}  // namespace

Stream* Stream::get() {
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string asked = layer::env(kEnvTrace);
    if (asked.empty()) return;
    try {
      const std::string path = own_path(asked);
      g_stream.store(new Stream(path, {{"application", self_command()}, {"process.id", std::to_string(::getpid())}}));
      report_trace(path);
    } catch (const std::exception& e) {
      layer::log_once(kLayerName, "cannot create the trace; nothing is traced", e.what());
    }
  });
  return g_stream.load(std::memory_order_acquire);
}

Stream* Stream::peek() { return g_stream.load(std::memory_order_acquire); }

void Stream::forget_in_child() { g_stream.store(nullptr); }

bool Stream::is_defined(Sig k, std::uint32_t id) const {
  const auto& v = defined_[static_cast<int>(k)];
  return id < v.size() && v[id].load(std::memory_order_acquire);
}

void Stream::set_defined(Sig k, std::uint32_t id) {
  auto& v = defined_[static_cast<int>(k)];
  if (id < v.size()) v[id].store(1, std::memory_order_release);
}

std::uint32_t Stream::thread_id() {
  thread_local std::uint32_t id = threads_.fetch_add(1);
  return id;
}

std::uint64_t Stream::append_locked(Event& e, Kind kind) {
  if (finished_) return 0;
  const std::uint64_t no = kind == Kind::leave ? 0 : next_call_++;
  append_locked(e.buf_);
  if (kind == Kind::whole) {
    Event tail(*this);
    tail.byte(0x01);  // leave
    tail.uint(no);
    tail.byte(0x00);
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
  queue_.push_back(std::move(chunk_));
  chunk_.clear();
  wake_.notify_one();
}

void Stream::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    if (queue_.empty() && !stop_) {
      wake_.wait_for(lock, kFlushEvery);
      if (queue_.empty() && !chunk_.empty()) {
        queue_.push_back(std::move(chunk_));
        chunk_.clear();
      }
    }
    if (queue_.empty()) {
      if (stop_) return;
      continue;
    }
    std::string chunk = std::move(queue_.front());
    queue_.pop_front();
    space_.notify_all();
    lock.unlock();
    write_chunk(chunk);
    lock.lock();
  }
}

void Stream::write_chunk(const std::string& chunk) {
  if (write_failed_ || chunk.empty()) return;
  std::string out(4 + snappy::MaxCompressedLength(chunk.size()), '\0');
  std::size_t n = 0;
  snappy::RawCompress(chunk.data(), chunk.size(), out.data() + 4, &n);
  const auto len = static_cast<std::uint32_t>(n);
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>(len >> (8 * i));
  out.resize(4 + n);
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t w = ::write(fd_, out.data() + done, out.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      layer::log_once(kLayerName, "cannot write the trace; the rest of it is lost",
                      path_ + ": " + std::strerror(w < 0 ? errno : ENOSPC));
      write_failed_ = true;
      return;
    }
    done += static_cast<std::size_t>(w);
  }
}

void Stream::finish() {
  {
    std::unique_lock lock(mu_);
    if (finished_) return;
    finished_ = true;
    if (!chunk_.empty()) {
      queue_.push_back(std::move(chunk_));
      chunk_.clear();
    }
    stop_ = true;
    wake_.notify_one();
    space_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace libtrace::capture::trace
