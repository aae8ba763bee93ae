#include "registry/registry.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

using namespace libtrace::registry;

namespace {

const Struct& must_struct(std::string_view name) {
  const Struct* s = find_struct(name);
  REQUIRE_MESSAGE(s != nullptr, std::string(name));
  return *s;
}

const Member& must_member(const Struct& s, std::string_view name) {
  const Member* m = find_member(s, name);
  REQUIRE_MESSAGE(m != nullptr, (std::string(s.name()) + "::" + std::string(name)));
  return *m;
}

const FormatInfo& must_format(VkFormat format) {
  const FormatInfo* f = find_format(format);
  REQUIRE(f);
  return *f;
}

// Checks that a table is sorted by name and finds each entry by its name
// with `find`, then calls `check` on each entry.
template <class Table, class Find, class Check>
void each_entry(const Table& all, Find find, Check check) {
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& x = all[i];
    CAPTURE(x.name());
    if (i > 0) CHECK(std::string_view(all[i - 1].name()) < std::string_view(x.name()));
    CHECK(find(x.name()) == &x);
    check(x);
  }
}

std::string_view sv(const char* s) { return s ? std::string_view(s) : std::string_view("(null)"); }

}  // namespace

TEST_CASE("registry: counts cover Vulkan 1.3 and the core-header extensions") {
  // vk.xml 1.3.239: 790 structs/unions, 578 command names, 263 enums/bitmasks.
  CHECK(structs().size() >= 780);
  CHECK(commands().size() >= 570);
  CHECK(enums().size() >= 250);
}

TEST_CASE("registry: vertex divisor state, members and their metadata") {
  using S = VkPipelineVertexInputDivisorStateCreateInfoEXT;
  const Struct& s = must_struct("VkPipelineVertexInputDivisorStateCreateInfoEXT");
  CHECK(s.size == sizeof(S));
  CHECK(s.align == alignof(S));
  CHECK(s.s_type == VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT);
  CHECK_FALSE(s.is_union);
  CHECK_FALSE(s.returned_only);
  REQUIRE(s.members().size() == 4);
  CHECK(sv(s.members()[0].name()) == "sType");
  CHECK(sv(s.members()[1].name()) == "pNext");
  CHECK(sv(s.members()[2].name()) == "vertexBindingDivisorCount");
  CHECK(sv(s.members()[3].name()) == "pVertexBindingDivisors");
  CHECK(s.members()[0].offset == offsetof(S, sType));
  CHECK(s.members()[1].offset == offsetof(S, pNext));
  CHECK(s.members()[2].offset == offsetof(S, vertexBindingDivisorCount));
  CHECK(s.members()[3].offset == offsetof(S, pVertexBindingDivisors));
  CHECK(s.members()[0].type == Type::enum_);
  CHECK(s.members()[0].enum_info() == find_enum("VkStructureType"));
  CHECK(s.members()[1].type == Type::pnext);
  CHECK(s.members()[2].type == Type::u32);
  CHECK(s.members()[2].len() == nullptr);
  CHECK(s.members()[2].nested() == nullptr);
  CHECK(s.members()[2].enum_info() == nullptr);
  CHECK(sv(s.members()[2].type_name()) == "uint32_t");

  const Member& p = s.members()[3];
  CHECK(p.type == Type::struct_);
  CHECK(p.size == sizeof(void*));
  CHECK(p.pointer_depth == 1);
  CHECK(p.is_const);
  CHECK(p.len_member == 2);
  CHECK(sv(p.len()) == "vertexBindingDivisorCount");
  CHECK(sv(p.type_name()) == "VkVertexInputBindingDivisorDescriptionEXT");
  CHECK(p.nested() == find_struct("VkVertexInputBindingDivisorDescriptionEXT"));
  REQUIRE(p.nested() != nullptr);
  CHECK(p.nested()->size == sizeof(VkVertexInputBindingDivisorDescriptionEXT));
  CHECK(p.nested()->s_type == -1);

  REQUIRE(s.extends().size() == 1);
  CHECK(sv(s.extends()[0]) == "VkPipelineVertexInputStateCreateInfo");
  CHECK(must_struct("VkPipelineVertexInputStateCreateInfo").extends().empty());
  std::string all;
  for (const char* x : must_struct("VkPhysicalDeviceVulkan13Features").extends()) all += std::string(x) + ' ';
  CHECK(all == "VkPhysicalDeviceFeatures2 VkDeviceCreateInfo ");
}

