// SPDX-License-Identifier: MIT
// .foz names, tags and payload coding (zlib streams, CRC-32).
#include <libdeflate.h>
#include <zlib.h>

#include <array>
#include <cstring>

#include "foz/internal.hpp"
#include "libtrace/foz/archive.hpp"

namespace libtrace::foz {

namespace {

constexpr std::array<std::string_view, kTagCount> kTagNames = {
    "application_info", "sampler",           "descriptor_set_layout", "pipeline_layout",       "shader_module",
    "render_pass",      "graphics_pipeline", "compute_pipeline",      "application_blob_link", "raytracing_pipeline",
    "bucket_info",
};

constexpr char kHexDigits[] = "0123456789abcdef";

constexpr int hex_value(std::uint8_t c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Digit values, 0x10 for anything else: every name costs 32 lookups, so no
// branches per character.
constexpr std::array<std::uint8_t, 256> kHexTable = [] {
  std::array<std::uint8_t, 256> t{};
  for (auto& v : t) v = 0x10;
  for (int c = 0; c < 256; ++c) {
    const int d = hex_value(static_cast<std::uint8_t>(c));
    if (d >= 0) t[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(d);
  }
  return t;
}();

// Up to 16 hex digits; false on any other character.
bool parse_hex64(const std::uint8_t* p, std::size_t n, std::uint64_t& out) {
  std::uint64_t v = 0;
  unsigned bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned d = kHexTable[p[i]];
    bad |= d;
    v = v << 4 | (d & 0xf);
  }
  out = v;
  return (bad & 0x10) == 0;
}

void put_hex(char* out, std::uint64_t v, int digits) {
  for (int i = digits - 1; i >= 0; --i) {
    out[i] = kHexDigits[v & 0xf];
    v >>= 4;
  }
}

// Printable form of a bad name for an error message.
std::string escape_name(const std::uint8_t* p, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = p[i];
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      s += static_cast<char>(c);
    } else {
      s += "\\x";
      s += kHexDigits[c >> 4];
      s += kHexDigits[c & 0xf];
    }
  }
  return s;
}

// One inflate stream per thread, reset between payloads: setting a stream up
// costs more than inflating a small payload.
class Inflater {
 public:
  Inflater() {
    if (inflateInit(&z_) != Z_OK) throw Error(Errc::io, "", "zlib: cannot initialise inflate");
  }
  ~Inflater() { inflateEnd(&z_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream& get() {
    inflateReset(&z_);
    return z_;
  }

 private:
  z_stream z_{};
};

struct CompressorFree {
  void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};

// zlib's deflate cannot expand more than about 1032:1, so a header claiming
// more is corrupt: refusing it keeps a forged size from allocating gigabytes.
constexpr std::uint64_t kMaxRatio = 1032;

}  // namespace

std::string_view tag_name(Tag tag) {
  const auto i = static_cast<std::size_t>(tag);
  return i < kTagNames.size() ? kTagNames[i] : std::string_view("unknown");
}

std::optional<Tag> parse_tag(std::string_view text) {
  for (std::size_t i = 0; i < kTagNames.size(); ++i)
    if (text == kTagNames[i]) return static_cast<Tag>(i);
  if (text.empty() || text.size() > 2) return std::nullopt;
  unsigned v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  if (v >= kTagCount) return std::nullopt;
  return static_cast<Tag>(v);
}

std::string entry_name(Tag tag, std::uint64_t hash) {
  std::string s(kNameSize, '0');
  put_hex(s.data(), static_cast<std::uint64_t>(tag), 24);
  put_hex(s.data() + 24, hash, 16);
  return s;
}

std::string hash_hex(std::uint64_t hash) {
  std::string s(16, '0');
  put_hex(s.data(), hash, 16);
  return s;
}

std::optional<std::uint64_t> parse_hash(std::string_view text) {
  if (text.size() != 16) return std::nullopt;
  std::uint64_t v = 0;
  if (!parse_hex64(reinterpret_cast<const std::uint8_t*>(text.data()), 16, v)) return std::nullopt;
  return v;
}

std::string describe_entry(Tag tag, std::uint64_t hash) {
  std::string s(tag_name(tag));
  s += ' ';
  s += hash_hex(hash);
  return s;
}

std::uint32_t crc32(std::span<const std::uint8_t> bytes) {
  uLong crc = ::crc32(0L, Z_NULL, 0);
  const std::uint8_t* p = bytes.data();
  std::size_t n = bytes.size();
  while (n > 0) {  // zlib takes uInt lengths
    const auto k = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
    crc = ::crc32(crc, p, k);
    p += k;
    n -= k;
  }
  return static_cast<std::uint32_t>(crc);
}

PayloadHeader encode_payload(std::span<const std::uint8_t> payload, const EncodeOptions& opt,
                             std::vector<std::uint8_t>& stored) {
  if (payload.size() > 0xffffffffu)
    throw Error(Errc::usage, "", "payload of 4 GiB or more: a .foz entry cannot hold it");
  PayloadHeader h;
  h.format = static_cast<std::uint32_t>(opt.format);
  h.uncompressed_size = static_cast<std::uint32_t>(payload.size());
  if (opt.format == PayloadFormat::none) {
    stored.assign(payload.begin(), payload.end());
  } else if (opt.format == PayloadFormat::zlib) {
    if (opt.level < 1 || opt.level > 9)
      throw Error(Errc::usage, "", "zlib level " + std::to_string(opt.level) + " is outside 1-9");
    // libdeflate writes zlib's format in about 60 % of zlib's time at level
    // 1 (what a capture uses), and a little smaller; a compressor per
    // thread and level, as setting one up costs more than a small payload.
    thread_local std::array<std::unique_ptr<libdeflate_compressor, CompressorFree>, 10> compressors;
    auto& c = compressors[static_cast<std::size_t>(opt.level)];
    if (!c) c.reset(libdeflate_alloc_compressor(opt.level));
    if (!c) throw Error(Errc::io, "", "libdeflate: cannot allocate a compressor");
    stored.resize(libdeflate_zlib_compress_bound(c.get(), payload.size()));
    const std::size_t n =
        libdeflate_zlib_compress(c.get(), payload.data(), payload.size(), stored.data(), stored.size());
    if (n == 0) throw Error(Errc::io, "", "libdeflate: compression failed");
    stored.resize(n);
  } else {
    throw Error(Errc::usage, "", "unknown payload format " + std::to_string(h.format));
  }
  if (stored.size() > 0xffffffffu) throw Error(Errc::usage, "", "compressed payload of 4 GiB or more");
  h.stored_size = static_cast<std::uint32_t>(stored.size());
  h.crc = opt.checksum ? crc32(stored) : 0;
  return h;
}

void check_crc(const PayloadHeader& header, std::span<const std::uint8_t> stored, const std::string& where) {
  if (header.crc == 0) return;
  const std::uint32_t got = crc32(stored);
  if (got != header.crc) {
    char msg[96];
    std::snprintf(msg, sizeof msg, "CRC mismatch: header says %08x, stored bytes have %08x", header.crc, got);
    throw Error(Errc::bad_record, where, msg);
  }
}

void decode_payload(const PayloadHeader& header, std::span<const std::uint8_t> stored, std::vector<std::uint8_t>& out,
                    const std::string& where) {
  if (stored.size() != header.stored_size)
    throw Error(Errc::usage, where, "stored bytes do not match the header's size");
  check_crc(header, stored, where);
  if (header.format == static_cast<std::uint32_t>(PayloadFormat::none)) {
    if (header.uncompressed_size != header.stored_size)
      throw Error(Errc::bad_record, where,
                  "size mismatch: uncompressed payload of " + std::to_string(header.stored_size) +
                      " bytes, but the header says " + std::to_string(header.uncompressed_size));
    out.assign(stored.begin(), stored.end());
    return;
  }
  if (header.format != static_cast<std::uint32_t>(PayloadFormat::zlib))
    throw Error(Errc::bad_record, where,
                "unknown payload format " + std::to_string(header.format) + " (1 = none, 2 = zlib)");
  if (header.uncompressed_size > kMaxRatio * header.stored_size + 64)
    throw Error(Errc::bad_record, where,
                "size mismatch: " + std::to_string(header.stored_size) + " compressed bytes cannot inflate to the " +
                    std::to_string(header.uncompressed_size) + " the header says");
  thread_local Inflater inflater;
  z_stream& z = inflater.get();
  out.resize(header.uncompressed_size);
  std::uint8_t spare = 0;  // lets inflate show that more output would follow
  z.next_in = const_cast<Bytef*>(stored.data());
  z.avail_in = static_cast<uInt>(stored.size());
  z.next_out = out.empty() ? &spare : out.data();
  z.avail_out = out.empty() ? 1 : static_cast<uInt>(out.size());
  int rc = inflate(&z, Z_FINISH);
  if (rc == Z_BUF_ERROR && z.avail_out == 0 && !out.empty()) {
    // Output full: see whether the stream really ends here.
    z.next_out = &spare;
    z.avail_out = 1;
    rc = inflate(&z, Z_FINISH);
    if (rc != Z_STREAM_END)
      throw Error(Errc::bad_record, where,
                  "size mismatch: payload inflates to more than the " + std::to_string(header.uncompressed_size) +
                      " bytes the header says");
  }
  if (rc == Z_STREAM_END) {
    if (z.total_out != header.uncompressed_size)
      throw Error(Errc::bad_record, where,
                  "size mismatch: payload inflates to " + std::to_string(z.total_out) + " bytes, the header says " +
                      std::to_string(header.uncompressed_size));
    return;
  }
  if (rc == Z_BUF_ERROR || (rc == Z_OK && z.avail_in == 0))
    throw Error(Errc::bad_record, where,
                "inflate error: zlib stream ends early (" + std::to_string(z.total_out) + " of " +
                    std::to_string(header.uncompressed_size) + " bytes)");
  throw Error(Errc::bad_record, where, std::string("inflate error: ") + (z.msg ? z.msg : "corrupt zlib stream"));
}

namespace detail {

std::uint8_t check_file_header(const std::uint8_t* p, std::size_t got, const std::string& name) {
  const std::size_t m = std::min(got, kMagic.size());
  if (std::memcmp(p, kMagic.data(), m) != 0)
    throw Error(Errc::bad_magic, at_offset(name, 0), "not a Fossilize archive (no \\x81FOSSILIZEDB magic)");
  if (got < kMagicSize)
    throw Error(Errc::truncated, at_offset(name, got),
                "truncated header: " + std::to_string(got) + " of " + std::to_string(kMagicSize) + " bytes");
  if (p[12] != 0 || p[13] != 0 || p[14] != 0)
    throw Error(Errc::bad_magic, at_offset(name, 12), "not a Fossilize archive (header bytes 12-14 are not zero)");
  const std::uint8_t v = p[15];
  if (v < kMinVersion || v > kVersion)
    throw Error(Errc::unsupported, at_offset(name, 15),
                "archive version " + std::to_string(v) + " (trak reads versions 5 and 6)");
  return v;
}

namespace {
[[noreturn]] void rethrow_at(const Error& e, const std::string& file, std::uint64_t offset, Tag tag,
                             std::uint64_t hash) {
  throw Error(e.code(), at_offset(file, offset) + ": " + describe_entry(tag, hash), e.message());
}
}  // namespace

void decode_entry(const PayloadHeader& h, std::span<const std::uint8_t> stored, std::vector<std::uint8_t>& out,
                  const std::string& file, std::uint64_t offset, Tag tag, std::uint64_t hash) {
  static const std::string none;
  try {
    decode_payload(h, stored, out, none);
  } catch (const Error& e) {
    rethrow_at(e, file, offset, tag, hash);
  }
}

void check_entry_crc(const PayloadHeader& h, std::span<const std::uint8_t> stored, const std::string& file,
                     std::uint64_t offset, Tag tag, std::uint64_t hash) {
  if (h.crc == 0 || crc32(stored) == h.crc) return;
  try {
    check_crc(h, stored, "");
  } catch (const Error& e) {
    rethrow_at(e, file, offset, tag, hash);
  }
}

void parse_entry_header(const std::uint8_t* p, std::uint64_t offset, const std::string& name, ScannedEntry& e) {
  // Chars 0..7 are ignored, as Fossilize ignores them; the rest must be hex
  // (strtoul would silently stop at a stray character).
  if (!parse_hex64(p + 8, 16, e.tag_value) || !parse_hex64(p + 24, 16, e.hash))
    throw Error(Errc::bad_record, at_offset(name, offset),
                "entry name \"" + escape_name(p, kNameSize) + "\" is not 40 hex digits");
  e.offset = offset;
  const std::uint8_t* h = p + kNameSize;
  e.header.stored_size = load_le32(h);
  e.header.format = load_le32(h + 4);
  e.header.crc = load_le32(h + 8);
  e.header.uncompressed_size = load_le32(h + 12);
}

void format_entry_header(std::uint8_t* p, std::uint64_t tag, std::uint64_t hash, const PayloadHeader& header) {
  put_hex(reinterpret_cast<char*>(p), 0, 8);
  put_hex(reinterpret_cast<char*>(p) + 8, tag, 16);
  put_hex(reinterpret_cast<char*>(p) + 24, hash, 16);
  std::uint8_t* h = p + kNameSize;
  store_le32(h, header.stored_size);
  store_le32(h + 4, header.format);
  store_le32(h + 8, header.crc);
  store_le32(h + 12, header.uncompressed_size);
}

void note_torn(ScanSummary& s, std::uint64_t offset, std::uint64_t have, std::uint64_t need, bool in_header,
               const std::string& name, const WarningSink& warnings) {
  s.torn = true;
  s.valid_end = offset;
  s.torn_reason = std::string(in_header ? "entry header" : "entry") + " cut short: " + std::to_string(have) + " of " +
                  std::to_string(need) + " bytes";
  if (warnings)
    warnings(at_offset(name, offset), "torn last entry dropped (" + s.torn_reason + "); the " +
                                          std::to_string(s.entries) + " entries before it are kept");
}

}  // namespace detail

}  // namespace libtrace::foz
