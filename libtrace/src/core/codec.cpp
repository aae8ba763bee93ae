// SPDX-License-Identifier: MIT
// Container names, detection, and the prefetching decoder wrapper.
#include "libtrace/core/codec.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "core/codec_internal.hpp"
#include "core/huge_pages.hpp"
#include "core/thread.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/core/sniff.hpp"

namespace libtrace {

std::string_view container_name(Container c) {
  switch (c) {
    case Container::snappy: return "snappy";
    case Container::gzip: return "gzip";
    case Container::brotli: return "brotli";
    case Container::plain: return "plain";
    case Container::zstd: return "zstd";
  }
  return "?";
}

std::string_view apitrace_container_name(Container c) {
  switch (c) {
    case Container::snappy: return "Snappy";
    case Container::gzip: return "ZLib";
    case Container::brotli: return "Brotli";
    case Container::plain: return "Plain";
    case Container::zstd: return "Zstd";
  }
  return "?";
}

namespace detail {

ChunkFramer::ChunkFramer(Container c, int level) : c_(c), level_(level) {
  if (c_ != Container::snappy && c_ != Container::zstd)
    throw Error(Errc::usage, "", std::string(container_name(c_)) + " is not a chunked container");
  if (c_ == Container::zstd && level_ < 0) level_ = 3;  // zstd's own default
}

std::string_view ChunkFramer::opening() const {
  // zstd frames carry their own magic.
  return c_ == Container::snappy ? std::string_view(kSnappyMagic, sizeof kSnappyMagic) : std::string_view();
}

std::size_t ChunkFramer::bound(std::size_t n) const {
  return c_ == Container::snappy ? snappy_chunk_bound(n) : zstd_frame_bound(n);
}

std::size_t ChunkFramer::frame(const void* in, std::size_t n, void* out) const {
  return c_ == Container::snappy ? snappy_chunk(in, n, out) : zstd_frame(level_, in, n, out);
}

void ChunkFramer::wrote(std::size_t framed, std::size_t n) {
  if (c_ == Container::zstd) frames_.emplace_back(static_cast<std::uint32_t>(framed), static_cast<std::uint32_t>(n));
}

// A snappy stream just ends; a zstd one without its seek table (a capture
// whose process was killed) is plain frames, which every zstd reader reads.
std::string ChunkFramer::closing() const { return c_ == Container::zstd ? zstd_seek_table(frames_) : std::string(); }

StreamFramer::StreamFramer(Container c, int level) : chunks_(c, level) {
  if (c == Container::zstd) zstd_ = std::make_unique<ZstdFlusher>(level < 0 ? 3 : level);
}

void StreamFramer::frame(std::string_view chunk, std::string& out) {
  out.clear();
  if (!zstd_) {
    out.resize(chunks_.bound(chunk.size()));
    out.resize(chunks_.frame(chunk.data(), chunk.size(), out.data()));
    return;
  }
  ended_ = in_frame_ + chunk.size() >= kZstdFrameSize;
  zstd_->put(chunk, ended_, out);
}

void StreamFramer::wrote(std::size_t framed, std::size_t n) {
  if (!zstd_) return chunks_.wrote(framed, n);
  framed_ += framed;
  in_frame_ += n;
  if (!ended_) return;
  chunks_.wrote(framed_, in_frame_);
  framed_ = in_frame_ = 0;
}

std::string StreamFramer::closing() {
  std::string out;
  if (zstd_ && framed_ > 0) {
    zstd_->put({}, true, out);
    chunks_.wrote(framed_ + out.size(), in_frame_);
    framed_ = in_frame_ = 0;
  }
  return out + chunks_.closing();
}

}  // namespace detail

std::optional<Container> parse_container(std::string_view name) {
  if (name == "snappy") return Container::snappy;
  if (name == "gzip" || name == "zlib") return Container::gzip;
  if (name == "brotli") return Container::brotli;
  if (name == "plain" || name == "none") return Container::plain;
  if (name == "zstd") return Container::zstd;
  return std::nullopt;
}

void check_level(Container c, int level) {
  if (level < 0) return;
  switch (c) {
    case Container::snappy: throw Error(Errc::usage, "", "snappy has no compression levels");
    case Container::gzip:
      if (level < 1 || level > 9) throw Error(Errc::usage, "", "gzip level must be 1..9");
      return;
    case Container::brotli:
      if (level > 11) throw Error(Errc::usage, "", "brotli level must be 0..11");
      return;
    case Container::plain: throw Error(Errc::usage, "", "plain output has no compression levels");
    case Container::zstd:
      if (level < 1 || level > 19) throw Error(Errc::usage, "", "zstd level must be 1..19");
      return;
  }
}

std::unique_ptr<Decoder> open_decoder(InputFile& in) {
  const std::string_view magic = in.peek(2);
  if (magic.empty()) throw Error(Errc::bad_magic, at_offset(in.name(), 0), "empty file: no trace or recording in it");
  // A file of one byte that starts a magic number ends inside it.
  if (magic.size() == 1 && (magic[0] == 'a' || static_cast<unsigned char>(magic[0]) == 0x1f))
    throw Error(Errc::truncated, at_offset(in.name(), 1),
                std::string("the file ends inside the magic number of a ") + (magic[0] == 'a' ? "snappy" : "gzip") +
                    " container (1 byte)");
  if (magic.size() == 2 && magic[0] == 'a' && magic[1] == 't') return detail::make_snappy_decoder(in);
  // zstd: a frame's magic 28 b5 2f fd, or a skippable frame's 5? 2a 4d 18.
  const std::string_view four = in.peek(4);
  static constexpr std::string_view kZstdMagic{"\x28\xb5\x2f\xfd", 4};
  const auto b0 = static_cast<unsigned char>(four[0]);
  if (four == kZstdMagic || (four.size() == 4 && (b0 & 0xf0) == 0x50 && four.substr(1) == "\x2a\x4d\x18"))
    return detail::make_zstd_decoder(in);
  if (four.size() < 4 && kZstdMagic.substr(0, four.size()) == four)
    throw Error(Errc::truncated, at_offset(in.name(), four.size()),
                "the file ends inside the magic number of a zstd container (" + std::to_string(four.size()) +
                    (four.size() == 1 ? " byte)" : " bytes)"));
  if (magic.size() == 2 && static_cast<unsigned char>(magic[0]) == 0x1f && static_cast<unsigned char>(magic[1]) == 0x8b)
    return detail::make_gzip_decoder(in);
  // A recording cut inside its first words is still a recording: its reader
  // says where it ends.
  const std::string_view head = in.peek(kVmaRecordingMagic.size());
  if (head.size() >= 6 && kVmaRecordingMagic.substr(0, head.size()) == head) return detail::make_plain_decoder(in);
  return detail::make_brotli_decoder(in);
}

namespace {

// Yields a block read ahead, then the rest of the inner decoder.
class PeekedDecoder final : public Decoder {
 public:
  PeekedDecoder(std::unique_ptr<Decoder> inner, Block first, bool has_first)
      : inner_(std::move(inner)), first_(std::move(first)), has_first_(has_first) {}
  bool next(Block& out) override {
    if (has_first_) {
      has_first_ = false;
      out.swap(first_);
      return true;
    }
    return inner_->next(out);
  }
  Container container() const override { return inner_->container(); }
  std::uint64_t file_offset() const override { return inner_->file_offset(); }
  // The block read ahead stays here, put, as long as this decoder.
  bool in_place() const override { return inner_->in_place(); }
  bool next_view(std::string_view& out) override {
    if (has_first_) {
      has_first_ = false;
      out = std::string_view(reinterpret_cast<const char*>(first_.data()), first_.size());
      return true;
    }
    return inner_->next_view(out);
  }
  void done_with(std::string_view view) override { inner_->done_with(view); }

