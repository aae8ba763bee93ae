// SPDX-License-Identifier: MIT
// The codec limit for trak-stat on .foz: read an archive in 1 MiB blocks and
// inflate every zlib payload with zlib's uncompress() in a minimal loop (no
// CRC, no index, no JSON). Prints the entry count and decoded bytes.
//
// usage: foz-inflate-limit IN.foz
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  std::FILE* f = std::fopen(argv[1], "rb");
  if (!f) return 1;
  std::vector<unsigned char> buf(1 << 20), out;
  std::size_t have = 0, pos = 0;
  auto fill = [&](std::size_t n) {
    if (have - pos >= n) return true;
    std::memmove(buf.data(), buf.data() + pos, have - pos);
    have -= pos;
    pos = 0;
    if (buf.size() < n) buf.resize(n);
    have += std::fread(buf.data() + have, 1, buf.size() - have, f);
    return have >= n;
  };
  if (!fill(16)) return 1;
  pos = 16;
  std::uint64_t entries = 0, decoded = 0;
  while (fill(56)) {
    std::uint32_t h[4];
    std::memcpy(h, buf.data() + pos + 40, 16);  // little-endian host
    pos += 56;
    if (!fill(h[0])) break;
    if (h[1] == 2) {
      out.resize(h[3]);
      uLongf n = h[3];
      if (uncompress(out.data(), &n, buf.data() + pos, h[0]) != Z_OK) return 1;
      decoded += n;
    } else {
      decoded += h[0];
    }
    pos += h[0];
    ++entries;
  }
  std::printf("%llu entries, %llu bytes decoded\n", static_cast<unsigned long long>(entries),
              static_cast<unsigned long long>(decoded));
  return 0;
}
