// SPDX-License-Identifier: MIT
// Progress reporting hook: libtrace reports, the tool decides how to show it.
#pragma once

#include <cstdint>
#include <functional>

namespace libtrace {

// Called now and then with input bytes consumed and the input size (0 when
// unknown, as for pipes), and once more with done == total (both the bytes
// read) when the work ends without an error.
using Progress = std::function<void(std::uint64_t done, std::uint64_t total)>;

// A Progress (when set) called at most once a `step` of input bytes, for a
// loop that could report after every record.
class ProgressEvery {
 public:
  ProgressEvery(const Progress& progress, std::uint64_t step) : progress_(progress), step_(step), next_(step) {}
  void operator()(std::uint64_t done, std::uint64_t total) {
    if (!progress_ || done < next_) return;
    progress_(done, total);
    next_ = done + step_;
  }

 private:
  const Progress& progress_;
  std::uint64_t step_, next_;
};

}  // namespace libtrace