TEST_CASE("registry: find_struct by sType and by alias name") {
  const Struct* s = find_struct(VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO);
  REQUIRE(s != nullptr);
  CHECK(sv(s->name()) == "VkRenderPassMultiviewCreateInfo");
  CHECK(find_struct("VkRenderPassMultiviewCreateInfoKHR") == s);
  CHECK(find_struct("VkPhysicalDeviceFeatures2KHR") == find_struct("VkPhysicalDeviceFeatures2"));

  // Added by VK_EXT_mesh_shader: the extension-number rule gives 1000328000.
  CHECK(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT == 1000328000);
  const Struct* mesh = find_struct(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT);
  REQUIRE(mesh != nullptr);
  CHECK(sv(mesh->name()) == "VkPhysicalDeviceMeshShaderFeaturesEXT");

  CHECK(find_struct(static_cast<VkStructureType>(12345)) == nullptr);
  CHECK(find_struct("VkNoSuchStruct") == nullptr);
  CHECK(find_struct("") == nullptr);
}

TEST_CASE("registry: fixed arrays, strings and scalar type mapping") {
  const Member& bc = must_member(must_struct("VkPipelineColorBlendStateCreateInfo"), "blendConstants");
  CHECK(bc.type == Type::f32);
  CHECK(bc.fixed_count == 4);
  CHECK(bc.pointer_depth == 0);
  CHECK(bc.size == sizeof(float) * 4);
  CHECK(bc.offset == offsetof(VkPipelineColorBlendStateCreateInfo, blendConstants));

  const Member& dn = must_member(must_struct("VkPhysicalDeviceProperties"), "deviceName");
  CHECK(dn.type == Type::char_ptr);
  CHECK(dn.pointer_depth == 0);
  CHECK(dn.fixed_count == VK_MAX_PHYSICAL_DEVICE_NAME_SIZE);

  const Struct& ici = must_struct("VkInstanceCreateInfo");
  const Member& names = must_member(ici, "ppEnabledExtensionNames");
  CHECK(names.type == Type::char_ptr);
  CHECK(names.pointer_depth == 2);
  CHECK(names.is_const);
  CHECK(sv(names.len()) == "enabledExtensionCount,null-terminated");
  REQUIRE(names.len_member >= 0);
  CHECK(sv(ici.members()[static_cast<std::size_t>(names.len_member)].name()) == "enabledExtensionCount");
  CHECK(must_member(must_struct("VkApplicationInfo"), "pApplicationName").type == Type::char_ptr);

  const Member& code = must_member(must_struct("VkShaderModuleCreateInfo"), "pCode");
  CHECK(sv(code.len()) == "codeSize / 4");  // altlen wins over the latexmath len
  CHECK(code.len_member == -1);
  CHECK(code.type == Type::u32);

  const Member& m = must_member(must_struct("VkTransformMatrixKHR"), "matrix");
  CHECK(m.fixed_count == 12);
  CHECK(m.size == sizeof(float) * 12);

  CHECK(must_member(must_struct("VkPhysicalDeviceFeatures"), "robustBufferAccess").type == Type::bool32);
  CHECK(must_member(must_struct("VkBufferCreateInfo"), "size").type == Type::u64);
  CHECK(must_member(must_struct("VkBufferDeviceAddressCreateInfoEXT"), "deviceAddress").type == Type::u64);
  CHECK(must_member(must_struct("VkPipelineCacheCreateInfo"), "initialDataSize").type == Type::size);
  CHECK(must_member(must_struct("VkPipelineCacheCreateInfo"), "pInitialData").type == Type::void_ptr);
  CHECK(must_member(must_struct("VkOffset2D"), "x").type == Type::s32);
  CHECK(must_member(must_struct("VkDescriptorBufferInfo"), "buffer").type == Type::handle);
  CHECK(must_member(must_struct("VkDeviceQueueCreateInfo"), "pQueuePriorities").type == Type::f32);
  CHECK(must_member(must_struct("VkAllocationCallbacks"), "pfnAllocation").type == Type::function_ptr);
  CHECK(must_member(must_struct("VkImportMemoryFdInfoKHR"), "fd").type == Type::s32);
  CHECK(must_member(must_struct("VkPhysicalDeviceFeatures2"), "pNext").type == Type::pnext);
  CHECK_FALSE(must_member(must_struct("VkPhysicalDeviceFeatures2"), "pNext").is_const);

  const Member& gp = must_member(must_struct("VkGraphicsPipelineCreateInfo"), "pStages");
  CHECK(gp.nested() == find_struct("VkPipelineShaderStageCreateInfo"));
  const Member& name = must_member(must_struct("VkPipelineShaderStageCreateInfo"), "pName");
  CHECK(name.type == Type::char_ptr);
  CHECK(sv(name.len()) == "null-terminated");
}

