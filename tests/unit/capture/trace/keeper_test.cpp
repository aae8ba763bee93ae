// SPDX-License-Identifier: MIT
// What a trimmed capture keeps before its range: the calls that made what is
// alive, the destroyed objects that a kept call still names, the last write
// of each descriptor, each command buffer's current recording; written into
// a stream that apitrace's grammar reads back, each signature defined once.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "capture/trace/call.hpp"
#include "capture/trace/keeper.hpp"
#include "writer_util.hpp"

using namespace trace_test;

namespace {

std::uint64_t h(std::uintptr_t v) { return v; }

// One call kept as the layer keeps it: the enter event and the handles it
// names, then the leave details and the handles it returned.
struct Kept {
  std::uint64_t seq = 0;
  std::vector<Touched> outputs;
};

Kept keep(Keeper& k, const char* name, void** args) {
  const CommandInfo& info = command_info(name, Level::device);
  REQUIRE(info.cmd);
  std::vector<Touched> refs, outputs;
  collect_refs(&refs);
  Event e;
  put_enter(e, 0, info, args);
  collect_refs(nullptr);
  Kept out;
  out.seq = k.enter(e, info.whole, refs);
  const VkResult ok = VK_SUCCESS;
  Event details;
  collect_refs(&out.outputs);
  if (!info.whole) put_leave_details(details, info, args, info.ret == Ret::result ? &ok : nullptr);
  collect_refs(nullptr);
  k.leave(out.seq, true, info.whole ? nullptr : &details);
  return out;
}

// A call that made objects, kept as owning them (under `parent`).
void keep_created(Keeper& k, const char* name, void** args, std::uint64_t parent = 0) {
  const Kept made = keep(k, name, args);
  k.own_created(made.seq, made.outputs, parent);
  k.settle(made.seq);
}

// A call that destroyed `handle`, kept while a kept call still names it.
void keep_destroying(Keeper& k, const char* name, void** args, std::uint64_t handle) {
  const Kept gone = keep(k, name, args);
  k.destroyed(gone.seq, {handle});
  k.settle(gone.seq);
}

// A command pool (0x71) and a primary command buffer (0x70) from it, kept as
// their calls made them.
void keep_pool_and_command_buffer(Keeper& k) {
  VkDevice device = reinterpret_cast<VkDevice>(std::uintptr_t{0x1000});
  const VkAllocationCallbacks* alloc = nullptr;
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, 0, 0};
  const VkCommandPoolCreateInfo* ppci = &pci;
  VkCommandPool command_pool = reinterpret_cast<VkCommandPool>(std::uintptr_t{0x71});
  VkCommandPool* pcommand_pool = &command_pool;
  void* a0[] = {&device, &ppci, &alloc, &pcommand_pool};
  keep_created(k, "vkCreateCommandPool", a0);
  VkCommandBuffer cmd = reinterpret_cast<VkCommandBuffer>(std::uintptr_t{0x70});
  VkCommandBuffer* pcmd = &cmd;
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, command_pool,
                                  VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  const VkCommandBufferAllocateInfo* pcai = &cai;
  void* a1[] = {&device, &pcai, &pcmd};
  keep_created(k, "vkAllocateCommandBuffers", a1, h(0x71));
}

std::vector<std::string> written(Keeper& k) {
  const std::string path = temp_path();
  {
    Stream s(path, {});
    k.write(s);
    s.finish();
  }
  std::vector<std::string> names;
  for (const std::string& line : dump_all(path))
    names.push_back(line.substr(line.find(' ') + 1, line.find('(') - line.find(' ') - 1));
  ::unlink(path.c_str());
  return names;
}

}  // namespace