 private:
  std::unique_ptr<Decoder> inner_;
  Block first_;
  bool has_first_;
};

}  // namespace

std::unique_ptr<Decoder> peek_stream(std::unique_ptr<Decoder> decoder, std::size_t n, std::string& head) {
  Block first;
  const bool got = decoder->next(first);
  head.assign(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(std::min(n, first.size())));
  return std::make_unique<PeekedDecoder>(std::move(decoder), std::move(first), got);
}

namespace {

// Decodes on a worker thread. Buffers circulate between a free list and a
// ready queue, so steady state allocates nothing.
class PrefetchDecoder final : public Decoder {
 public:
  PrefetchDecoder(std::unique_ptr<Decoder> inner, unsigned depth)
      : inner_(std::move(inner)), depth_(depth ? depth : 1), container_(inner_->container()) {
    worker_ = detail::start_thread([this] { run(); });
  }
  ~PrefetchDecoder() override {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }

  bool next(Block& out) override {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return !ready_.empty() || finished_; });
    if (ready_.empty()) {
      if (error_) {
        auto e = error_;
        error_ = nullptr;
        std::rethrow_exception(e);
      }
      return false;
    }
    free_.push_back(std::move(out));
    out = std::move(ready_.front().data);
    offset_ = ready_.front().offset;
    ready_.pop_front();
    lock.unlock();
    cv_.notify_all();
    return true;
  }
  Container container() const override { return container_; }
  std::uint64_t file_offset() const override { return offset_; }