TEST_CASE("registry: unions") {
  const Struct& cv = must_struct("VkClearValue");
  CHECK(cv.is_union);
  CHECK(cv.size == sizeof(VkClearValue));
  const Member& color = must_member(cv, "color");
  CHECK(color.offset == 0);
  CHECK(color.type == Type::union_);
  CHECK(color.nested() == find_struct("VkClearColorValue"));
  CHECK(must_member(cv, "depthStencil").type == Type::struct_);
}

TEST_CASE("registry: bitfields of VkAccelerationStructureInstanceKHR") {
  const Struct& s = must_struct("VkAccelerationStructureInstanceKHR");
  const Member& index = must_member(s, "instanceCustomIndex");
  const Member& mask = must_member(s, "mask");
  const Member& flags = must_member(s, "flags");
  CHECK(index.bit_width == 24);
  CHECK(mask.bit_width == 8);
  CHECK(flags.bit_width == 8);
  CHECK(flags.type == Type::bitmask);
  CHECK(flags.enum_info() == find_enum("VkGeometryInstanceFlagBitsKHR"));
  CHECK(must_member(s, "accelerationStructureReference").bit_width == 0);
  CHECK(must_member(s, "accelerationStructureReference").offset ==
        offsetof(VkAccelerationStructureInstanceKHR, accelerationStructureReference));

  // The offsets and bit positions must find what the compiler stored.
  VkAccelerationStructureInstanceKHR v{};
  v.instanceCustomIndex = 0x123456;
  v.mask = 0xA5;
  v.instanceShaderBindingTableRecordOffset = 0x00BEEF;
  v.flags = 0x3C;
  auto field = [&](const Member& m) {
    std::uint32_t unit = 0;
    std::memcpy(&unit, reinterpret_cast<const char*>(&v) + m.offset, sizeof unit);
    return (unit >> m.bit_offset) & ((1u << m.bit_width) - 1u);
  };
  CHECK(field(index) == 0x123456u);
  CHECK(field(mask) == 0xA5u);
  CHECK(field(must_member(s, "instanceShaderBindingTableRecordOffset")) == 0x00BEEFu);
  CHECK(field(flags) == 0x3Cu);
}

