// SPDX-License-Identifier: MIT
// Out-of-line parts of the call model.
#include <cstring>

#include "libtrace/apitrace/model.hpp"

namespace libtrace::apitrace {

const std::string* EnumSig::name_of(std::int64_t v) const {
  if (values.size() <= 16) {
    for (const auto& [name, value] : values)
      if (value == v) return &name;
    return nullptr;
  }
  if (!indexed_) {
    index_.reserve(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) index_.try_emplace(values[i].second, static_cast<std::uint32_t>(i));
    indexed_ = true;
  }
  auto it = index_.find(v);
  return it == index_.end() ? nullptr : &values[it->second].first;
}

std::uint32_t Call::wchar(const Value& v, std::uint64_t k) const {
  std::uint32_t c = 0;
  std::memcpy(&c, bytes.data() + v.data + 4 * k, 4);
  return c;
}

}  // namespace libtrace::apitrace
