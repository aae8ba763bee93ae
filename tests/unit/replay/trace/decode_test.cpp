// SPDX-License-Identifier: MIT
// The replay's decoder against the capture's encoder: a call encoded,
// decoded back into C structs and encoded again reads the same; handles go
// through the map; what a damaged stream puts under the wrong member, or an
// array shorter than its count, is a problem, not a value for the driver;
// the memory types the application saw tell what each object needs.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "capture/trace/writer_util.hpp"
#include "replay/trace/decode.hpp"
#include "replay/trace/replayer.hpp"

using namespace libtrace;
using namespace trace_test;
namespace rt = libtrace::replay_trace;

namespace {

// One call as the capture's encoder writes it, parsed back (its blobs kept
// or not), to be decoded or damaged by the test: the parser stays, since
// the call's signatures live in it.
struct Recorded {
  Recorded(const char* command, void** args, bool keep_blob_data = false)
      : path(written(command, args)), in(path), parser(open_decoder(in), in.name(), options(keep_blob_data)) {
    const apitrace::Call* c = parser.next();
    REQUIRE(c);
    call = *c;
  }
  ~Recorded() { ::unlink(path.c_str()); }
  static std::string written(const char* command, void** args) {
    const std::string file = temp_path();
    Stream s(file, {});
    write_call(s, command, args);
    s.finish();
    return file;
  }
  static apitrace::ParserOptions options(bool keep_blob_data) {
    apitrace::ParserOptions o;
    o.keep_blob_data = keep_blob_data;
    return o;
  }
  std::string path;
  InputFile in;
  apitrace::Parser parser;
  apitrace::Call call;
};

// Every handle in `call` mapped to itself.
rt::HandleMap same_handles(const apitrace::Call& call) {
  rt::HandleMap handles;
  for (const apitrace::Value& v : call.values)
    if (v.kind == apitrace::Kind::pointer) handles.set(v.num.u, v.num.u);
  return handles;
}

// What decoding a damaged `call` of `command`'s parameters reports.
std::vector<std::string> decode_problems(const apitrace::Call& call, const rt::HandleMap& handles,
                                         const char* command) {
  rt::Arena arena;
  rt::CallDecoder d(call, arena, handles);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(registry::find_command(command)->params(), slots, ptrs);
  return d.problems();
}

// Encodes the call `args` makes, decodes it into fresh slots (handles mapped
// to themselves), encodes those again; returns both dumps.
std::pair<std::string, std::string> round_trip(const char* command, void** args,
                                               std::vector<std::string>* problems = nullptr) {
  const registry::Command* cmd = registry::find_command(command);
  REQUIRE(cmd);
  const Recorded first(command, args, true);
  rt::HandleMap handles = same_handles(first.call);
  rt::Arena arena;
  rt::CallDecoder d(first.call, arena, handles);
  const auto params = cmd->params();
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(params, slots, ptrs);
  if (problems) *problems = d.problems();
  // Outputs come back as storage for the driver: give them the recorded values.
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i].type != registry::Type::handle || params[i].is_const || !params[i].pointer_depth) continue;
    const auto recorded = d.handles_of(d.arg(i));
    auto* out = *reinterpret_cast<std::uint64_t**>(&slots[i]);
    for (std::size_t k = 0; out && k < recorded.size(); ++k) out[k] = recorded[k];
  }
  const std::string second = Recorded::written(command, ptrs.data());
  auto a = dump_all(first.path), b = dump_all(second);
  ::unlink(second.c_str());
  REQUIRE(a.size() == 1);
  REQUIRE(b.size() == 1);
  return {a[0], b[0]};
}

}  // namespace