TEST_CASE("registry: enums, bitmasks, values and aliases") {
  const Enum* format = find_enum("VkFormat");
  REQUIRE(format != nullptr);
  CHECK_FALSE(format->bitmask);
  CHECK(format->flags_name() == nullptr);
  CHECK(sv(enum_value_name(*format, 37)) == "VK_FORMAT_R8G8B8A8_UNORM");
  CHECK(enum_value_name(*format, 37) != nullptr);
  CHECK(enum_value_name(*format, 999999) == nullptr);
  // An extension value whose promoted core name came later: the core name wins.
  CHECK(sv(enum_value_name(*format, VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK)) == "VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK");
  const EnumValue* ext = find_enum_value(*format, "VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK_EXT");
  REQUIRE(ext != nullptr);
  CHECK(ext->alias);
  CHECK(ext->value == VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK);

  const Enum* st = find_enum("VkStructureType");
  REQUIRE(st != nullptr);
  CHECK(sv(enum_value_name(*st, 1000328000)) == "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT");
  CHECK(sv(enum_value_name(*st, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES)) ==
        "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES");
  // dir="-" values are negative.
  const Enum* result = find_enum("VkResult");
  REQUIRE(result != nullptr);
  CHECK(sv(enum_value_name(*result, VK_ERROR_OUT_OF_DATE_KHR)) == "VK_ERROR_OUT_OF_DATE_KHR");
  CHECK(VK_ERROR_OUT_OF_DATE_KHR < 0);
  // Platform extensions' enumerants are in vulkan_core.h; provisional ones are not.
  CHECK(find_enum_value(*st, "VK_STRUCTURE_TYPE_WIN32_SURFACE_CREATE_INFO_KHR") != nullptr);
  CHECK(find_enum_value(*st, "VK_STRUCTURE_TYPE_VIDEO_ENCODE_INFO_KHR") == nullptr);

  const Enum* cull = find_enum("VkCullModeFlags");
  REQUIRE(cull != nullptr);
  CHECK(cull == find_enum("VkCullModeFlagBits"));
  CHECK(cull->bitmask);
  CHECK_FALSE(cull->is_64bit);
  CHECK(sv(cull->flags_name()) == "VkCullModeFlags");
  CHECK(sv(enum_value_name(*cull, VK_CULL_MODE_FRONT_AND_BACK)) == "VK_CULL_MODE_FRONT_AND_BACK");
  CHECK(must_member(must_struct("VkPipelineRasterizationStateCreateInfo"), "cullMode").enum_info() == cull);

  const Enum* stage2 = find_enum("VkPipelineStageFlags2");
  REQUIRE(stage2 != nullptr);
  CHECK(stage2->bitmask);
  CHECK(stage2->is_64bit);
  CHECK(sv(stage2->name()) == "VkPipelineStageFlagBits2");
  CHECK(sv(enum_value_name(*stage2, static_cast<std::int64_t>(VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT))) ==
        "VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT");
  CHECK(find_enum("VkPipelineStageFlags2KHR") == stage2);

  const Enum* qp = find_enum("VkQueryPoolCreateFlags");  // reserved, no FlagBits
  REQUIRE(qp != nullptr);
  CHECK(qp->bitmask);
  CHECK(qp->values().empty());

  CHECK(find_enum("VkPointClippingBehaviorKHR") == find_enum("VkPointClippingBehavior"));
  CHECK(find_enum("VkPointClippingBehavior") != nullptr);
  CHECK(find_enum("VkNoSuchEnum") == nullptr);
}

TEST_CASE("registry: commands, parameters and aliases") {
  const Command* c = find_command("vkCreateGraphicsPipelines");
  REQUIRE(c != nullptr);
  CHECK(sv(c->return_type()) == "VkResult");
  CHECK(c->alias_of() == nullptr);
  REQUIRE(c->params().size() == 6);
  CHECK(sv(c->params()[2].name()) == "createInfoCount");
  const Member& ci = c->params()[3];
  CHECK(sv(ci.name()) == "pCreateInfos");
  CHECK(ci.len_member == 2);
  CHECK(ci.nested() == find_struct("VkGraphicsPipelineCreateInfo"));
  CHECK(ci.pointer_depth == 1);
  CHECK(ci.is_const);
  CHECK(c->params()[1].optional);  // pipelineCache
  CHECK(c->params()[0].type == Type::handle);
  CHECK(c->params()[5].pointer_depth == 1);
  CHECK(c->params()[5].len_member == 2);

  const Command* alias = find_command("vkCmdDrawIndirectCountKHR");
  REQUIRE(alias != nullptr);
  REQUIRE(alias->alias_of() != nullptr);
  CHECK(sv(alias->alias_of()->name()) == "vkCmdDrawIndirectCount");
  CHECK(alias->params().data() == alias->alias_of()->params().data());

  const Command* blend = find_command("vkCmdSetBlendConstants");
  REQUIRE(blend != nullptr);
  CHECK(blend->params()[1].fixed_count == 4);

  const Command* ads = find_command("vkAllocateDescriptorSets");
  REQUIRE(ads != nullptr);
  CHECK(sv(ads->params()[2].len()) == "pAllocateInfo->descriptorSetCount");
  CHECK(ads->params()[2].len_member == -1);

  CHECK(find_command("vkGetInstanceProcAddr") != nullptr);
  CHECK(find_command("vkCmdDrawMeshTasksEXT") != nullptr);
  CHECK(find_command("vkNoSuchCommand") == nullptr);
}

