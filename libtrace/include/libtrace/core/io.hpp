// SPDX-License-Identifier: MIT
// Byte sources and sinks over files and pipes: "-" is stdin or stdout.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "libtrace/core/temp_file.hpp"

namespace libtrace {

// True for the "-" sentinel. "./-" is a file named "-".
inline bool is_stdio(std::string_view path) { return path == "-"; }

// Sequential reader over a file or stdin. It never seeks, so pipes work.
// Throws Error(Errc::io) naming the file when the system refuses.
class InputFile {
 public:
  explicit InputFile(const std::string& path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // Reads up to n bytes; returns 0 only at end of file.
  std::size_t read(void* dst, std::size_t n);
  // Reads until n bytes or end of file; returns how many were read.
  std::size_t read_full(void* dst, std::size_t n);
  // Looks at the next n bytes (fewer at end of file) without consuming them.
  std::string_view peek(std::size_t n);

  // The path as given, or "<stdin>" for "-".
  const std::string& name() const { return name_; }
  // Bytes consumed so far: the file offset of the next read().
  std::uint64_t offset() const { return offset_; }
  // Size of a regular file, 0 when unknown (pipes, terminals).
  std::uint64_t size() const { return size_; }

  // The bytes not yet consumed (those peeked at included), mapped read-only
  // for reading in place; they count as consumed (read() returns 0 after).
  // Empty, consuming nothing, for what cannot be mapped: pipes, terminals,
  // empty files. The mapping lives as long as this object; bytes appended to
  // the file later are not in it, and another process truncating the file
  // meanwhile raises SIGBUS in the reader.
  std::string_view map_rest();
  // Drops the pages wholly inside `bytes` from the process, where they are
  // part of map_rest()'s mapping (else nothing): read again, they come back
  // from the page cache.
  void unmap_range(std::string_view bytes);
  // Maps the pages of `bytes` (part of map_rest()'s mapping) into the
  // process now, in one system call, where the system can: a first read
  // would otherwise take a page fault per 64 KiB.
  void populate(std::string_view bytes);

 private:
  // madvise(advice) on the pages of `bytes` where they lie in map_rest()'s
  // mapping: those wholly inside (`inner`) or every page they touch.
  void advise_mapped(std::string_view bytes, int advice, bool inner);

  int fd_ = -1;
  bool owns_fd_ = false;
  std::string name_;
  std::uint64_t offset_ = 0;
  std::uint64_t size_ = 0;
  std::string pushback_;  // bytes peeked but not yet consumed
  void* map_ = nullptr;   // map_rest()'s mapping of the whole file
  std::size_t map_size_ = 0;
};

// Where encoded or formatted bytes go.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void write(const void* data, std::size_t size) = 0;
  // Ends the stream (codec trailers); no write() may follow.
  virtual void finish() {}
};

// A file written through a temporary next to it and renamed on commit(), so a
// failure never leaves a half-written file where a good one was (through a
// symbolic link, next to the file it names, which stays a link); stdout for
// "-"; a device, FIFO or socket written in place, since renaming over one
// would replace it with a regular file. Writes are buffered, and the buffers
// go to the system on a second thread, so producing the next bytes overlaps
// with writing the last ones.
class OutputFile final : public Sink {
 public:
  explicit OutputFile(const std::string& path);
  ~OutputFile() override;  // removes the temporary unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const void* data, std::size_t size) override;
  // Hands the buffered bytes to the system and waits until they are written.
  void flush();
  // Flushes and renames the temporary over the destination.
  void commit();
  // After a failure: keeps what was written as "<path>.partial" and returns
  // that name ("" when written in place, where the bytes are already out,
  // flushed).
  std::string keep_partial();

  const std::string& name() const { return name_; }
  // A path that opens the bytes until commit() ("" when written in place).
  std::string temp_path() const;
  // Written in place (stdout, a device, a FIFO): nothing to rename or read back.
  bool in_place() const { return !tmp_; }
  std::uint64_t bytes_written() const { return written_; }

 private:
  void write_fd(const void* data, std::size_t size);
  void hand_over();  // queues the full buffer for the writer thread
  void wait_idle();  // rethrows the writer's error, if any
  void run_writer();

  int fd_ = -1;
  bool owns_fd_ = false;  // a device or FIFO opened here
  std::string name_;
  std::string target_;  // what the temporary becomes
  std::unique_ptr<TempFile> tmp_;
  std::vector<char> buf_, spare_;
  std::size_t used_ = 0, spare_used_ = 0;
  std::uint64_t written_ = 0;
  bool done_ = false;

  std::mutex mu_;
  std::condition_variable cv_;
  bool busy_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread writer_;
};

// Whether stdout is a terminal: binary writers refuse one unless asked.
// Writes all `size` bytes to `fd`, again after EINTR and short writes;
// throws Errc::io naming `where` and `action` ("write: No space left on device").
void write_all(int fd, const void* data, std::size_t size, const std::string& where, std::string_view action = "write");

bool stdout_is_terminal();
// Whether stdin is a terminal: readers refuse to wait on one for a trace.
bool stdin_is_terminal();
bool stderr_is_terminal();

}  // namespace libtrace
