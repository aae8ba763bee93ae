// SPDX-License-Identifier: MIT
// The device replay's parts: create-infos made valid for the replay device,
// recorded memory types mapped to its types, and the replayer itself.
#pragma once

#include <map>
#include <unordered_map>
#include <unordered_set>

#include "libtrace/replay/vma/replay.hpp"

namespace libtrace::vma::detail {

// ---- Create-infos (replay/vma/resources.cpp) -----------------------------------

struct BufferSpec {
  VkBufferCreateInfo info{};
  bool adjusted = false;  // something had to change for this device
  bool valid = true;      // false: nothing can be created (size 0)
};
// From vmaCreateBuffer's columns (`n` from column 0).
BufferSpec buffer_spec(const std::vector<std::uint64_t>& n, bool device_address);

struct ImageSpec {
  VkImageCreateInfo info{};
  bool adjusted = false;
  bool supported = true;              // false: no such image on this device
  std::uint64_t estimated_bytes = 0;  // the recorded image's size, estimated
};
// From vmaCreateImage's columns, checked against the device's format
// support and limits.
ImageSpec image_spec(const std::vector<std::uint64_t>& n, const vk::PhysicalDeviceInfo& dev);

// ---- Memory types (replay/vma/types.cpp) ----------------------------------------

// VMA 2.x's required/preferred property flags for a VmaMemoryUsage.
std::pair<std::uint32_t, std::uint32_t> usage_flags(std::uint64_t usage);

class TypeMapper {
 public:
  TypeMapper(const Config& recorded, const vk::Device& device);
  bool has_recorded_types() const { return !config_.types.empty(); }
  std::size_t recorded_type_count() const { return config_.types.size(); }
  std::uint32_t recorded_flags(int rt) const;
  // The type VMA chose on the recorded device; -1 without recorded types.
  int recorded(std::uint64_t usage, std::uint64_t required, std::uint64_t preferred, std::uint64_t type_bits,
               std::uint32_t requirement_bits) const;

  struct Choice {
    int type = -1;
    bool required_unmet = false;
  };
  // The replay type among `allowed`: with a recorded type, the one with all
  // required flags that misses the fewest of the recorded type's flags (then
  // has the fewest extra); without one, VMA's own rule on this device.
  Choice choose(int rt, std::uint64_t usage, std::uint64_t required, std::uint64_t preferred, std::uint32_t allowed,
                bool allow_unmet = true) const;
  // Counts one allocation of recorded type `rt` made in `replay_type`;
  // returns whether flags were missing.
  bool count(int rt, std::uint32_t replay_type);
  std::vector<TypeMapping> mappings() const;
  std::uint32_t all_types() const { return all_; }

 private:
  const Config& config_;
  const VkPhysicalDeviceMemoryProperties& mem_;
  std::uint32_t all_ = 0;
  std::map<std::pair<int, std::uint32_t>, TypeMapping> mappings_;
};

// VmaReplay's "configuration parameters don't match", one line each.
std::vector<std::string> device_differences(const Config& recorded, const vk::Device& device);

// A recorded pointer as the recording writes it: 16 upper-case hex digits.
std::string hex(std::uint64_t p);

// ---- The replayer (replay/vma/replay.cpp, replay/vma/create.cpp) ------------------------

// What a recorded allocation pointer stands for here.
struct Live {
  vk::Allocation* a = nullptr;  // null: it failed here
  VkBuffer buffer = VK_NULL_HANDLE;
  VkImage image = VK_NULL_HANDLE;
  VkBufferCreateInfo buffer_info{};  // to recreate after defragmentation moves it
  VkImageCreateInfo image_info{};
};

struct PoolState {
  vk::Pool* pool = nullptr;  // null: its creation failed here
  int recorded_type = -1;
};

class Replayer {
 public:
  Replayer(const Header& header, const std::string& name, const vk::Device& device, const ReplayOptions& opt,
           ReplayResult& r);
  ~Replayer();
  Replayer(const Replayer&) = delete;
  Replayer& operator=(const Replayer&) = delete;

  void call(const Call& c);
  // Destroys what the recording left (counted as its leaks) and fills in
  // the allocator's numbers.
  void finish();

 private:
  struct Aci {
    std::uint64_t flags = 0, usage = 0, required = 0, preferred = 0, type_bits = 0, pool = 0;
  };
  static Aci aci_at(const std::vector<std::uint64_t>& n, std::size_t i) {
    return {n[i], n[i + 1], n[i + 2], n[i + 3], n[i + 4], n[i + 5]};
  }

  void dispatch(const Call& c);
  void warn(const Call& c, const std::string& why);
  void compromise(Compromise k, std::uint64_t n = 1) { r_.compromises[static_cast<std::size_t>(k)] += n; }
  Live* find(const Call& c, std::uint64_t ptr);

  // replay/vma/create.cpp
  void create_buffer(const Call& c);
  void create_image(const Call& c);
  void allocate_memory(const Call& c, alloc::Kind kind);
  void allocate_pages(const Call& c);
  vk::Allocation* allocate(const Call& c, const Aci& aci, vk::AllocRequest q, std::uint32_t allowed,
                           std::uint32_t recorded_requirement_bits, vk::Failure& why);
  void outcome(const Call& c, std::uint64_t ptr, Live l, vk::Failure why);
  void destroy(Live& l);
  void rebind(vk::Allocation& a);

  // replay/vma/replay.cpp
  void create_pool(const Call& c);
  void destroy_pool(const Call& c);
  void drop_pool(vk::Pool* p);
  void free_allocation(const Call& c, std::uint64_t ptr);
  void defragment(const Call& c);

  const vk::Device& dev_;
  const ReplayOptions& opt_;
  ReplayResult& r_;
  std::string name_;
  TypeMapper types_;
  vk::DeviceAllocator alloc_;
  bool device_address_ = false;
  std::unordered_map<std::uint64_t, PoolState> pools_;
  std::unordered_map<std::uint64_t, Live> live_;
  std::unordered_set<std::uint64_t> contexts_;
  std::map<std::uint32_t, std::uint64_t> per_thread_;
  double first_time_ = 0, last_time_ = 0;
  std::uint64_t printed_warnings_ = 0;
  bool finished_ = false;
};

}  // namespace libtrace::vma::detail
