// SPDX-License-Identifier: MIT
// The trace layer's output: one apitrace version-6 stream per process, in
// apitrace's snappy container or in seekable zstd frames. Application threads serialize their events
// into their own buffers without a lock; the lock is held only to append a
// finished event to the current chunk (and to number it). A helper thread
// compresses full chunks, and every kFlushEvery whatever is pending, so that
// a process killed without warning leaves a stream that reads up to a whole
// event at most that much before the kill.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "apitrace/grammar.hpp"
#include "core/codec_internal.hpp"

namespace libtrace::capture::trace {

// The four signature kinds of the grammar, each with ids of its own.
enum class Sig : std::uint8_t { function, structure, enumeration, bitmask };

class Stream;

// Where a signature's definition would stand in a kept event's bytes
// (Event() below); the definition's bytes are kept once per process.
struct DefinitionSpan {
  Sig kind;
  std::uint32_t id;
  std::uint32_t begin;  // byte offset in the event
};

// One event being serialized. A signature is written in full the first time
// the stream carries it; which event is first is only known when events are
// appended, so an event records the definitions it wrote (claims), and one
// that lost that race is serialized again under the lock.
//
// An event made without a stream is kept for later (a trimmed capture keeps
// the calls that made the live state until its range starts): where each
// definition stands is marked and its bytes are kept once per process, and
// splice() copies the event into a stream's event with the definitions that
// stream still lacks put back in place.
class Event {
 public:
  explicit Event(Stream& s) : s_(&s) {}
  Event() = default;
  void byte(std::uint8_t b) { buf_.push_back(static_cast<char>(b)); }
  void uint(std::uint64_t v) { apitrace::grammar::append_uint(buf_, v); }
  void str(std::string_view s) {
    uint(s.size());
    buf_.append(s);
  }
  void bytes(const void* p, std::size_t n) { buf_.append(static_cast<const char*>(p), n); }
  // Whether the caller must write signature `id` of kind `k` in full; if
  // so, end_define() follows the definition.
  bool define(Sig k, std::uint32_t id);
  void end_define();
  // A kept event's bytes into this one, each definition only if the stream
  // lacks it.
  void splice(std::string_view bytes, std::span<const DefinitionSpan> spans);
  void clear() {
    buf_.clear();
    claims_.clear();
    spans_.clear();
  }
  std::size_t size() const { return buf_.size(); }
  const Stream* stream() const { return s_; }
  // A kept event's bytes and definitions.
  std::string_view bytes() const { return buf_; }
  const std::vector<DefinitionSpan>& spans() const { return spans_; }

 private:
  friend class Stream;
  Stream* s_ = nullptr;
  std::string buf_;
  std::vector<std::pair<Sig, std::uint32_t>> claims_;
  std::vector<DefinitionSpan> spans_;  // kept events only
  bool locked_ = false;
};

class Stream {
 public:
  // Creates (truncates) `path`; throws Error(io). The properties go into the
  // stream's header; the container is snappy or zstd (frames and a seek
  // table, readable without it up to a crash), `level` zstd's (-1: 3).
  Stream(const std::string& path, const std::map<std::string, std::string>& properties,
         Container container = Container::snappy, int level = -1);
  // Writes to `fd` (open for writing, at offset 0; a negative one is
  // errno's failure to open `path`), which the stream then owns.
  Stream(int fd, const std::string& path, const std::map<std::string, std::string>& properties,
         Container container = Container::snappy, int level = -1);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // The stream the environment asks for (TRAK_CAPTURE_TRACE), made on first
  // use; null when the layer does not trace. Never destroyed: hooks may run
  // while the process exits.
  static Stream* get();
  // The stream if get() made one, without making it.
  static Stream* peek();
  // A trimmed capture's range (trim.hpp): a stream of its own at `path`,
  // which get() returns until close_range() finishes it. Throws Error(io).
  static Stream* open_range(const std::string& path, std::uint64_t first_frame);
  static void close_range();
  // After fork() in the child: the parent's stream is not the child's to
  // write (its helper thread stayed behind); devices the child makes are
  // traced into a stream of its own (NAME.<pid>.trace), those it inherited
  // not at all.
  static void forget_in_child();

  // Appends `e`, calling serialize(e) to write it again if its signature
  // definitions lost a race. Enter events are numbered in the order they are
  // appended: that number is returned (the leave event names it). A whole
  // call (trak's own, or a command-buffer command with nothing to return)
  // gets its leave event here too, in the same append.
  enum class Kind { enter, leave, whole };
  template <typename F>
  std::uint64_t commit(Event& e, Kind kind, F&& serialize) {
    std::unique_lock lock(mu_);
    wait_for_space_locked(lock);
    bool lost = false;
    for (const auto& [k, id] : e.claims_) lost = lost || is_defined(k, id);
    if (lost) {
      e.clear();
      e.locked_ = true;
      serialize(e);
      e.locked_ = false;
    } else {
      for (const auto& [k, id] : e.claims_) set_defined(k, id);
    }
    return append_locked(e, kind);
  }

  // This thread's id in the process's streams: 0, 1, ... in order of first
  // call (a child of fork() numbers its own from 0).
  static std::uint32_t thread_id();
  // The process's presents so far, counting this one: frames are numbered
  // from 1, across the files of a trimmed capture too.
  static std::uint64_t next_frame();
  static std::uint64_t frames_so_far();
  // Everything appended reaches the file; the helper thread stops. Later
  // events are dropped.
  void finish();
  // After a submit or present: what was appended is written now, and the
  // caller waits until it is in the file, unless the helper thread wrote
  // less than kNudgeEvery ago. A process that leaves with _exit() (no
  // handler, no destructor runs) keeps its calls up to its last submit.
  void nudge();
  // From a fatal signal's handler: what was appended is handed to the
  // helper thread and this thread waits, at most `limit`, until it is in
  // the file. The process dies next, so the stream stays open.
  void flush_before_dying(std::chrono::milliseconds limit);
  const std::string& path() const { return path_; }

 private:
  friend class Event;
  bool is_defined(Sig k, std::uint32_t id) const;
  void set_defined(Sig k, std::uint32_t id);
  std::uint64_t append_locked(Event& e, Kind kind);
  void append_locked(std::string_view bytes);
  // Back-pressure: the application waits while the helper is kQueueMax
  // chunks behind (before an event's first byte, never in the middle).
  void wait_for_space_locked(std::unique_lock<std::mutex>& lock);
  void hand_over_locked();
  void run();
  void write_chunk(const std::string& chunk);

  void write_all(const std::string& bytes);

  std::string path_;
  int fd_ = -1;
  detail::StreamFramer framer_;  // the helper thread's alone
  std::mutex mu_;
  std::string chunk_;
  std::uint64_t next_call_ = 0;
  std::vector<std::atomic<std::uint8_t>> defined_[4];
  bool finished_ = false;

  std::condition_variable wake_, space_;
  std::deque<std::string> queue_;  // full chunks, oldest first
  bool stop_ = false;
  bool write_failed_ = false;
  int writing_ = 0;                          // chunks the helper took and is writing
  std::uint64_t handed_ = 0, done_ = 0;      // chunks handed to the helper, and written (or dropped)
  std::atomic<std::int64_t> last_write_{0};  // steady_clock ticks of the helper's last write
  std::uint64_t written_ = 0;                // bytes of whole chunks in the file (the helper's)
  std::thread thread_;
};

}  // namespace libtrace::capture::trace