TEST_CASE("a render pass's create info: nested arrays, pointers, pNext, enums and flags decode back to the same") {
  const VkAttachmentDescription att[2] = {
      {0, VK_FORMAT_B8G8R8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
       VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
       VK_IMAGE_LAYOUT_PRESENT_SRC_KHR},
      {0, VK_FORMAT_D16_UNORM, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE,
       VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
       VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL}};
  const VkAttachmentReference color{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  const VkAttachmentReference depth{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  const std::uint32_t preserve[] = {1};
  const VkSubpassDescription sub{0,       VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 1, &color, nullptr, &depth, 1,
                                 preserve};
  const VkSubpassDependency dep{VK_SUBPASS_EXTERNAL,
                                0,
                                VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                0,
                                VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                VK_DEPENDENCY_BY_REGION_BIT};
  const std::uint32_t masks[] = {0x3};
  const VkRenderPassMultiviewCreateInfo multiview{
      VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO, nullptr, 1, masks, 0, nullptr, 0, nullptr};
  const VkRenderPassCreateInfo ci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, &multiview, 0, 2, att, 1, &sub, 1, &dep};
  VkDevice device = reinterpret_cast<VkDevice>(std::uintptr_t{0xde});
  const VkRenderPassCreateInfo* pci = &ci;
  const VkAllocationCallbacks* alloc = nullptr;
  VkRenderPass rp = reinterpret_cast<VkRenderPass>(std::uintptr_t{0x77});
  VkRenderPass* out = &rp;
  void* args[] = {&device, &pci, &alloc, &out};
  const auto [a, b] = round_trip("vkCreateRenderPass", args);
  CHECK(a.find("VK_IMAGE_LAYOUT_PRESENT_SRC_KHR") != std::string::npos);
  CHECK(a.find("VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO") != std::string::npos);
  CHECK(a == b);
}

TEST_CASE("the longest pNext chains the registry allows decode back to the same") {
  // Every struct that extends the query's (or the create info's) in one
  // chain, each zeroed but for its sType: what a driver that has them all
  // would be asked. The chain nests two levels per link.
  auto chain_of = [](const char* base, std::vector<std::vector<std::max_align_t>>& storage) {
    const registry::Struct* head = registry::find_struct(base);
    REQUIRE(head);
    std::vector<const registry::Struct*> links{head};
    for (const registry::Struct& s : registry::structs())
      for (const char* e : s.extends())
        if (std::string_view(e) == head->name()) links.push_back(&s);
    VkBaseOutStructure* next = nullptr;
    for (auto it = links.rbegin(); it != links.rend(); ++it) {
      storage.emplace_back((*it)->size / sizeof(std::max_align_t) + 1);
      // Zeroed by hand: value-initializing max_align_t leaves its padding.
      std::memset(storage.back().data(), 0, storage.back().size() * sizeof(std::max_align_t));
      auto* b = reinterpret_cast<VkBaseOutStructure*>(storage.back().data());
      b->sType = static_cast<VkStructureType>((*it)->s_type);
      b->pNext = next;
      next = b;
    }
    return std::make_pair(static_cast<void*>(next), links.size());
  };
  std::vector<std::vector<std::max_align_t>> storage;
  VkPhysicalDevice gpu = reinterpret_cast<VkPhysicalDevice>(std::uintptr_t{0x9});
  auto [features, n] = chain_of("VkPhysicalDeviceFeatures2", storage);
  CHECK(n > 140);
  void* args[] = {&gpu, &features};
  const auto [a, b] = round_trip("vkGetPhysicalDeviceFeatures2", args);
  CHECK(a.find("VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES") != std::string::npos);
  CHECK(a == b);
  auto [create, m] = chain_of("VkDeviceCreateInfo", storage);
  CHECK(m > 150);
  const VkAllocationCallbacks* alloc = nullptr;
  VkDevice dev = reinterpret_cast<VkDevice>(std::uintptr_t{0x77});
  VkDevice* out = &dev;
  void* cargs[] = {&gpu, &create, &alloc, &out};
  const auto [c, d] = round_trip("vkCreateDevice", cargs);
  CHECK(c == d);
}

TEST_CASE("fixed arrays, strings, blobs and parameters declared as arrays decode back to the same") {
  const char* layers[] = {"VK_LAYER_one", "VK_LAYER_two"};
  const char* exts[] = {"VK_KHR_surface"};
  const VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, "demo", 3, "engine", 4, VK_API_VERSION_1_3};
  const VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, nullptr, 0, &app, 2, layers, 1, exts};
  const VkInstanceCreateInfo* pci = &ci;
  const VkAllocationCallbacks* alloc = nullptr;
  VkInstance inst = reinterpret_cast<VkInstance>(std::uintptr_t{0x11});
  VkInstance* out = &inst;
  void* a1[] = {&pci, &alloc, &out};
  const auto [x, y] = round_trip("vkCreateInstance", a1);
  CHECK(x.find("\"VK_LAYER_two\"") != std::string::npos);
  CHECK(x == y);

  VkCommandBuffer cmd = reinterpret_cast<VkCommandBuffer>(std::uintptr_t{0xc0});
  const float constants[4] = {0.25f, 0.5f, -1.0f, 3.0e-9f};
  const float* pc = constants;
  void* a2[] = {&cmd, &pc};
  const auto [p, q] = round_trip("vkCmdSetBlendConstants", a2);
  CHECK(p == q);

  VkBuffer dst = reinterpret_cast<VkBuffer>(std::uintptr_t{0xb});
  VkDeviceSize offset = 16, size = 5;
  const char bytes[] = "hello";
  const void* data = bytes;
  void* a3[] = {&cmd, &dst, &offset, &size, &data};
  const auto [u, v] = round_trip("vkCmdUpdateBuffer", a3);
  CHECK(u.find("pData = blob(5)") != std::string::npos);
  CHECK(u == v);
}

