// SPDX-License-Identifier: MIT
// A light look into .foz JSON payloads: only the handles that name other
// entries, a shader module's code size, a link's fields and an application's
// name. Statistics and pruning need no more; the full object model lives
// elsewhere and can replace this file.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "libtrace/foz/archive.hpp"

namespace libtrace::foz::detail {

struct Ref {
  Tag tag;
  std::uint64_t hash;
};

struct Peeked {
  // Entries this object names by handle (VK_NULL_HANDLE left out):
  // pipelines -> layout, render pass, shader modules, base pipeline,
  // libraries; pipeline layouts -> set layouts; set layouts -> immutable samplers.
  std::vector<Ref> refs;
  std::uint64_t code_size = 0;  // shader modules: SPIR-V bytes ("codeSize")
  // application_blob_link: the application and the object it links to.
  bool link_ok = false;
  std::uint64_t link_application = 0;
  std::uint64_t link_tag = 0;
  std::uint64_t link_hash = 0;
  // application_info
  std::string application_name, engine_name;

  void clear() {
    refs.clear();
    code_size = link_application = link_tag = link_hash = 0;
    link_ok = false;
    application_name.clear();
    engine_name.clear();
  }
};

// Reads the JSON text of a decoded payload (a shader module's stops at its
// NUL: varint SPIR-V follows). Throws Error(bad_record) naming `where` when
// the JSON is malformed or a handle is not 16 hex digits.
void peek_payload(Tag tag, std::span<const std::uint8_t> payload, Peeked& out, const std::string& where);
// The same, parsing in place: `payload` is scratch (strings are unescaped
// into it), which saves copying every string the JSON holds.
void peek_payload_in_place(Tag tag, std::vector<std::uint8_t>& payload, Peeked& out, const std::string& where);

}  // namespace libtrace::foz::detail
