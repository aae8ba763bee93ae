// SPDX-License-Identifier: MIT
#include "core/chunk_pool.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

using libtrace::detail::ChunkPool;

TEST_CASE("chunk_pool: results come back in stream order with the right tails") {
  std::string emitted;
  std::size_t chunks = 0;
  {
    ChunkPool pool(
        3, 10, 4,
        [](ChunkPool::Job& j) {
          // Output: the previous tail, '|', then the chunk upper-cased.
          j.out.assign(j.prev_tail.begin(), j.prev_tail.end());
          j.out.push_back('|');
          for (auto c : j.in) j.out.push_back(static_cast<std::uint8_t>(std::toupper(c)));
          j.out.push_back(j.last ? '$' : ';');
        },
        [&](const ChunkPool::Job& j) {
          emitted.append(j.out.begin(), j.out.end());
          ++chunks;
        });
    const std::string text = "abcdefghijklmnopqrstuvwxyz";
    for (char ch : text) pool.write(&ch, 1);
    pool.finish(true);
  }
  CHECK(chunks == 3);
  CHECK(emitted == "|ABCDEFGHIJ;ghij|KLMNOPQRST;qrst|UVWXYZ$");
}

TEST_CASE("chunk_pool: a worker's exception reaches the writer") {
  ChunkPool pool(
      2, 4, 0, [](ChunkPool::Job&) { throw std::runtime_error("boom"); }, [](const ChunkPool::Job&) {});
  // The error reaches whichever call of the writer comes after the worker
  // failed: write() when the worker was quick, else finish().
  CHECK_THROWS_WITH(
      {
        pool.write("12345678", 8);
        pool.finish(true);
      },
      "boom");
}
