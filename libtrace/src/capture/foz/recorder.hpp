// SPDX-License-Identifier: MIT
// One application's .foz archive in this process, as Fossilize's layer keeps
// one per application/feature hash: BASE.<hash>.<N>.foz, created exclusively
// (the first free N) when the first entry is written, so processes of one
// application never share a file.
//
// Objects arrive serialized, on the application's threads; a writer thread
// compresses them and appends each with its application link, then hands the
// bytes to the file, so a killed process leaves every entry written up to a
// few milliseconds before. The writer is woken once per batch, not per entry:
// a wake-up is a futex call on the application's thread, which on a
// paravirtualised machine cost more than hashing and serializing a pipeline.
// Memory holds the queue, not the archive: a forked child that records
// something new starts an archive of its own and first copies into it the
// entries its parent's archive held at the fork, so nothing in it refers to
// an entry only the parent's archive has.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "libtrace/foz/archive.hpp"
#include "libtrace/foz/object.hpp"

namespace libtrace::capture {

struct RecorderOptions {
  std::string base;    // BASE of BASE.<hash>.<N>.foz
  std::string report;  // a file each new archive's name is appended to ("" none)
};

// An object serialized before the driver saw it, not yet accepted.
struct PendingEntry {
  foz::Tag tag;
  foz::Hash hash;
  std::string payload;
};

class FozRecorder {
 public:
  // `application` is the tag-0 object (application_object()); it is the
  // first entry of every archive this recorder writes.
  FozRecorder(RecorderOptions opt, const foz::Object& application);
  ~FozRecorder();  // writes what is queued, then stops the thread
  FozRecorder(const FozRecorder&) = delete;
  FozRecorder& operator=(const FozRecorder&) = delete;

  foz::Hash application_hash() const { return app_hash_; }
  bool contains(foz::Tag tag, foz::Hash hash) const;
  // Queues an entry (and its link) unless (tag, hash) is recorded already.
  bool add(foz::Tag tag, foz::Hash hash, std::string_view payload);
  // Waits until everything queued so far is in the file, or writing failed.
  void drain();
  // Stops the writer thread after drain(); add() starts it again.
  void stop();

  // From a signal handler on a thread dying inside the driver: writes what is
  // queued and then `last` (the pipelines being created) on this thread,
  // waiting at most `budget` for the writer thread to let go of the file.
  void write_before_dying(const std::vector<PendingEntry>& last, std::chrono::milliseconds budget);

  // Render passes stay parsed for hashing the graphics pipelines that use
  // them (whether they use color or depth attachments changes the hash).
  void keep_render_pass(foz::Hash hash, const std::string& payload);
  const foz::Object* render_pass(foz::Hash hash) const;

  // pthread_atfork: the file and the writer thread are the parent's. In the
  // child every recorder then writes on the creating thread.
  void before_fork();
  void after_fork_in_parent();
  void after_fork_in_child();
  // From now on, in this process, entries are written by add() itself.
  static void write_synchronously();

 private:
  struct Stored {
    foz::Tag tag;
    foz::Hash hash;
    std::size_t offset, size;  // of the payload, in its queue's bytes
  };
  // With mu_ held.
  void enqueue_locked(foz::Tag tag, foz::Hash hash, std::string_view payload);
  void start_locked();
  void run();
  // With write_mu_ held: takes the queue and writes it.
  void write_queued();
  void write_one(const Stored& s, const std::string& bytes);
  void open_archive();

  RecorderOptions opt_;
  foz::Hash app_hash_;

  // Lock order: write_mu_, then mu_, then rp_mu_.
  std::timed_mutex write_mu_;  // writer_, inherit_*: whoever writes the file
  std::unique_ptr<foz::ArchiveWriter> writer_;
  std::vector<Stored> batch_;  // the queue being written
  std::string batch_bytes_;
  // A forked child's first archive starts with the first inherit_bytes_
  // bytes' entries of its parent's archive.
  std::string inherit_path_;
  std::uint64_t inherit_bytes_ = 0;

  mutable std::mutex mu_;  // queue_, writing_, keys_, stop_, thread_
  std::condition_variable wake_, drained_;
  // Accepted, not in the file yet: the entries, and their payloads end to
  // end. write_queued() swaps both with batch_ and batch_bytes_ and clears
  // those after writing, keeping their memory. The application's threads
  // copy payloads in and nothing is freed on the writer thread: a free() of
  // memory another thread allocated takes that thread's malloc arena lock,
  // which a driver allocating on it (lavapipe, per pipeline) holds often.
  std::vector<Stored> queue_;
  std::string queue_bytes_;
  std::size_t writing_ = 0;     // taken from the queue, being written
  bool idle_ = false;           // the writer waits for a first entry: the next add() wakes it
  unsigned drain_waiters_ = 0;  // drain() calls waiting: the writer writes without gathering
  std::array<std::unordered_set<foz::Hash>, foz::kTagCount> keys_;  // every entry accepted
  std::unique_ptr<std::thread> thread_;
  bool stop_ = false;
  std::atomic<bool> failed_{false};

  mutable std::mutex rp_mu_;
  foz::Arena rp_arena_;
  std::unordered_map<foz::Hash, foz::Object> render_passes_;
};

}  // namespace libtrace::capture
