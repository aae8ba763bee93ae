// SPDX-License-Identifier: MIT
// Creating one pipeline with everything it depends on, in dependency order:
// samplers -> set layouts -> pipeline layouts, render passes, shader modules
// (on demand), parent pipelines (derivative bases, libraries), then the
// pipeline, which is destroyed again at once unless it may be a parent.
//
// Objects other than pipelines and modules live as long as the worker (an
// archive has few). Shader modules are kept in an LRU bounded by SPIR-V
// bytes. Every create info is parsed into an arena reset after each pipeline,
// so memory per worker stays bounded by the largest pipeline's closure.
#pragma once

#include <cstdint>
#include <deque>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "libtrace/foz/object.hpp"
#include "replay/foz/device.hpp"
#include "replay/foz/plan.hpp"
#include "replay/foz/require.hpp"
#include "replay/foz/shared.hpp"
#include "replay/foz/stats.hpp"

namespace libtrace::foz::detail {

struct ReplayerConfig {
  const Sources* sources = nullptr;
  const ReplayDevice* device = nullptr;
  VkPipelineCache cache = VK_NULL_HANDLE;
  std::uint64_t module_budget = 256ull << 20;  // bytes of SPIR-V kept as VkShaderModules
  SharedState* shared = nullptr;               // phase reports and modules banned after a crash
  unsigned slot = 0;
  // Modules spirv-val rejected (--validate): hash -> its message.
  const std::unordered_map<std::uint64_t, std::string>* invalid_modules = nullptr;
  CompileRequired compile_required = CompileRequired::compile;
  StatsFile* stats = nullptr;  // --pipeline-stats: each pipeline's executables go here
};

class Replayer {
 public:
  explicit Replayer(const ReplayerConfig& cfg);
  ~Replayer();
  Replayer(const Replayer&) = delete;
  Replayer& operator=(const Replayer&) = delete;

  Outcome replay(const WorkItem& item, std::string& reason);

  std::size_t modules_alive() const { return modules_.size(); }
  std::uint64_t module_bytes() const { return module_bytes_; }

 private:
  struct Failure {
    Outcome outcome;
    std::string reason;
  };
  struct Key {
    Tag tag;
    std::uint64_t hash;
    bool operator==(const Key& o) const { return tag == o.tag && hash == o.hash; }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return k.hash ^ (static_cast<std::size_t>(k.tag) * 0x9e3779b97f4a7c15ull);
    }
  };
  struct Module {
    std::uint64_t handle = 0;
    std::uint64_t bytes = 0;
    std::list<std::uint64_t>::iterator lru;
  };

  const Object& parse(Tag tag, std::uint64_t hash);
  std::uint64_t resolve(Tag tag, std::uint64_t hash, int depth);
  std::uint64_t create(const Object& o, int depth);
  std::uint64_t create_module(const Object& o);
  std::uint64_t create_sampler(const Object& o);
  std::uint64_t create_pipeline(const Object& o, int depth, bool keep);
  // Resolves every reference of `o` and writes the handles into its structs;
  // modules first, whose needs join `needs`.
  void resolve_references(const Object& o, int depth, Needs& needs);
  void evict_modules();
  void set_phase(Phase p, Tag tag, std::uint64_t hash);

  ReplayerConfig cfg_;
  VkDevice device_;
  const bool cache_control_;   // pipelineCreationCacheControl is enabled
  bool cache_missed_ = false;  // the pipeline being replayed was not in the cache
  const bool stats_;           // statistics wanted, and the device can tell them
  bool stats_failed_ = false;
  Arena arena_;
  std::vector<std::uint8_t> payload_;
  std::unordered_map<Key, std::uint64_t, KeyHash> objects_;  // samplers, layouts, render passes, parents
  std::unordered_map<Key, Failure, KeyHash> failures_;
  std::unordered_map<std::uint64_t, Module> modules_;
  std::unordered_map<std::uint64_t, std::vector<std::string_view>> module_needs_;
  std::list<std::uint64_t> lru_;  // front = most recent
  std::uint64_t module_bytes_ = 0;
  std::vector<VkSamplerYcbcrConversion> conversions_;
  std::vector<Key> creation_order_;  // non-pipeline objects, destroyed in reverse
  std::deque<Key> kept_;             // parent pipelines alive, oldest first
  std::deque<Object> parsed_;        // this pipeline's objects (their structs are in arena_)
};

}  // namespace libtrace::foz::detail
