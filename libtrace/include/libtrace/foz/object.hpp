// SPDX-License-Identifier: MIT
// The objects inside a Fossilize (.foz) archive as the Vulkan create-info
// structs themselves: JSON payload -> struct tree (parse), struct tree -> JSON
// payload in Fossilize's layout (serialize), and Fossilize's 64-bit hash of
// each object (compute_hash).
//
// Like Fossilize's StateReplayer, every handle inside a parsed struct holds the
// Fossilize hash of the object it refers to (0 = VK_NULL_HANDLE). A replayer
// walks Object::references, creates (or looks up) the referenced objects and
// overwrites each handle in place with the real one before calling Vulkan.
//
// Parsed structs are what the JSON says, nothing normalized: pipeline flags
// keep bits Fossilize strips before replay (normalized_pipeline_flags()), and
// a state block is there when the JSON has it. Functions are reentrant; an
// Arena belongs to one thread at a time.
#pragma once

#include <vulkan/vulkan_core.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "libtrace/foz/archive.hpp"

namespace libtrace::foz {

using Hash = std::uint64_t;

// Tag, kTagCount, tag_name() and hash_hex() come from libtrace/foz/archive.hpp.

// "06.e3b925b0c1c00de1": how fossilize-convert-db names an entry's file in a
// JSON directory (without ".json").
std::string json_entry_name(Tag tag, Hash hash);

// Pipeline create flags without the bits that do not change the pipeline
// (capture statistics / internal representations / data, early return on
// failure, fail on compile required): what Fossilize hashes and replays with.
std::uint64_t normalized_pipeline_flags(std::uint64_t flags);

// Handles in parsed structs carry hashes. Non-dispatchable handles are 64
// bits wide on every platform, so the conversion is lossless.
template <typename Handle>
inline Handle handle_from_hash(Hash h) {
  return std::bit_cast<Handle>(h);
}
template <typename Handle>
inline Hash hash_from_handle(Handle handle) {
  return std::bit_cast<Hash>(handle);
}

// Owns the memory of parsed structs: their arrays, strings, SPIR-V words and
// pNext chains. Objects parsed into an arena stay valid until it is reset or
// destroyed. Allocations are zeroed.
class Arena {
 public:
  Arena();
  ~Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  void* allocate(std::size_t size, std::size_t align);
  // `count` zeroed Ts. Never null, even for 0: a present but empty JSON array
  // stays distinguishable from an absent one.
  template <typename T>
  T* make(std::size_t count = 1) {
    return static_cast<T*>(allocate(sizeof(T) * (count ? count : 1), alignof(T)));
  }
  const char* copy_string(std::string_view s);
  // Frees everything but keeps the first block for reuse.
  void reset();
  std::size_t bytes_reserved() const;

 private:
  struct Block;
  std::vector<std::unique_ptr<Block>> blocks_;
};

// One handle inside a parsed struct: `tag`/`hash` name the referenced object
// and `handle` points at the field holding it (a VkSampler, VkPipelineLayout,
// VkShaderModule, VkRenderPass, VkDescriptorSetLayout or VkPipeline inside the
// arena). A replayer writes the real handle there:
//   std::memcpy(ref.handle, &real_layout, sizeof real_layout);
// References with hash 0 (VK_NULL_HANDLE) are not listed.
struct Reference {
  Tag tag;
  Hash hash;
  void* handle;
};

// Tag 8: "this object was recorded by that application".
struct ApplicationLink {
  Hash application = 0;  // tag-0 hash of the application
  Tag tag = Tag::application_info;
  Hash hash = 0;
};

// A parsed archive entry.
struct Object {
  Tag tag = Tag::application_info;
  // The key the JSON files it under ("samplers": {"<hash>": ...}). For
  // application infos and links, which have no key, Fossilize's hash of the
  // content (what the entry is named by).
  Hash hash = 0;

  // Tags 1-7 and 9: the create info, a Vk*CreateInfo with sType set. A render
  // pass is VkRenderPassCreateInfo or VkRenderPassCreateInfo2 (check sType).
  const void* create_info = nullptr;

  // Tag 0. Either may be null (fossilize-opt writes empty objects); features
  // carries robustBufferAccess and the PhysicalDeviceFeatures2 pNext chain.
  const VkApplicationInfo* application = nullptr;
  const VkPhysicalDeviceFeatures2* features = nullptr;
  // Tag 8.
  ApplicationLink link;
  // Tag 10: the bucket JSON, verbatim.
  std::string_view raw_json;

  // Every non-null handle in the struct tree, in parse order: immutable
  // samplers, set layouts, base pipeline, layout, render pass, shader
  // modules, pipeline libraries. Handles to objects of the same tag (base
  // pipelines, libraries) must be created first.
  std::vector<Reference> references;