TEST_CASE("registry: platform and provisional declarations are left out") {
  CHECK(find_struct("VkWin32SurfaceCreateInfoKHR") == nullptr);
  CHECK(find_struct("VkXlibSurfaceCreateInfoKHR") == nullptr);
  CHECK(find_struct("VkPhysicalDevicePortabilitySubsetFeaturesKHR") == nullptr);
  CHECK(find_struct("VkVideoEncodeInfoKHR") == nullptr);
  CHECK(find_command("vkCreateWin32SurfaceKHR") == nullptr);
  CHECK(find_command("vkCmdEncodeVideoKHR") == nullptr);
  CHECK(find_enum("VkFullScreenExclusiveEXT") == nullptr);
  // ... but the core video structs of the same header are in.
  CHECK(find_struct("VkVideoProfileInfoKHR") != nullptr);
}

TEST_CASE("registry: every table is consistent") {
  each_entry(
      structs(), [](const char* name) { return find_struct(name); },
      [](const Struct& s) {
        CHECK(s.size > 0);
        CHECK(s.align > 0);
        CHECK(s.size % s.align == 0);
        if (s.s_type >= 0) CHECK(find_struct(static_cast<VkStructureType>(s.s_type)) == &s);
        REQUIRE_FALSE(s.members().empty());
        std::uint32_t prev = 0;
        for (const Member& m : s.members()) {
          CAPTURE(m.name());
          CHECK(m.offset + m.size <= s.size);
          if (!s.is_union) {
            CHECK(m.offset >= prev);
            prev = m.offset;
          } else {
            CHECK(m.offset == 0);
          }
          CHECK(m.len_member < static_cast<std::int16_t>(s.members().size()));
          CHECK((m.nested() != nullptr) == (m.type == Type::struct_ || m.type == Type::union_));
          if (m.type == Type::enum_ || m.type == Type::bitmask) CHECK(m.enum_info() != nullptr);
          if (m.pointer_depth > 0 && m.bit_width == 0) CHECK(m.size == sizeof(void*));
          if (m.type == Type::pnext) CHECK(std::string_view(m.name()) == "pNext");
        }
        if (!s.members().empty() && std::string_view(s.members()[0].name()) == "sType" && s.s_type >= 0)
          CHECK(s.members()[0].type == Type::enum_);
      });
  each_entry(
      enums(), [](const char* name) { return find_enum(name); },
      [](const Enum& e) {
        if (e.flags_name()) CHECK(find_enum(e.flags_name()) == &e);
        for (std::size_t k = 0; k < e.values().size(); ++k) {
          const EnumValue& v = e.values()[k];
          const char* name = enum_value_name(e, v.value);
          REQUIRE(name != nullptr);
          const EnumValue* first = find_enum_value(e, name);
          REQUIRE(first != nullptr);
          CHECK(first->value == v.value);
          if (!v.alias) CHECK_FALSE(first->alias);
          if (k > 0) CHECK(e.values()[k - 1].value <= v.value);
          if (!e.is_64bit) CHECK((v.value >= INT32_MIN && v.value <= UINT32_MAX));
        }
      });
  each_entry(
      commands(), [](const char* name) { return find_command(name); },
      [](const Command& c) {
        if (c.alias_of()) {
          CHECK(c.alias_of()->alias_of() == nullptr);
          CHECK(c.alias_of()->params().data() == c.params().data());
        }
        for (const Member& p : c.params()) {
          CAPTURE(p.name());
          CHECK(p.offset == 0);
          CHECK(p.size == 0);
          CHECK(p.len_member < static_cast<std::int16_t>(c.params().size()));
          CHECK((p.nested() != nullptr) == (p.type == Type::struct_ || p.type == Type::union_));
        }
      });
}

TEST_CASE("formats: texel blocks as vk.xml's <formats> has them") {
  const FormatInfo& rgba = must_format(VK_FORMAT_R8G8B8A8_UNORM);
  CHECK(rgba.block_size == 4);
  CHECK(rgba.block_width == 1);
  CHECK(rgba.depth_bits == 0);
  const FormatInfo& d24s8 = must_format(VK_FORMAT_D24_UNORM_S8_UINT);
  CHECK(d24s8.depth_bits == 24);
  CHECK(d24s8.stencil_bits == 8);
  const FormatInfo& bc1 = must_format(VK_FORMAT_BC1_RGB_UNORM_BLOCK);
  CHECK(bc1.block_size == 8);
  CHECK(bc1.block_width == 4);
  CHECK(bc1.block_height == 4);
  CHECK(must_format(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM).planes == 2);
  CHECK(!find_format(VK_FORMAT_UNDEFINED));
  CHECK(formats().size() > 200);
}
