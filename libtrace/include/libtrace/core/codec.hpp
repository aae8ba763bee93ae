// SPDX-License-Identifier: MIT
// The apitrace containers (snappy chunks, gzip, raw brotli, zstd frames with
// a seek table): detection, block decoders, and encoders with levels.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libtrace/core/io.hpp"

namespace libtrace {

// `plain` is uncompressed text: VMA recordings are usually stored that way
// (a trace stream never is).
enum class Container { snappy, gzip, brotli, plain, zstd };

// "snappy", "gzip", "brotli", "plain", "zstd".
std::string_view container_name(Container c);
// What `apitrace info` calls it: "Snappy", "ZLib", "Brotli", "Zstd".
std::string_view apitrace_container_name(Container c);
// Parses "snappy" / "gzip" / "brotli" / "zstd" (also "zlib"); nullopt otherwise.
std::optional<Container> parse_container(std::string_view name);

namespace detail {
void* block_allocate(std::size_t bytes);
void block_deallocate(void* p) noexcept;
}  // namespace detail

// The memory of decoded blocks. From 1 MiB on it is whole 2 MiB pages where
// the system grants them on request: a decoded block is a fresh MiB written
// at once, and on a paravirtualised machine each first touch of a 4 KiB page
// costs ~14 us (3.6 ms per MiB; with 2 MiB pages 0.2-1.4 ms): the three or
// four blocks in flight were a third of trak-stat's time on a 10 MB stream.
template <class T>
struct BlockAllocator {
  using value_type = T;
  BlockAllocator() = default;
  template <class U>
  BlockAllocator(const BlockAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(detail::block_allocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t) noexcept { detail::block_deallocate(p); }
  template <class U>
  bool operator==(const BlockAllocator<U>&) const {
    return true;
  }
};
using Block = std::vector<std::uint8_t, BlockAllocator<std::uint8_t>>;

// Produces the decompressed trace stream in blocks. Blocks have no relation
// to calls: values straddle them freely.
class Decoder {
 public:
  virtual ~Decoder() = default;
  // Replaces `out` with the next block; false at the clean end of the stream.
  // On truncated or corrupt data it first returns every byte it could recover
  // (a cut snappy chunk is decoded as far as possible, like apitrace), and
  // throws Error on the following call: Errc::truncated when the container
  // only ends early (the bytes returned are all good, and a reader whose data
  // ends whole there may take it as an end, with a warning), another code
  // when it is corrupt. Never allocates more than the data plausibly needs:
  // absurd chunk lengths are errors.
  virtual bool next(Block& out) = 0;
  virtual Container container() const = 0;
  // Compressed bytes consumed so far.
  virtual std::uint64_t file_offset() const = 0;

  // Whether next_view() works: the stream lies in memory that stays put (a
  // mapped plain file), so its blocks can be parsed in place, uncopied.
  virtual bool in_place() const { return false; }
  // Instead of next(), where in_place(): the next block, valid as long as
  // the decoder; false at the end. The two may be mixed.
  virtual bool next_view(std::string_view& out) {
    (void)out;
    return false;
  }
  // Says that a view's bytes will not be read again, so that the memory
  // behind them can go (a mapped file's pages stop counting towards the
  // process's memory). Reading them anyway stays safe, only slower.
  virtual void done_with(std::string_view view) { (void)view; }
};

// Detects the container from the first bytes ('a' 't': snappy; 1f 8b: gzip;
// 28 b5 2f fd or a skippable frame: zstd; "Vulkan Memory Allocator": plain
// text; anything else is tried as brotli,
// which has no magic) and returns its decoder. Throws Error(bad_magic) for an
// empty file; data that is none of these fails with bad_magic on the first
// next().
std::unique_ptr<Decoder> open_decoder(InputFile& in);

// Reads ahead the first block of `decoder` and returns a decoder that yields
// the whole stream again; `head` receives its first `n` bytes (fewer if the
// stream is shorter). For telling formats apart by content.
std::unique_ptr<Decoder> peek_stream(std::unique_ptr<Decoder> decoder, std::size_t n, std::string& head);

// Runs `inner` on its own thread, up to `depth` blocks ahead, so decompression
// overlaps with parsing. Errors arrive in order, after the blocks before them.
// One block ahead is enough to overlap; each block more is more fresh memory
// to fault in (see BlockAllocator).
std::unique_ptr<Decoder> prefetch(std::unique_ptr<Decoder> inner, unsigned depth = 1);

struct EncoderOptions {
  Container container = Container::snappy;
  // gzip 1..9 (default 9, as apitrace); brotli 0..11 (default 11, as
  // apitrace); zstd 1..19 (default 3, zstd's own); snappy has none. -1
  // means the default.
  int level = -1;
  // Worker threads for the containers whose chunks compress independently
  // (snappy, zstd, and gzip through shared dictionaries); 0 means all cores.
  unsigned threads = 0;
};

// Throws Error(usage) for a level outside the container's range.
void check_level(Container c, int level);

// A Sink that compresses into `out`. finish() writes the trailer; it must be
// called for a valid file (the destructor does not).
std::unique_ptr<Sink> make_encoder(const EncoderOptions& opt, Sink& out);

// Snappy chunk size apitrace's writer uses: 1 MiB of stream per chunk.
inline constexpr std::size_t kSnappyChunk = 1 << 20;

}  // namespace libtrace
