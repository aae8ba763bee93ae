// SPDX-License-Identifier: MIT
#include "capture/foz_recorder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <new>

#include "capture/names.hpp"
#include "layer/layer.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/core/io.hpp"

namespace libtrace::capture {

namespace {

// Fossilize's layer: objects zlib level 1 with a CRC, links stored with one.
constexpr foz::EncodeOptions kObjectCoding{foz::PayloadFormat::zlib, 1, true};
constexpr foz::EncodeOptions kLinkCoding{foz::PayloadFormat::none, 1, true};

void report_archive(const std::string& report, const std::string& path) {
  if (report.empty()) return;
  // One write of one line with O_APPEND: lines of several processes never mix.
  const int fd = ::open(report.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  const std::string line = path + "\n";
  try {
    write_all(fd, line.data(), line.size(), report);
  } catch (const Error&) {
  }
  ::close(fd);
}

}  // namespace

FozRecorder::FozRecorder(RecorderOptions opt, const foz::Object& application)
    : opt_(std::move(opt)), app_hash_(application.hash) {
  std::string payload = foz::serialize_payload(application, "application info");
  keys_[0].insert(app_hash_);
  history_.push_back({foz::Tag::application_info, app_hash_, std::move(payload)});
  // Fossilize writes the application info when the device is created, even
  // for an application that then creates nothing.
  const std::lock_guard lock(mu_);
  start_locked();
}

FozRecorder::~FozRecorder() { stop(); }

bool FozRecorder::contains(foz::Tag tag, foz::Hash hash) const {
  const std::lock_guard lock(mu_);
  return keys_[static_cast<std::size_t>(tag)].count(hash) != 0;
}

bool FozRecorder::add(foz::Tag tag, foz::Hash hash, std::string payload) {
  {
    const std::lock_guard lock(mu_);
    if (!keys_[static_cast<std::size_t>(tag)].insert(hash).second) return false;
    history_.push_back({tag, hash, std::move(payload)});
    start_locked();
  }
  wake_.notify_one();
  return true;
}

void FozRecorder::start_locked() {
  if (thread_ || failed_) return;
  stop_ = false;
  thread_ = std::make_unique<std::thread>([this] { run(); });
}

void FozRecorder::drain() {
  std::unique_lock lock(mu_);
  const std::size_t target = history_.size();
  drained_.wait(lock, [&] { return !thread_ || failed_ || written_ >= target; });
}

void FozRecorder::stop() {
  std::unique_ptr<std::thread> t;
  {
    const std::lock_guard lock(mu_);
    stop_ = true;
    t = std::move(thread_);
  }
  wake_.notify_all();
  if (t && t->joinable()) t->join();
  drained_.notify_all();
}

void FozRecorder::run() {
  for (;;) {
    {
      std::unique_lock lock(mu_);
      wake_.wait(lock, [&] { return stop_ || failed_ || written_ < history_.size(); });
      if (failed_ || (stop_ && written_ >= history_.size())) break;
    }
    {
      const std::lock_guard wl(write_mu_);
      write_pending();
    }
    drained_.notify_all();
  }
  drained_.notify_all();
}

void FozRecorder::write_pending() {
  std::vector<const Stored*> batch;
  {
    // Deque elements stay where they are while others are appended: the
    // pointers are taken under the lock, the bytes written outside it.
    const std::lock_guard lock(mu_);
    for (std::size_t i = written_; i < history_.size(); ++i) batch.push_back(&history_[i]);
  }
  if (batch.empty() || failed_) return;
  try {
    for (const Stored* s : batch) write_one(*s);
    writer_->flush();
  } catch (const std::exception& e) {
    failed_ = true;
    layer::log_once(kLayerName, "stopped writing " + (writer_ ? writer_->path() : opt_.base), e.what());
  }
  const std::lock_guard lock(mu_);
  written_ += batch.size();
}

void FozRecorder::write_one(const Stored& s) {
  if (!writer_) {
    writer_ = foz::ArchiveWriter::create_numbered(opt_.base + "." + foz::hash_hex(app_hash_));
    report_archive(opt_.report, writer_->path());
  }
  // Fossilize writes an object's link first, then the object.
  if (s.tag != foz::Tag::application_info) {
    foz::Object link;
    link.tag = foz::Tag::application_blob_link;
    link.link = {app_hash_, s.tag, s.hash};
    const foz::Hash link_hash = foz::compute_hash(link, {}, "link");
    const std::string payload = foz::serialize_payload(link, "link");
    writer_->write(foz::Tag::application_blob_link, link_hash,
                   {reinterpret_cast<const std::uint8_t*>(payload.data()), payload.size()}, kLinkCoding);
  }
  const auto* p = reinterpret_cast<const std::uint8_t*>(s.payload.data());
  writer_->write(s.tag, s.hash, {p, s.payload.size()}, kObjectCoding);
}

void FozRecorder::write_before_dying(const std::vector<PendingEntry>& last, std::chrono::milliseconds budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  if (!write_mu_.try_lock_until(deadline)) return;
  // The lock of the queue is held only for moments, unless by this very
  // thread when it died: then give up rather than wait forever.
  bool locked = false;
  while (!(locked = mu_.try_lock()) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (locked) {
    for (const PendingEntry& e : last)
      if (keys_[static_cast<std::size_t>(e.tag)].insert(e.hash).second) history_.push_back({e.tag, e.hash, e.payload});
    mu_.unlock();
    write_pending();
  }
  write_mu_.unlock();
}

void FozRecorder::keep_render_pass(foz::Hash hash, const std::string& payload) {
  const std::lock_guard lock(rp_mu_);
  if (render_passes_.count(hash)) return;
  render_passes_.emplace(hash, foz::parse_payload(payload, rp_arena_, "render pass"));
}

const foz::Object* FozRecorder::render_pass(foz::Hash hash) const {
  const std::lock_guard lock(rp_mu_);
  const auto it = render_passes_.find(hash);
  return it == render_passes_.end() ? nullptr : &it->second;
}

void FozRecorder::before_fork() {
  write_mu_.lock();
  mu_.lock();
  rp_mu_.lock();
}

void FozRecorder::after_fork_in_parent() {
  rp_mu_.unlock();
  mu_.unlock();
  write_mu_.unlock();
}

void FozRecorder::after_fork_in_child() {
  // Fresh locks and condition variables: the copies may hold the state of
  // parent threads that do not exist here (a notify in flight, a waiter).
  new (&rp_mu_) std::mutex;
  new (&mu_) std::mutex;
  new (&write_mu_) std::timed_mutex;
  new (&wake_) std::condition_variable;
  new (&drained_) std::condition_variable;
  // The writer thread did not come along, and the open archive is the
  // parent's: neither may be touched (joining a thread of another process
  // is undefined; writing would interleave with the parent).
  static_cast<void>(thread_.release());
  if (writer_) writer_->abandon();
  writer_.reset();
  written_ = 0;
  stop_ = false;
  failed_ = false;
}

}  // namespace libtrace::capture