TEST_CASE("kept calls: what made the live objects, and what a kept call names though destroyed") {
  Keeper k;
  VkDevice device = reinterpret_cast<VkDevice>(std::uintptr_t{0x1000});
  const VkAllocationCallbacks* alloc = nullptr;
  // A shader module, a pipeline layout, a pipeline made from both; the module destroyed.
  const std::uint32_t code[] = {0x07230203, 0x00010000, 0, 1, 0};
  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, sizeof code, code};
  const VkShaderModuleCreateInfo* psmci = &smci;
  VkShaderModule module = reinterpret_cast<VkShaderModule>(std::uintptr_t{0x10});
  VkShaderModule* pmodule = &module;
  void* a1[] = {&device, &psmci, &alloc, &pmodule};
  keep_created(k, "vkCreateShaderModule", a1);

  VkPipelineCache no_cache = VK_NULL_HANDLE;
  VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                        nullptr,
                                        0,
                                        VK_SHADER_STAGE_COMPUTE_BIT,
                                        module,
                                        "main",
                                        nullptr};
  VkPipelineLayout layout = reinterpret_cast<VkPipelineLayout>(std::uintptr_t{0x11});
  VkComputePipelineCreateInfo cci{
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, nullptr, 0, stage, layout, VK_NULL_HANDLE, -1};
  std::uint32_t one = 1;
  const VkComputePipelineCreateInfo* pcci = &cci;
  VkPipeline pipeline = reinterpret_cast<VkPipeline>(std::uintptr_t{0x20});
  VkPipeline* ppipeline = &pipeline;
  void* a2[] = {&device, &no_cache, &one, &pcci, &alloc, &ppipeline};
  keep_created(k, "vkCreateComputePipelines", a2);

  void* a3[] = {&device, &module, &alloc};
  keep_destroying(k, "vkDestroyShaderModule", a3, h(0x10));

  // A buffer made and destroyed: gone without a trace.
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                         nullptr,
                         0,
                         256,
                         VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                         VK_SHARING_MODE_EXCLUSIVE,
                         0,
                         nullptr};
  const VkBufferCreateInfo* pbci = &bci;
  VkBuffer buffer = reinterpret_cast<VkBuffer>(std::uintptr_t{0x30});
  VkBuffer* pbuffer = &buffer;
  void* a4[] = {&device, &pbci, &alloc, &pbuffer};
  keep_created(k, "vkCreateBuffer", a4);
  void* a5[] = {&device, &buffer, &alloc};
  keep_destroying(k, "vkDestroyBuffer", a5, h(0x30));

  CHECK(written(k) ==
        std::vector<std::string>{"vkCreateShaderModule", "vkCreateComputePipelines", "vkDestroyShaderModule"});

  // A new buffer at the old handle's value is an object of its own.
  keep_created(k, "vkCreateBuffer", a4);
  CHECK(written(k).size() == 4);

  // With the pipeline gone, nothing names the module: all of it goes.
  void* a6[] = {&device, &pipeline, &alloc};
  keep_destroying(k, "vkDestroyPipeline", a6, h(0x20));
  CHECK(written(k) == std::vector<std::string>{"vkCreateBuffer"});
  CHECK(k.calls() == 1);
}

