// SPDX-License-Identifier: MIT
// Streaming reader for VMA call recordings: hands out the calls that
// vma/source.cpp parses in batches, on a second thread when there is a core
// for it.
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include "core/thread.hpp"
#include "libtrace/vma/recording.hpp"
#include "vma/source.hpp"

namespace libtrace::vma {

using detail::Batch;

struct Reader::Impl {
  Impl(std::unique_ptr<Decoder> decoder, std::string name, ReaderOptions o)
      : opt(std::move(o)), source(std::move(decoder), std::move(name), opt), warnings(source.header_warnings()) {
    if (opt.read_ahead && std::thread::hardware_concurrency() > 1) {
      for (auto& b : batches) free.push_back(&b);
      worker = libtrace::detail::start_thread([this] { run(); });
    }
  }

  ~Impl() {
    if (!worker.joinable()) return;
    {
      std::lock_guard lock(mu);
      stop = true;
    }
    cv.notify_all();
    worker.join();
  }

  // The worker fills free batches until the data ends.
  void run() {
    for (;;) {
      Batch* b = nullptr;
      {
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return stop || !free.empty(); });
        if (stop) return;
        b = free.front();
        free.pop_front();
      }
      source.fill(*b);
      const bool last = b->last;
      {
        std::lock_guard lock(mu);
        ready.push_back(b);
      }
      cv.notify_all();
      if (last) return;
    }
  }

  Batch* acquire() {
    if (!worker.joinable()) {
      source.fill(batches[0]);
      return &batches[0];
    }
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return !ready.empty(); });
    Batch* b = ready.front();
    ready.pop_front();
    return b;
  }

  void release(Batch* b) {
    if (!worker.joinable()) return;
    {
      std::lock_guard lock(mu);
      free.push_back(b);
    }
    cv.notify_all();
  }

  // Passes on the current batch's warnings due before calls[upto].
  void emit_notes(std::size_t upto) {
    for (; note < cur->notes.size() && cur->notes[note].before <= upto; ++note) {
      ++warnings;
      if (opt.warnings) opt.warnings(cur->notes[note].where, cur->notes[note].why);
    }
  }

  ReaderOptions opt;
  detail::Source source;
  std::uint64_t warnings = 0, lines = 0, bytes = 0;

  // The caller's side.
  Batch* cur = nullptr;
  std::size_t index = 0, note = 0;  // the next call and warning of cur
  bool done = false;

  // Batches go from `free` to the worker and through `ready` back to the
  // caller; with no worker, batches[0] is filled on demand.
  Batch batches[4];
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Batch*> free, ready;
  bool stop = false;
  std::thread worker;
};

Reader::Reader(std::unique_ptr<Decoder> decoder, std::string name, ReaderOptions opt)
    : impl_(std::make_unique<Impl>(std::move(decoder), std::move(name), std::move(opt))) {}

Reader::~Reader() = default;

const Header& Reader::header() const { return impl_->source.header(); }
std::uint64_t Reader::warnings() const { return impl_->warnings; }
std::uint64_t Reader::lines_read() const { return impl_->lines; }
std::uint64_t Reader::bytes_read() const { return impl_->bytes; }

const Call* Reader::next() {
  Impl& m = *impl_;
  for (;;) {
    if (m.cur) {
      if (m.index < m.cur->count) {
        m.emit_notes(m.index);
        return &m.cur->calls[m.index++];
      }
      m.emit_notes(Batch::kCalls);
      Batch* b = std::exchange(m.cur, nullptr);
      const std::exception_ptr error = b->error;
      m.done = b->last;
      m.release(b);
      if (error) std::rethrow_exception(error);
    }
    if (m.done) return nullptr;
    m.cur = m.acquire();
    m.index = m.note = 0;
    m.lines = m.cur->lines;
    m.bytes = m.cur->bytes;
  }
}

}  // namespace libtrace::vma
