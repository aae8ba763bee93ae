// SPDX-License-Identifier: MIT
// Fast, exact printf("%.7g") of a float (what `apitrace dump` prints).
#pragma once

#include <string>

namespace libtrace::detail {

// Appends the same characters as printf("%.7g", (double)v).
void put_float_g7(std::string& out, float v);

}  // namespace libtrace::detail
