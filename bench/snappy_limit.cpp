// SPDX-License-Identifier: MIT
// The codec limit for trak-stat: reads an apitrace snappy trace and only
// decompresses its chunks (no parsing), the least work any reader must do.
// Prints the uncompressed byte count. Not installed; used by trace_bench.sh.
#include <snappy.h>

#include <cstdint>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: snappy-limit FILE.trace\n");
    return 2;
  }
  std::FILE* f = std::fopen(argv[1], "rb");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  char magic[2];
  if (std::fread(magic, 1, 2, f) != 2 || magic[0] != 'a' || magic[1] != 't') {
    std::fprintf(stderr, "snappy-limit: %s: not a snappy trace\n", argv[1]);
    return 1;
  }
  std::vector<char> in, out;
  std::uint64_t total = 0;
  unsigned char len[4];
  while (std::fread(len, 1, 4, f) == 4) {
    const std::uint32_t n = len[0] | len[1] << 8 | len[2] << 16 | static_cast<std::uint32_t>(len[3]) << 24;
    in.resize(n);
    if (std::fread(in.data(), 1, n, f) != n) break;
    std::size_t size = 0;
    if (!snappy::GetUncompressedLength(in.data(), n, &size)) return 1;
    if (out.size() < size) out.resize(size);
    if (!snappy::RawUncompress(in.data(), n, out.data())) return 1;
    total += size;
  }
  std::fclose(f);
  std::printf("%llu\n", static_cast<unsigned long long>(total));
  return 0;
}
