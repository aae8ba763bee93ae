// SPDX-License-Identifier: MIT
// Compresses a stream in fixed-size chunks on worker threads and hands the
// results back in stream order: the engine of the snappy and gzip encoders.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace libtrace::detail {

class ChunkPool {
 public:
  struct Job {
    std::vector<std::uint8_t> in;         // this chunk of the stream
    std::vector<std::uint8_t> prev_tail;  // the bytes just before it (up to `tail`)
    bool last = false;                    // the final chunk (may be empty)
    std::vector<std::uint8_t> out;        // compressed by `compress`
    std::uint32_t check = 0;              // a per-chunk checksum, if the codec wants one
  };
  // Runs on a worker thread; must only touch its job.
  using Compress = std::function<void(Job&)>;
  // Runs on the writing thread, in stream order.
  using Emit = std::function<void(const Job&)>;

  ChunkPool(unsigned threads, std::size_t chunk, std::size_t tail, Compress compress, Emit emit);
  ~ChunkPool();
  ChunkPool(const ChunkPool&) = delete;
  ChunkPool& operator=(const ChunkPool&) = delete;

  void write(const void* data, std::size_t size);
  // Submits the final chunk (empty ones too when `submit_empty_last`), waits
  // for every job and emits the rest.
  void finish(bool submit_empty_last);

 private:
  void submit(bool last);
  void emit_ready(bool wait_for_one);
  void run();

  const std::size_t chunk_, tail_, max_in_flight_;
  Compress compress_;
  Emit emit_;
  std::unique_ptr<Job> cur_;
  std::vector<std::uint8_t> tail_buf_;

  std::mutex mu_;
  std::condition_variable work_cv_, done_cv_;
  std::deque<std::pair<std::uint64_t, std::unique_ptr<Job>>> todo_;
  std::map<std::uint64_t, std::unique_ptr<Job>> done_;
  std::vector<std::unique_ptr<Job>> free_;
  std::exception_ptr error_;
  std::uint64_t next_seq_ = 0, next_emit_ = 0;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace libtrace::detail
