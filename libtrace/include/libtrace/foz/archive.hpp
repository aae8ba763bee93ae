// SPDX-License-Identifier: MIT
// Fossilize stream archives (.foz, versions 5 and 6): the byte layer.
//
// File   := 16-byte header ("\x81FOSSILIZEDB", 3 zero bytes, version) Entry*
// Entry  := 40 hex digits (24 for the tag, 16 for the hash)
//           + PayloadHeader (4 little-endian u32) + stored bytes
// No index, footer or count: an archive is read by one sequential scan, and a
// crash while writing leaves at most a torn last entry, which readers drop.
//
// This layer knows entries, not their JSON: payloads are opaque bytes here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libtrace/core/error.hpp"
#include "libtrace/core/io.hpp"
#include "libtrace/core/sniff.hpp"

namespace libtrace::foz {

// Fossilize's ResourceTag. Values are what the archive stores.
enum class Tag : std::uint32_t {
  application_info = 0,
  sampler = 1,
  descriptor_set_layout = 2,
  pipeline_layout = 3,
  shader_module = 4,
  render_pass = 5,
  graphics_pipeline = 6,
  compute_pipeline = 7,
  application_blob_link = 8,
  raytracing_pipeline = 9,
  bucket_info = 10,
};
// Tags 0..kTagCount-1 are known; entries with larger tags are skipped, as
// Fossilize does (forward compatibility).
inline constexpr unsigned kTagCount = 11;

// "application_info", "sampler", ... "bucket_info" (the enum's names).
std::string_view tag_name(Tag tag);
// Accepts a tag name or its number ("6"); nullopt otherwise.
std::optional<Tag> parse_tag(std::string_view text);

inline constexpr std::size_t kMagicSize = 16;
inline constexpr std::size_t kNameSize = 40;
inline constexpr std::size_t kPayloadHeaderSize = 16;
inline constexpr std::size_t kEntryHeaderSize = kNameSize + kPayloadHeaderSize;  // 56
inline constexpr std::uint8_t kVersion = 6;                                      // what trak writes
inline constexpr std::uint8_t kMinVersion = 5;                                   // oldest version read
// The 12 bytes every archive starts with (then 3 zero bytes and the version).
inline constexpr std::string_view kMagic = kFozMagic;

// The 16-byte header's stored form, in entry order.
enum class PayloadFormat : std::uint32_t { none = 1, zlib = 2 };

struct PayloadHeader {
  std::uint32_t stored_size = 0;        // bytes of payload in the file
  std::uint32_t format = 0;             // a PayloadFormat value (not checked while scanning)
  std::uint32_t crc = 0;                // CRC-32 of the stored bytes; 0 = not checked
  std::uint32_t uncompressed_size = 0;  // decoded size (== stored_size for none)
};

// The 40-character entry name Fossilize writes: "%024x%016llx".
std::string entry_name(Tag tag, std::uint64_t hash);
// 16 lowercase hex digits, as Fossilize prints hashes and JSON handles.
std::string hash_hex(std::uint64_t hash);
// Parses the 16-hex-digit form (upper or lower case); nullopt otherwise.
std::optional<std::uint64_t> parse_hash(std::string_view text);
// "graphics_pipeline e3b925b0c1c00de1": how errors name an entry.
std::string describe_entry(Tag tag, std::uint64_t hash);

// ---------------------------------------------------------------------------
// Payload coding, independent of files.

struct EncodeOptions {
  PayloadFormat format = PayloadFormat::zlib;
  int level = 1;         // zlib 1..9 (Fossilize's layer: 1, convert-db: 9)
  bool checksum = true;  // store a CRC-32 of the stored bytes (else 0)
};

// Encodes `payload` into `stored` (replaced) and returns its header. Throws
// Error(usage) for a bad level, and for a payload of 4 GiB or more.
PayloadHeader encode_payload(std::span<const std::uint8_t> payload, const EncodeOptions& opt,
                             std::vector<std::uint8_t>& stored);

// CRC-32 as Fossilize computes it (zlib's, initial value 0).
std::uint32_t crc32(std::span<const std::uint8_t> bytes);

// Checks the CRC (when non-zero) and the sizes, inflates a zlib payload, and
// writes the decoded bytes to `out` (replaced). Throws Error(bad_record)
// naming `where` (file, offset, entry) for a CRC mismatch, an unknown format,
// an inflate error or a size that disagrees with the header.
void decode_payload(const PayloadHeader& header, std::span<const std::uint8_t> stored, std::vector<std::uint8_t>& out,
                    const std::string& where);
// Only the CRC part of decode_payload (the check a raw copy can afford).
void check_crc(const PayloadHeader& header, std::span<const std::uint8_t> stored, const std::string& where);

// ---------------------------------------------------------------------------
// Sequential scan: every complete entry in file order, nothing else kept.

// What a scan found besides the entries.
struct ScanSummary {
  std::uint8_t version = 0;        // 0 for an empty file (an empty archive, as for Fossilize)
  std::uint64_t file_size = 0;     // bytes seen (the whole input)
  std::uint64_t valid_end = 0;     // offset just past the last complete entry
  bool torn = false;               // the input ends inside an entry (bytes from valid_end on are ignored)
  std::string torn_reason;         // why the last entry is incomplete
  std::uint64_t entries = 0;       // complete entries read, all tags, duplicates included
  std::uint64_t unknown_tags = 0;  // of them, entries with a tag >= kTagCount (skipped by readers)
};

struct ScannedEntry {
  std::uint64_t offset = 0;     // of the entry's name in the file
  std::uint64_t tag_value = 0;  // name chars 8..23 (chars 0..7 are ignored, as by Fossilize)
  std::uint64_t hash = 0;
  PayloadHeader header;
  // Name + payload header + stored bytes, exactly as in the file (56 +
  // stored_size bytes), and the stored bytes alone. Empty when the scan was
  // asked to skip payloads. Valid until the next call to next().
  std::span<const std::uint8_t> raw;
  std::span<const std::uint8_t> stored;

