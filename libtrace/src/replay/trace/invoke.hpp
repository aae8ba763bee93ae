// SPDX-License-Identifier: MIT
// Calling a Vulkan command whose arguments were decoded at run time: one
// 8-byte slot per parameter (a scalar, a handle or a pointer), cast back to
// the parameter's type by an invoker generated from vk.xml (gen_invoke.py).
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>

namespace libtrace::replay_trace {

// Calls `f` with the slots `a` (one per parameter); the return value, if
// any, goes to `r`.
using Invoker = void (*)(PFN_vkVoidFunction f, void* const* a, void* r);

struct NamedInvoker {
  const char* name;
  Invoker invoke;
};
extern const NamedInvoker kInvokers[];  // sorted by name
extern const std::size_t kInvokerCount;

// The invoker of a command (aliases included), or null.
Invoker find_invoker(const char* name);

}  // namespace libtrace::replay_trace
