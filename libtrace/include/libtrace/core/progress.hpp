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

}  // namespace libtrace