  bool known_tag() const { return tag_value < kTagCount; }
  Tag tag() const { return static_cast<Tag>(tag_value); }  // only when known_tag()
  std::uint64_t end() const { return offset + kEntryHeaderSize + header.stored_size; }
};

struct ScanOptions {
  // False: stored bytes are skipped (read and dropped from a pipe), and
  // ScannedEntry::raw/stored stay empty: for building an index.
  bool want_payload = true;
  // Told once about a torn tail: "<file>: offset N" and what was dropped.
  WarningSink warnings;
};

// Reads an archive front to back, from a pipe in large blocks (memory stays
// bounded by the largest entry, never the file) or from a mapping of a
// regular file (no copies; a file truncated by another process while it is
// mapped would end the process with SIGBUS). The constructor reads and
// checks the 16-byte header: Error(truncated) for a partial header,
// Error(bad_magic) for another format, Error(unsupported) for a version other
// than 5 or 6.
class ArchiveScanner {
 public:
  ArchiveScanner(InputFile& in, ScanOptions opt = {});
  // Opens `path` itself: a regular file is mapped read-only and scanned in
  // place (payload spans point into the mapping, pages are read ahead and
  // dropped as the kernel sees fit); "-" and other files are read in blocks.
  explicit ArchiveScanner(const std::string& path, ScanOptions opt = {});
  // Scans bytes the caller holds (a whole archive, for example a mapping it
  // keeps): entry spans then stay valid as long as those bytes do. `name`
  // names them in errors.
  ArchiveScanner(std::span<const std::uint8_t> bytes, std::string name, ScanOptions opt = {});
  ~ArchiveScanner();
  ArchiveScanner(const ArchiveScanner&) = delete;
  ArchiveScanner& operator=(const ArchiveScanner&) = delete;

  // The next complete entry, duplicates and unknown tags included; false at
  // the end of the input or at a torn last entry (see summary()). Throws
  // Error(bad_record) for a complete entry whose name is not hex.
  bool next(ScannedEntry& e);

  std::uint8_t version() const;
  // Final once next() returned false.
  const ScanSummary& summary() const;
  const std::string& name() const;
  // Bytes consumed so far, and the input's size (0 when unknown): progress.
  std::uint64_t offset() const;
  std::uint64_t size() const;

 private:
  struct Impl;
  void start();
  std::unique_ptr<Impl> impl_;
};

// ---------------------------------------------------------------------------
// Random access: an index of the first occurrence of every (tag, hash).

struct Entry {
  Tag tag = Tag::application_info;
  std::uint64_t hash = 0;
  std::uint64_t offset = 0;  // of the entry's name; the payload starts kEntryHeaderSize later
  PayloadHeader header;
};

struct ReadOptions {
  WarningSink warnings;  // about a torn tail
};

// Opens a file (not a pipe: payloads are read on demand at their offsets),
// scans its entry headers once and keeps only the index (about 48 bytes per
// entry). First duplicate wins; unknown tags are skipped; a torn last entry
// is dropped with a warning. Reading payloads is thread-safe (pread).
class ArchiveReader {
 public:
  explicit ArchiveReader(const std::string& path, ReadOptions opt = {});
  ~ArchiveReader();
  ArchiveReader(const ArchiveReader&) = delete;
  ArchiveReader& operator=(const ArchiveReader&) = delete;

  const std::string& name() const;
  std::uint8_t version() const;  // 0 for an empty file
  const ScanSummary& summary() const;
  std::uint64_t duplicates() const;  // later occurrences ignored