  template <typename T>
  const T* as() const {
    return static_cast<const T*>(create_info);
  }
  VkStructureType s_type() const {
    return create_info ? static_cast<const VkBaseInStructure*>(create_info)->sType : VK_STRUCTURE_TYPE_MAX_ENUM;
  }
};

// `where` names the file and entry for messages (ArchiveReader::where(), or
// a JSON file's name). Errors are libtrace::Error(bad_record) with that as
// `where` and the JSON path plus the reason as the message.

// Parses one archive entry's payload: JSON (for shader modules followed by a
// NUL and the varint SPIR-V, or with a base64 "code" member). The document
// must hold exactly one object. Strict: malformed JSON, missing or ill-typed
// fields, unknown fields, an unknown sType in a pNext chain, inconsistent
// counts and bad varint/base64 data are errors naming the JSON path.
Object parse_payload(std::string_view payload, Arena& arena, const std::string& where);

// A bucket info entry (tag 10): any JSON object, kept verbatim; its key is
// the entry's hash.
Object parse_bucket_info(std::string_view payload, Hash hash, Arena& arena, const std::string& where);

// A whole-state document (Fossilize's StateRecorder::serialize layout, or
// trak-convert --to json) indexed in one pass over its text, which checks the
// document's outer structure; each object is parsed only when asked for, so
// memory is the text plus one object, never a DOM of everything. The text
// must outlive the index.
struct DocumentEntry {
  Tag tag;
  Hash hash;                 // the key, or (links, a lone application info) the content's hash
  std::size_t offset;        // of `text` in the document
  std::string_view text;     // the object's JSON
  std::string_view extra;    // a top-level application info's physicalDeviceFeatures
  std::string_view section;  // the member it is under ("graphicsPipelines", ...)
  std::string_view key;      // its hash key as written ("" for links)
  std::size_t order;         // position in the document
};

class DocumentIndex {
 public:
  DocumentIndex(std::string_view json, const std::string& where);
  // Tag order, then document order.
  const std::vector<DocumentEntry>& entries() const { return entries_; }
  Object parse(const DocumentEntry& e, Arena& arena) const;

 private:
  std::string_view json_, varint_;
  std::string where_;
  std::vector<DocumentEntry> entries_;
  bool version_ = false;
};

// Every object of a document, in tag order (DocumentIndex + parse).
std::vector<Object> parse_document(std::string_view json, Arena& arena, const std::string& where);

// What compute_hash needs beyond the object: a graphics pipeline's hash
// depends on whether its subpass uses color and depth/stencil attachments,
// which only its render pass knows. Return the parsed object of that tag and
// hash, or null when it is not available (then hashing that pipeline fails).
using Lookup = std::function<const Object*(Tag tag, Hash hash)>;

// Tag 0 as Fossilize's layer records it when a device is created: the
// instance's application info (may be null) and the device's features: a
// VkPhysicalDeviceFeatures2 (the one in the device create info's chain, else
// one made of pEnabledFeatures) followed by the feature structs of that chain
// which Fossilize keeps, in chain order. Copied into `arena`; `hash` is
// Fossilize's application/feature hash, which also names the archive.
Object application_object(const VkApplicationInfo* app, const VkDeviceCreateInfo& device, Arena& arena);

// Handles in structs a capture layer hands over are real handles, not hashes:
// a resolver returns the hash of the object of that tag created with that
// handle (pipelines: any of the three pipeline tags), or throws when it has
// none. `raw` is never 0.
using HandleResolver = std::function<Hash(Tag tag, std::uint64_t raw)>;

// Fossilize's hash of the object (fossilize.cpp, namespace Hashing): equal to
// the hash the entry is stored under when Fossilize recorded it. With a
// resolver, every handle in the struct tree is mapped through it; a stage
// whose module is given inline (VkShaderModuleCreateInfo in its pNext)
// hashes like that module.
Hash compute_hash(const Object& object, const Lookup& lookup, const std::string& where,
                  const HandleResolver* resolve = nullptr);

// The payload Fossilize writes for this object: compact JSON with
// {"version":6,"<key>":{"<hash>":{...}}} (shader modules: JSON + NUL +
// varint SPIR-V; application infos and links have their own envelopes). Keys
// appear in Fossilize's order, so payloads of parsed Fossilize entries come
// back as the same JSON value, usually the same bytes.
// With a resolver the create info is a live one, recorded as Fossilize's
// layer records it: handles are mapped as for compute_hash, an inline stage
// module is written as the hash of that module (which the caller records as
// a shader module of its own), and a pipeline layout or render pass a
// library part does not use is written as null. With a
// lookup, a graphics pipeline leaves out the state blocks its subpass does
// not use (color blend, depth/stencil), as Fossilize's layer records live
// create infos; the hash never depends on them either way.
std::string serialize_payload(const Object& object, const std::string& where, const HandleResolver* resolve = nullptr,
                              const Lookup* lookup = nullptr);

// Streams one whole-state JSON document built from objects of any tags, in
// the layout Fossilize's StateReplayer reads (shader code as base64 "code"),
// with additions so that every archive entry survives the trip:
// "applicationInfos": {"<hash>": {"applicationInfo", "physicalDeviceFeatures"}}
// (the first application info also sits at the top level, where Fossilize
// looks for it), "links": [{"application","tag","hash"}, ...] and
// "bucketInfos": {"<hash>": <bucket JSON>}.
class DocumentWriter {
 public:
  using Sink = std::function<void(std::string_view bytes)>;
  explicit DocumentWriter(Sink sink);
  ~DocumentWriter();
  DocumentWriter(const DocumentWriter&) = delete;
  DocumentWriter& operator=(const DocumentWriter&) = delete;

  // Objects must come grouped by tag in ascending tag order (one archive tag
  // list after the other); within a tag any order is kept as given.
  void add(const Object& object, const std::string& where);
  // Closes the document (and its line) and hands the last bytes to the sink.
  void finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace libtrace::foz
