// SPDX-License-Identifier: MIT
#include "capture/foz/recorder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <new>

#include "capture/launcher_report.hpp"
#include "capture/names.hpp"
#include "layer/layer.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/core/io.hpp"
#include "libtrace/foz/archive.hpp"

namespace libtrace::capture {

namespace {

// Fossilize's layer: objects zlib level 1 with a CRC, links stored with one.
constexpr foz::EncodeOptions kObjectCoding{foz::PayloadFormat::zlib, 1, true};
constexpr foz::EncodeOptions kLinkCoding{foz::PayloadFormat::none, 1, true};

// Woken by the first entry, the writer lets more gather for this long, or
// until this many are queued, then writes them in one go.
constexpr auto kGather = std::chrono::milliseconds(10);
constexpr std::size_t kBatch = 64;

}  // namespace

FozRecorder::FozRecorder(RecorderOptions opt, const foz::Object& application)
    : opt_(std::move(opt)), app_hash_(application.hash) {
  // Fossilize writes the application info when the device is created, even
  // for an application that then creates nothing.
  add(foz::Tag::application_info, app_hash_, foz::serialize_payload(application, "application info"));
}

FozRecorder::~FozRecorder() { stop(); }

bool FozRecorder::contains(foz::Tag tag, foz::Hash hash) const {
  const std::lock_guard lock(mu_);
  return keys_[static_cast<std::size_t>(tag)].count(hash) != 0;
}

namespace {

// Set in a forked child: see after_fork_in_child().
std::atomic<bool> g_synchronous{false};

}  // namespace

void FozRecorder::write_synchronously() { g_synchronous = true; }

void FozRecorder::enqueue_locked(foz::Tag tag, foz::Hash hash, std::string_view payload) {
  queue_.push_back({tag, hash, queue_bytes_.size(), payload.size()});
  queue_bytes_.append(payload);
}

bool FozRecorder::add(foz::Tag tag, foz::Hash hash, std::string_view payload) {
  if (g_synchronous) {
    const std::lock_guard wl(write_mu_);
    {
      const std::lock_guard lock(mu_);
      if (!keys_[static_cast<std::size_t>(tag)].insert(hash).second) return false;
      enqueue_locked(tag, hash, payload);
    }
    write_queued();
    return true;
  }
  bool wake;
  {
    const std::lock_guard lock(mu_);
    if (!keys_[static_cast<std::size_t>(tag)].insert(hash).second) return false;
    enqueue_locked(tag, hash, payload);
    start_locked();
    wake = idle_ || queue_.size() == kBatch;
    idle_ = false;
  }
  if (wake) wake_.notify_one();
  return true;
}

void FozRecorder::start_locked() {
  if (thread_ || failed_) return;
  stop_ = false;
  thread_ = std::make_unique<std::thread>([this] { run(); });
}

void FozRecorder::drain() {
  std::unique_lock lock(mu_);
  ++drain_waiters_;
  wake_.notify_one();  // the writer may be gathering
  drained_.wait(lock, [&] { return !thread_ || failed_ || (queue_.empty() && writing_ == 0); });
  --drain_waiters_;
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
      if (queue_.empty()) {
        idle_ = true;
        wake_.wait(lock, [&] { return stop_ || failed_ || !queue_.empty(); });
        idle_ = false;
      }
      wake_.wait_for(lock, kGather, [&] { return stop_ || failed_ || drain_waiters_ != 0 || queue_.size() >= kBatch; });
      if (failed_ || (stop_ && queue_.empty())) break;
    }
    {
      const std::lock_guard wl(write_mu_);
      write_queued();
    }
    drained_.notify_all();
  }
  drained_.notify_all();
}

void FozRecorder::write_queued() {
  batch_.clear();
  batch_bytes_.clear();
  {
    const std::lock_guard lock(mu_);
    batch_.swap(queue_);
    batch_bytes_.swap(queue_bytes_);
    writing_ = batch_.size();
  }
  if (!batch_.empty() && !failed_) {
    try {
      for (const Stored& s : batch_) write_one(s, batch_bytes_);
      writer_->flush();
    } catch (const std::exception& e) {
      failed_ = true;
      const std::string what = "stopped writing " + (writer_ ? writer_->path() : opt_.base);
      layer::log_once(kLayerName, what, e.what());
      append_report(opt_.report, kReportProblem, what + ": " + e.what());
    }
  }
  const std::lock_guard lock(mu_);
  writing_ = 0;
}

void FozRecorder::open_archive() {
  writer_ = foz::ArchiveWriter::create_numbered(opt_.base + "." + foz::hash_hex(app_hash_));
  append_report(opt_.report, kReportFoz, writer_->path());
  if (inherit_path_.empty()) return;
  // The parent's entries as they were at the fork: the file may have grown
  // since, and what came later is the parent's own.
  InputFile in(inherit_path_);
  std::vector<std::uint8_t> bytes(inherit_bytes_);
  bytes.resize(in.read_full(bytes.data(), bytes.size()));
  foz::ArchiveScanner scan(bytes, inherit_path_);
  for (foz::ScannedEntry e; scan.next(e);)
    if (e.known_tag()) writer_->write_raw(e.tag(), e.hash, e.header, e.stored);
  inherit_path_.clear();
}

void FozRecorder::write_one(const Stored& s, const std::string& bytes) {
  if (!writer_) open_archive();
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
  const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data()) + s.offset;
  writer_->write(s.tag, s.hash, {p, s.size}, kObjectCoding);
}

void FozRecorder::write_before_dying(const std::vector<PendingEntry>& last, std::chrono::milliseconds budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  // Holding the file's lock, the writer thread is between batches: what it
  // has not taken is in the queue.
  if (!write_mu_.try_lock_until(deadline)) return;
  // The queue's lock is held only for moments, unless by this very thread
  // when it died: then give up rather than wait forever.
  bool locked = false;
  while (!(locked = mu_.try_lock()) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (locked) {
    for (const PendingEntry& e : last)
      if (keys_[static_cast<std::size_t>(e.tag)].insert(e.hash).second) enqueue_locked(e.tag, e.hash, e.payload);
    mu_.unlock();
    write_queued();
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
  // is undefined; writing would interleave with the parent). What the
  // parent's archive holds now is what the child's will start with.
  static_cast<void>(thread_.release());
  if (writer_) {
    if (inherit_path_.empty()) {
      inherit_path_ = writer_->path();
      inherit_bytes_ = writer_->bytes_written();
    }
    writer_->abandon();
    writer_.reset();
  }
  stop_ = false;
  failed_ = false;
  writing_ = 0;
  idle_ = false;
  drain_waiters_ = 0;
  // Children often leave with _exit(), which no thread of ours outlives:
  // from here on each entry is written before the call that made it returns.
  write_synchronously();
}

}  // namespace libtrace::capture