  std::size_t size() const;  // unique entries of known tags
  std::size_t count(Tag tag) const;
  // First occurrences in file order.
  const std::vector<Entry>& entries() const;
  // Hashes of one tag, ascending (Fossilize's order: replay ranges index it).
  std::vector<std::uint64_t> hashes(Tag tag) const;
  const Entry* find(Tag tag, std::uint64_t hash) const;
  bool contains(Tag tag, std::uint64_t hash) const { return find(tag, hash) != nullptr; }

  // The stored bytes as in the file (CRC checked when non-zero).
  void read_stored(const Entry& e, std::vector<std::uint8_t>& out) const;
  // The decoded payload (CRC, inflate and sizes checked). Errors name the
  // file, the entry's offset, its tag and hash.
  void read_payload(const Entry& e, std::vector<std::uint8_t>& out) const;
  std::vector<std::uint8_t> read_payload(Tag tag, std::uint64_t hash) const;  // Error(usage) if absent

  // "<file>: offset N: <tag> <hash>": the prefix errors about `e` use.
  std::string where(const Entry& e) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// ---------------------------------------------------------------------------
// Writing.

enum class WriteMode {
  // A new file through a temporary renamed on commit() ("-" is stdout).
  overwrite,
  // Create the file, failing if it exists (O_EXCL), and write it in place.
  exclusive,
  // Open an existing archive (or create one), keep its entries and append.
  // Unlike Fossilize, a torn tail is cut off (ftruncate) before appending, so
  // stale bytes never follow the new entries.
  append,
};

struct AppendInfo {
  std::uint64_t existing_entries = 0;  // unique entries already there
  std::uint64_t truncated_bytes = 0;   // torn tail cut off
  std::uint64_t offset = 0;            // where appending started
};

// Writes entries in Fossilize's exact layout; a (tag, hash) already in the
// archive (written before, or there before an append) is not written again.
class ArchiveWriter {
 public:
  ArchiveWriter(const std::string& path, WriteMode mode = WriteMode::overwrite, ReadOptions opt = {});
  // The concurrent-writer scheme of Fossilize's layer: creates
  // `base.1.foz`, `base.2.foz` ... `base.255.foz`, whichever O_EXCL-creates
  // first (a trailing ".foz" on `base` is dropped first). Error(io) when all
  // exist.
  static std::unique_ptr<ArchiveWriter> create_numbered(const std::string& base, ReadOptions opt = {});
  ~ArchiveWriter();  // overwrite: the temporary is removed unless committed
  ArchiveWriter(const ArchiveWriter&) = delete;
  ArchiveWriter& operator=(const ArchiveWriter&) = delete;

  bool contains(Tag tag, std::uint64_t hash) const;
  // Encodes and writes one entry; false (nothing written) when present.
  bool write(Tag tag, std::uint64_t hash, std::span<const std::uint8_t> payload, const EncodeOptions& opt = {});
  // Writes a stored payload with its header as given (no recompression), as
  // merge and prune do; false when present. Error(usage) if the header's
  // stored_size is not stored.size().
  bool write_raw(Tag tag, std::uint64_t hash, const PayloadHeader& header, std::span<const std::uint8_t> stored);
  // write_raw for a caller that keeps its own index and knows the key is new
  // (trak-merge): no check, and contains() does not learn the key. Writing a
  // key twice this way makes an archive whose later copy readers ignore.
  void write_raw_unchecked(Tag tag, std::uint64_t hash, const PayloadHeader& header,
                           std::span<const std::uint8_t> stored);
  // Appends `count` complete entries exactly as another archive holds them
  // (names, headers, payloads: a run of consecutive entries), unchecked like
  // write_raw_unchecked; a long run goes to the file in one system call.
  void write_entries_unchecked(std::span<const std::uint8_t> entries, std::uint64_t count);

  // Exclusive and append: hands what is buffered to the file now (a reader,
  // or the file after the process is killed, sees every entry so far).
  void flush();
  // Exclusive and append, in a forked child that must not touch its
  // parent's archive: the buffer is dropped and the descriptor closed,
  // nothing more is written; the writer is done.
  void abandon();

  // Makes everything written durable in the file system's view: overwrite
  // renames the temporary over the destination; the others flush.
  void commit();
  // After a failure, instead of committing: keeps what was written (a valid
  // archive of the entries so far) as "<path>.partial" and returns that name;
  // "" for stdout. Exclusive and append files already hold it: their path.
  std::string keep_partial();

  const std::string& path() const;  // the destination
  std::uint64_t entries_written() const;
  std::uint64_t bytes_written() const;  // this session, header included
  const AppendInfo& append_info() const;

 private:
  struct Impl;
  explicit ArchiveWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace libtrace::foz
