// SPDX-License-Identifier: MIT
// ChunkPool: a bounded, ordered work queue over a few threads.
#include "core/chunk_pool.hpp"

#include <algorithm>
#include <cstring>

#include "core/thread.hpp"

namespace libtrace::detail {

ChunkPool::ChunkPool(unsigned threads, std::size_t chunk, std::size_t tail, Compress compress, Emit emit)
    : chunk_(chunk),
      tail_(tail),
      max_in_flight_(2 * std::max(1u, threads)),
      compress_(std::move(compress)),
      emit_(std::move(emit)),
      cur_(std::make_unique<Job>()) {
  cur_->in.reserve(chunk_);
  for (unsigned i = 0; i < std::max(1u, threads); ++i) workers_.push_back(start_thread([this] { run(); }));
}

ChunkPool::~ChunkPool() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ChunkPool::run() {
  for (;;) {
    std::pair<std::uint64_t, std::unique_ptr<Job>> item;
    {
      std::unique_lock lock(mu_);
      work_cv_.wait(lock, [&] { return stop_ || !todo_.empty(); });
      if (todo_.empty()) return;
      item = std::move(todo_.front());
      todo_.pop_front();
    }
    try {
      compress_(*item.second);
    } catch (...) {
      std::lock_guard lock(mu_);
      if (!error_) error_ = std::current_exception();
    }
    {
      std::lock_guard lock(mu_);
      done_.emplace(item.first, std::move(item.second));
    }
    done_cv_.notify_all();
  }
}

void ChunkPool::write(const void* data, std::size_t size) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  while (size > 0) {
    const std::size_t k = std::min(size, chunk_ - cur_->in.size());
    cur_->in.insert(cur_->in.end(), p, p + k);
    p += k;
    size -= k;
    if (cur_->in.size() == chunk_) submit(false);
  }
}

void ChunkPool::submit(bool last) {
  cur_->last = last;
  cur_->prev_tail = tail_buf_;
  if (tail_ > 0) {
    // The next chunk's dictionary: the last `tail_` bytes seen so far.
    const auto& in = cur_->in;
    if (in.size() >= tail_) {
      tail_buf_.assign(in.end() - static_cast<std::ptrdiff_t>(tail_), in.end());
    } else {
      tail_buf_.insert(tail_buf_.end(), in.begin(), in.end());
      if (tail_buf_.size() > tail_)
        tail_buf_.erase(tail_buf_.begin(), tail_buf_.end() - static_cast<std::ptrdiff_t>(tail_));
    }
  }
  // Bounded memory: emit finished chunks (only this thread emits) until a
  // slot is free.
  for (;;) {
    {
      std::lock_guard lock(mu_);
      if (error_) std::rethrow_exception(error_);
      if (next_seq_ - next_emit_ < max_in_flight_) break;
    }
    emit_ready(true);
  }
  {
    std::lock_guard lock(mu_);
    todo_.emplace_back(next_seq_++, std::move(cur_));
    if (!free_.empty()) {
      cur_ = std::move(free_.back());
      free_.pop_back();
    }
  }
  work_cv_.notify_one();
  if (!cur_) cur_ = std::make_unique<Job>();
  cur_->in.clear();
  cur_->in.reserve(chunk_);
  emit_ready(false);
}

void ChunkPool::emit_ready(bool wait_for_one) {
  for (;;) {
    std::unique_ptr<Job> job;
    {
      std::unique_lock lock(mu_);
      if (wait_for_one) done_cv_.wait(lock, [&] { return done_.count(next_emit_) || error_; });
      if (error_) std::rethrow_exception(error_);
      auto it = done_.find(next_emit_);
      if (it == done_.end()) return;
      job = std::move(it->second);
      done_.erase(it);
    }
    emit_(*job);
    std::lock_guard lock(mu_);
    ++next_emit_;
    free_.push_back(std::move(job));
    done_cv_.notify_all();
    wait_for_one = false;
  }
}

void ChunkPool::finish(bool submit_empty_last) {
  if (!cur_->in.empty() || submit_empty_last) submit(true);
  while (next_emit_ < next_seq_) emit_ready(true);
}

}  // namespace libtrace::detail