TEST_CASE("kept calls: the last write of each descriptor, and a command buffer's current recording") {
  Keeper k;
  VkDevice device = reinterpret_cast<VkDevice>(std::uintptr_t{0x1000});
  const VkAllocationCallbacks* alloc = nullptr;
  // A set to write (as if vkAllocateDescriptorSets had made it).
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr,
                                 reinterpret_cast<VkDescriptorPool>(std::uintptr_t{0x40}), 1, nullptr};
  VkDescriptorSetLayout set_layout = reinterpret_cast<VkDescriptorSetLayout>(std::uintptr_t{0x41});
  ai.pSetLayouts = &set_layout;
  const VkDescriptorSetAllocateInfo* pai = &ai;
  VkDescriptorSet set = reinterpret_cast<VkDescriptorSet>(std::uintptr_t{0x50});
  VkDescriptorSet* pset = &set;
  void* a1[] = {&device, &pai, &pset};
  keep_created(k, "vkAllocateDescriptorSets", a1);
  // Binding 0 written twice, binding 1 once: the first write of binding 0 goes.
  VkDescriptorBufferInfo bi{reinterpret_cast<VkBuffer>(std::uintptr_t{0x60}), 0, 16};
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0,      0, 1,
                         VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,      nullptr, &bi, nullptr};
  std::uint32_t one = 1, none = 0;
  const VkWriteDescriptorSet* pw = &w;
  const VkCopyDescriptorSet* no_copies = nullptr;
  void* a2[] = {&device, &one, &pw, &none, &no_copies};
  std::vector<std::uint64_t> writes;
  for (const std::uint32_t binding : {0u, 1u, 0u}) {
    w.dstBinding = binding;
    const Kept u = keep(k, "vkUpdateDescriptorSets", a2);
    k.own_by_slots(u.seq, h(0x50), {std::uint64_t{binding} << 32});
    k.settle(u.seq);
    writes.push_back(u.seq);
  }
  CHECK(written(k).size() == 3);  // the set and two writes

  // A command buffer's recording, then a second one: only the second stays.
  keep_pool_and_command_buffer(k);
  VkCommandPool command_pool = reinterpret_cast<VkCommandPool>(std::uintptr_t{0x71});
  VkCommandBuffer cmd = reinterpret_cast<VkCommandBuffer>(std::uintptr_t{0x70});
  for (const std::uint32_t count : {3u, 4u}) {
    std::uint32_t zero = 0;
    void* draw[] = {&cmd, const_cast<std::uint32_t*>(&count), &one, &zero, &zero};
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, 0, nullptr};
    const VkCommandBufferBeginInfo* pbegin = &begin;
    void* b[] = {&cmd, &pbegin};
    k.end_recording(h(0x70));
    for (const auto& [name, args] : {std::pair<const char*, void**>{"vkBeginCommandBuffer", b}, {"vkCmdDraw", draw}}) {
      const Kept r = keep(k, name, args);
      k.own_by_recording(r.seq, h(0x70));
      k.settle(r.seq);
    }
  }
  const std::vector<std::string> names = written(k);
  REQUIRE(names.size() == 7);
  CHECK(names[4] == "vkAllocateCommandBuffers");
  CHECK(names[5] == "vkBeginCommandBuffer");
  CHECK(names[6] == "vkCmdDraw");
  // vkResetCommandPool: the pool's command buffers' recordings end.
  k.end_recordings_of_children(h(0x71));
  CHECK(written(k).size() == 5);
  // vkFreeDescriptorSets: the set and its writes go.
  VkDescriptorPool pool = reinterpret_cast<VkDescriptorPool>(std::uintptr_t{0x40});
  void* a4[] = {&device, &pool, &one, &pset};
  keep_destroying(k, "vkFreeDescriptorSets", a4, h(0x50));
  CHECK(written(k) == std::vector<std::string>{"vkCreateCommandPool", "vkAllocateCommandBuffers"});
  // vkDestroyCommandPool: its command buffers go with it.
  void* a5[] = {&device, &command_pool, &alloc};
  keep_destroying(k, "vkDestroyCommandPool", a5, h(0x71));
  CHECK(written(k).empty());
  CHECK(k.calls() == 0);
}

TEST_CASE("kept calls: a command with nothing to return is kept whole, by its recording, in one step") {
  Keeper k;
  VkDevice device = reinterpret_cast<VkDevice>(std::uintptr_t{0x1000});
  const VkAllocationCallbacks* alloc = nullptr;
  keep_pool_and_command_buffer(k);
  VkCommandPool command_pool = reinterpret_cast<VkCommandPool>(std::uintptr_t{0x71});
  VkCommandBuffer cmd = reinterpret_cast<VkCommandBuffer>(std::uintptr_t{0x70});

  // As the layer's keep_enter() keeps vkCmdDraw.
  const CommandInfo& draw = command_info("vkCmdDraw", Level::device);
  REQUIRE(draw.whole);
  const auto record = [&](VkCommandBuffer into, std::uint32_t count) {
    std::uint32_t one = 1, zero = 0;
    void* args[] = {&into, &count, &one, &zero, &zero};
    std::vector<Touched> refs;
    collect_refs(&refs);
    Event e;
    put_enter(e, 0, draw, args);
    collect_refs(nullptr);
    return k.record(e, refs, h(reinterpret_cast<std::uintptr_t>(into)));
  };
  // Into a command buffer the keeper does not know: nothing is kept.
  CHECK(record(reinterpret_cast<VkCommandBuffer>(std::uintptr_t{0x99}), 1) == 0);
  CHECK(k.calls() == 2);

  // Three recordings one after the other: only the last stays, in order.
  for (const std::uint32_t n : {2u, 3u, 1u}) {
    k.end_recording(h(0x70));
    for (std::uint32_t i = 0; i < n; ++i) CHECK(record(cmd, i + 3) != 0);
  }
  CHECK(written(k) == std::vector<std::string>{"vkCreateCommandPool", "vkAllocateCommandBuffers", "vkCmdDraw"});
  // vkResetCommandPool ends it too, and a new one after that is kept again.
  k.end_recordings_of_children(h(0x71));
  CHECK(k.calls() == 2);
  CHECK(record(cmd, 7) != 0);
  CHECK(k.calls() == 3);
  // vkDestroyCommandPool: the command buffer and its recording go.
  void* a2[] = {&device, &command_pool, &alloc};
  keep_destroying(k, "vkDestroyCommandPool", a2, h(0x71));
  CHECK(k.calls() == 0);
}