TEST_CASE("an array shorter than its count and a handle the replay never made are problems") {
  // descriptorWriteCount says 3, the array holds 1: a damaged stream.
  const VkDescriptorBufferInfo info{reinterpret_cast<VkBuffer>(std::uintptr_t{0xb0}), 0, 64};
  const VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                   nullptr,
                                   reinterpret_cast<VkDescriptorSet>(std::uintptr_t{0x5e}),
                                   0,
                                   0,
                                   1,
                                   VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                   nullptr,
                                   &info,
                                   nullptr};
  VkDevice device = reinterpret_cast<VkDevice>(std::uintptr_t{0xde});
  std::uint32_t count = 1, none = 0;
  const VkWriteDescriptorSet* pw = &write;
  const VkCopyDescriptorSet* pc = nullptr;
  void* args[] = {&device, &count, &pw, &none, &pc};
  std::vector<std::string> problems;
  round_trip("vkUpdateDescriptorSets", args, &problems);
  CHECK(problems.empty());

  Recorded rec("vkUpdateDescriptorSets", args);
  apitrace::Call damaged = rec.call;
  damaged.values[damaged.args[1]].num.u = 3;  // descriptorWriteCount
  rt::HandleMap handles;                      // knows nothing: every handle is one the replay never made
  bool short_array = false, unknown_handle = false;
  for (const std::string& s : decode_problems(damaged, handles, "vkUpdateDescriptorSets")) {
    short_array =
        short_array || s.find("pDescriptorWrites holds 1 for a descriptorWriteCount of 3") != std::string::npos;
    unknown_handle = unknown_handle || s.find("VkDevice the replay never made") != std::string::npos;
  }
  CHECK(short_array);
  CHECK(unknown_handle);
}

TEST_CASE("the handle map: null stays null, unknown handles are reported") {
  rt::HandleMap m;
  bool missing = false;
  CHECK(m.get(0, &missing) == 0);
  CHECK(!missing);
  CHECK(m.get(0x1234, &missing) == 0);
  CHECK(missing);
  m.set(0x1234, 0x9);
  missing = false;
  CHECK(m.get(0x1234, &missing) == 0x9);
  CHECK(!missing);
  m.set(0, 0x5);  // VK_NULL_HANDLE is never mapped
  CHECK(m.get(0) == 0);
  m.erase(0x1234);
  CHECK(!m.has(0x1234));
}