 private:
  struct Ready {
    Block data;
    std::uint64_t offset;
  };

  void run() {
    for (;;) {
      Block buf;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return stop_ || ready_.size() < depth_; });
        if (stop_) return;
        if (!free_.empty()) {
          buf = std::move(free_.back());
          free_.pop_back();
        }
      }
      bool more = false;
      std::exception_ptr err;
      try {
        more = inner_->next(buf);
      } catch (...) {
        err = std::current_exception();
      }
      {
        std::lock_guard lock(mu_);
        if (more) {
          ready_.push_back(Ready{std::move(buf), inner_->file_offset()});
        } else {
          error_ = err;
          finished_ = true;
        }
      }
      cv_.notify_all();
      if (!more) return;
    }
  }

  std::unique_ptr<Decoder> inner_;
  const std::size_t depth_;
  const Container container_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Ready> ready_;
  std::vector<Block> free_;
  std::exception_ptr error_;
  bool finished_ = false;
  bool stop_ = false;
  std::uint64_t offset_ = 0;
  std::thread worker_;
};

}  // namespace

namespace detail {

// A block of 1 MiB (apitrace's snappy chunk) takes a whole huge page; the
// second half is the price of faulting it in at once.
void* block_allocate(std::size_t bytes) { return alloc_table(bytes ? bytes : 1, kHugePage / 2); }

void block_deallocate(void* p) noexcept { std::free(p); }

}  // namespace detail

std::unique_ptr<Decoder> prefetch(std::unique_ptr<Decoder> inner, unsigned depth) {
  return std::make_unique<PrefetchDecoder>(std::move(inner), depth);
}

}  // namespace libtrace

namespace libtrace {

std::unique_ptr<Sink> make_encoder(const EncoderOptions& opt, Sink& out) {
  check_level(opt.container, opt.level);
  switch (opt.container) {
    case Container::snappy: return detail::make_snappy_encoder(out, opt.threads);
    case Container::gzip: return detail::make_gzip_encoder(out, opt.level, opt.threads);
    case Container::brotli: return detail::make_brotli_encoder(out, opt.level);
    case Container::plain: return detail::make_plain_encoder(out);
    case Container::zstd: return detail::make_zstd_encoder(out, opt.level, opt.threads);
  }
  throw Error(Errc::usage, "", "unknown container");
}

}  // namespace libtrace
