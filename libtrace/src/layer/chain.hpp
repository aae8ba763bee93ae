// SPDX-License-Identifier: MIT
// A shallow copy of a create info's pNext chain that a layer may change
// before passing it down (an application's structs are the application's):
// each struct copied by the registry's size, the loader's link structs too.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <vector>

namespace libtrace::layer {

class ChainCopy {
 public:
  // Structs of the `drop` sTypes are left out (a layer's own, which the
  // driver must not see). Any other sType this build does not know stops the
  // copy: from there on the application's structs are linked as they are,
  // and complete() is false.
  explicit ChainCopy(const void* first, std::initializer_list<VkStructureType> drop = {});
  ChainCopy(const ChainCopy&) = delete;
  ChainCopy& operator=(const ChainCopy&) = delete;

  const void* head() const { return head_; }
  bool complete() const { return complete_; }
  // The first copied struct of that sType, or null.
  template <typename T>
  T* find(VkStructureType s_type) {
    for (auto* s = static_cast<VkBaseOutStructure*>(head_); s && s != rest_; s = s->pNext)
      if (s->sType == s_type) return reinterpret_cast<T*>(s);
    return nullptr;
  }
  // `s` (the caller keeps it alive) goes first.
  void prepend(void* s);

 private:
  std::vector<std::unique_ptr<std::max_align_t[]>> nodes_;
  void* head_ = nullptr;
  const void* rest_ = nullptr;  // where copying stopped
  bool complete_ = true;
};

}  // namespace libtrace::layer