TEST_CASE("the memory types the application saw tell what each object needs") {
  rt::CaptureDevice lavapipe;
  lavapipe.known = true;
  lavapipe.real.memoryTypeCount = 1;
  lavapipe.real.memoryTypes[0].propertyFlags =
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
      VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  lavapipe.to_real = {0, 0};
  CHECK(lavapipe.shown_flags(0) == VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  CHECK(lavapipe.shown_flags(1) == (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                                    VK_MEMORY_PROPERTY_HOST_CACHED_BIT));
  CHECK(lavapipe.shown_flags(2) == 0);  // no such type
  rt::CaptureDevice plain;
  plain.known = true;
  plain.real.memoryTypeCount = 2;
  plain.real.memoryTypes[0].propertyFlags = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  plain.real.memoryTypes[1].propertyFlags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  plain.to_real = {0, 1};
  CHECK(plain.shown_flags(1) == VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
}

namespace {

// The problems of a call encoded from `args`, then damaged by `damage` (a
// value of the parsed call changed, as a flipped byte would).
std::vector<std::string> damaged_problems(const char* command, void** args,
                                          void (*damage)(apitrace::Call&, rt::CallDecoder&)) {
  Recorded r(command, args, true);
  apitrace::Call& call = r.call;
  rt::HandleMap handles = same_handles(call);
  rt::Arena arena;
  {
    rt::CallDecoder probe(call, arena, handles);
    damage(call, probe);
  }
  rt::CallDecoder d(call, arena, handles);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(registry::find_command(command)->params(), slots, ptrs);
  return d.problems();
}

bool has(const std::vector<std::string>& problems, std::string_view what) {
  for (const std::string& s : problems)
    if (s.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a count larger than the output array the driver writes is a problem (vkAllocateCommandBuffers)") {
  auto device = reinterpret_cast<VkDevice>(0x10);
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr,
                                 reinterpret_cast<VkCommandPool>(0x20), VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  const VkCommandBufferAllocateInfo* pai = &ai;
  VkCommandBuffer made[1] = {reinterpret_cast<VkCommandBuffer>(0x30)};
  VkCommandBuffer* out = made;
  void* args[] = {&device, &pai, &out};
  CHECK(damaged_problems("vkAllocateCommandBuffers", args, [](apitrace::Call&, rt::CallDecoder&) {}).empty());
  const auto problems = damaged_problems("vkAllocateCommandBuffers", args, [](apitrace::Call& c, rt::CallDecoder& d) {
    c.values[d.field(d.arg(1), "commandBufferCount")].num.u = 65536;
  });
  CHECK(has(problems, "pCommandBuffers holds 1 for a pAllocateInfo->commandBufferCount of 65536"));
}

TEST_CASE("a NULL array beside a count is a problem where the spec wants one, not where it may be NULL") {
  auto queue = reinterpret_cast<VkQueue>(0x10);
  const VkSemaphore wait = reinterpret_cast<VkSemaphore>(0x40);
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  const VkCommandBuffer cmd = reinterpret_cast<VkCommandBuffer>(0x30);
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 1, &wait, &stage, 1, &cmd, 0, nullptr};
  std::uint32_t one = 1;
  const VkSubmitInfo* psi = &si;
  auto fence = reinterpret_cast<VkFence>(0x50);
  void* args[] = {&queue, &one, &psi, &fence};
  CHECK(damaged_problems("vkQueueSubmit", args, [](apitrace::Call&, rt::CallDecoder&) {}).empty());
  const auto problems = damaged_problems("vkQueueSubmit", args, [](apitrace::Call& c, rt::CallDecoder& d) {
    c.values[d.field(d.arg(2), "pWaitSemaphores")].kind = apitrace::Kind::null;
  });
  CHECK(has(problems, "pWaitSemaphores holds 0 for a waitSemaphoreCount of 1"));

  // A buffer write leaves pImageInfo NULL (noautovalidity: the spec says when
  // it is read).
  auto device = reinterpret_cast<VkDevice>(0x10);
  const VkDescriptorBufferInfo bi{reinterpret_cast<VkBuffer>(0x60), 0, VK_WHOLE_SIZE};
  const VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                               nullptr,
                               reinterpret_cast<VkDescriptorSet>(0x70),
                               0,
                               0,
                               1,
                               VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                               nullptr,
                               &bi,
                               nullptr};
  const VkWriteDescriptorSet* pw = &w;
  const VkCopyDescriptorSet* none = nullptr;
  std::uint32_t zero = 0;
  void* wargs[] = {&device, &one, &pw, &zero, &none};
  CHECK(damaged_problems("vkUpdateDescriptorSets", wargs, [](apitrace::Call&, rt::CallDecoder&) {}).empty());
}

TEST_CASE("shader code shorter than its codeSize is a problem (altlen codeSize / 4)") {
  auto device = reinterpret_cast<VkDevice>(0x10);
  const std::uint32_t code[5] = {0x07230203u, 0x00010000u, 0, 1, 0};
  VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, sizeof code, code};
  const VkShaderModuleCreateInfo* pci = &ci;
  const VkAllocationCallbacks* alloc = nullptr;
  VkShaderModule made = reinterpret_cast<VkShaderModule>(0x80);
  VkShaderModule* out = &made;
  void* args[] = {&device, &pci, &alloc, &out};
  CHECK(damaged_problems("vkCreateShaderModule", args, [](apitrace::Call&, rt::CallDecoder&) {}).empty());
  const auto problems = damaged_problems("vkCreateShaderModule", args, [](apitrace::Call& c, rt::CallDecoder& d) {
    c.values[d.field(d.arg(1), "codeSize")].num.u = 1 << 20;
  });
  CHECK(has(problems, "pCode holds 5 for a codeSize / 4 of 262144"));
}

TEST_CASE("a parameter recorded under another number is missing, and the number is one the command lacks") {
  VkCommandBuffer cb = reinterpret_cast<VkCommandBuffer>(std::uintptr_t{0xcb});
  VkCullModeFlags mode = VK_CULL_MODE_BACK_BIT;
  void* args[] = {&cb, &mode};
  Recorded rec("vkCmdSetCullMode", args);
  REQUIRE(rec.call.args.size() == 2);
  apitrace::Call damaged = rec.call;
  damaged.args.resize(128, apitrace::kNil);
  std::swap(damaged.args[0], damaged.args[127]);  // commandBuffer recorded as argument 127
  rt::HandleMap handles;
  handles.set(0xcb, 0xcb);
  const std::vector<std::string> problems = decode_problems(damaged, handles, "vkCmdSetCullMode");
  REQUIRE(problems.size() == 2);
  CHECK(problems[0] == "parameter commandBuffer missing (damaged?)");
  CHECK(problems[1] == "an argument 127 the command does not have (it has 2; damaged?)");
}

TEST_CASE("a struct whose recorded signature lacks an array member its count needs is a problem") {
  // The members after commandBufferCount cut off, as a damaged signature
  // would: pCommandBuffers is NULL for a count of 1.
  VkCommandBuffer cb = reinterpret_cast<VkCommandBuffer>(std::uintptr_t{0xcb});
  const VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &cb, 0, nullptr};
  rt::Arena arena;
  rt::HandleMap handles;
  handles.set(0xcb, 0xcb);
  VkQueue queue = reinterpret_cast<VkQueue>(std::uintptr_t{0x9});
  std::uint32_t one = 1;
  const VkSubmitInfo* ps = &submit;
  VkFence fence = VK_NULL_HANDLE;
  void* args[] = {&queue, &one, &ps, &fence};
  Recorded rec("vkQueueSubmit", args);
  apitrace::Call damaged = rec.call;
  // The submit info's members, linked as the parser links them: cut the
  // chain after commandBufferCount (the sixth member).
  std::uint32_t s = damaged.args[2];
  REQUIRE(damaged.values[s].kind == apitrace::Kind::array);
  s = damaged.values[s].first;
  REQUIRE(damaged.values[s].kind == apitrace::Kind::structure);
  std::uint32_t m = damaged.values[s].first;
  for (int i = 0; i < 5; ++i) m = damaged.values[m].next;
  damaged.values[m].next = apitrace::kNil;
  rt::CallDecoder d(damaged, arena, handles);
  VkSubmitInfo out{};
  d.structure(*registry::find_struct("VkSubmitInfo"), damaged.args[2], &out);
  REQUIRE(d.problems().size() == 1);
  CHECK(d.problems()[0] == "pCommandBuffers holds 0 for a commandBufferCount of 1");
}
