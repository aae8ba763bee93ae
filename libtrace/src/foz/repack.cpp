// SPDX-License-Identifier: MIT
// repack_foz: decode in order, encode batches on all cores, write in order.
#include "libtrace/foz/repack.hpp"

#include <unistd.h>

#include "foz/internal.hpp"
#include "foz/keys.hpp"

#include <algorithm>
#include <array>
#include <thread>

namespace libtrace::foz {

namespace {

constexpr std::size_t kBatchEntries = 512;
constexpr std::size_t kBatchBytes = 8 << 20;

struct Job {
  Tag tag;
  std::uint64_t hash;
  bool had_crc;
  std::vector<std::uint8_t> payload, stored;
  PayloadHeader header;
};

}  // namespace

FozRepackResult repack_foz(InputFile& in, const FozRepackOptions& opt) {
  if (opt.verify && (is_stdio(in.name()) || in.name() == "<stdin>" || is_stdio(opt.output)))
    throw Error(Errc::usage, "", "--verify needs a file input and a file output, not '-'");
  if (opt.encode.format == PayloadFormat::zlib && (opt.encode.level < 1 || opt.encode.level > 9))
    throw Error(Errc::usage, "", "zlib level " + std::to_string(opt.encode.level) + " is outside 1-9");
  FozRepackResult res;
  ScanOptions so;
  so.warnings = opt.warnings;
  ArchiveScanner scanner(in, so);
  ArchiveWriter out(opt.output);
  const unsigned threads = opt.threads ? opt.threads : std::max(1u, std::thread::hardware_concurrency());
  std::vector<Job> batch;
  std::size_t used = 0, batch_bytes = 0;
  auto flush = [&] {
    auto encode = [&](std::size_t first) {
      for (std::size_t i = first; i < used; i += threads) {
        EncodeOptions eo = opt.encode;
        eo.checksum = opt.crc == CrcPolicy::add || (opt.crc == CrcPolicy::keep && batch[i].had_crc);
        batch[i].header = encode_payload(batch[i].payload, eo, batch[i].stored);
      }
    };
    if (threads > 1 && used > 1) {
      std::vector<std::thread> pool;
      for (unsigned t = 1; t < std::min<std::size_t>(threads, used); ++t) pool.emplace_back(encode, t);
      encode(0);
      for (auto& t : pool) t.join();
    } else {
      encode(0);
    }
    for (std::size_t i = 0; i < used; ++i) {
      out.write_raw(batch[i].tag, batch[i].hash, batch[i].header, batch[i].stored);
      ++res.entries;
    }
    used = batch_bytes = 0;
    if (opt.progress) opt.progress(in.offset(), in.size());
  };
  try {
    ScannedEntry e;
    detail::KeySet seen;
    while (scanner.next(e)) {
      if (!e.known_tag()) {
        ++res.unknown_tags_dropped;
        continue;
      }
      if (!seen.try_emplace(e.tag(), e.hash).second) {
        ++res.duplicates_dropped;
        continue;
      }
      if (used == batch.size()) batch.emplace_back();
      Job& j = batch[used];
      j.tag = e.tag();
      j.hash = e.hash;
      j.had_crc = e.header.crc != 0;
      detail::decode_entry(e.header, e.stored, j.payload, scanner.name(), e.offset, j.tag, j.hash);
      ++used;  // only once decoded: a failing entry is not in the batch
      batch_bytes += j.payload.size();
      if (used == kBatchEntries || batch_bytes >= kBatchBytes) flush();
    }
    flush();
  } catch (const Error& err) {
    // Every entry in the batch decoded: it is written before the error is.
    try {
      flush();
    } catch (const Error&) {
      // The original error is the one to report.
    }
    const std::string partial = out.keep_partial();
    if (partial.empty()) throw;
    throw Error(err.code(), err.where(), err.message() + " (entries before it kept in " + partial + ")");
  }
  res.torn_tail_dropped = scanner.summary().torn;
  res.input_bytes = scanner.summary().file_size;
  out.commit();
  res.output_bytes = out.bytes_written();
  if (opt.progress) opt.progress(res.input_bytes, res.input_bytes);
  if (opt.verify) {
    try {
      res.verified = compare_foz(in.name(), opt.output);
    } catch (...) {
      ::unlink(opt.output.c_str());  // a wrong archive must not stay behind
      throw;
    }
  }
  return res;
}

std::uint64_t compare_foz(const std::string& expected, const std::string& actual) {
  ArchiveReader a(expected), b(actual);
  std::vector<std::uint8_t> pa, pb;
  std::uint64_t n = 0;
  for (const Entry& e : a.entries()) {
    const Entry* f = b.find(e.tag, e.hash);
    if (!f) throw Error(Errc::bad_record, actual, "verify failed: " + describe_entry(e.tag, e.hash) + " is missing");
    a.read_payload(e, pa);
    b.read_payload(*f, pb);
    if (pa != pb)
      throw Error(Errc::bad_record, b.where(*f), "verify failed: decoded payload differs from " + a.where(e));
    ++n;
  }
  if (b.size() != a.size())
    throw Error(Errc::bad_record, actual,
                "verify failed: " + std::to_string(b.size()) + " entries, expected " + std::to_string(a.size()));
  return n;
}

}  // namespace libtrace::foz
