// SPDX-License-Identifier: MIT
// The dialect's fixed parts: snapshot naming, trak's own calls, the sizes
// both capture and replay stride by.
#include <doctest/doctest.h>

#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "libtrace/core/error.hpp"
#include "libtrace/image/png.hpp"
#include "libtrace/vktrace/dialect.hpp"
#include "registry/registry.hpp"
#include "vktrace/calls.hpp"
#include "vktrace/values.hpp"

using namespace libtrace;

TEST_CASE("snapshot frames, folders and names") {
  CHECK(vktrace::parse_frames("1,150,300") == std::set<std::uint64_t>{1, 150, 300});
  CHECK(vktrace::parse_frames("7") == std::set<std::uint64_t>{7});
  CHECK_THROWS_AS(vktrace::parse_frames("0"), Error);
  CHECK_THROWS_AS(vktrace::parse_frames("1,,2"), Error);
  CHECK_THROWS_AS(vktrace::parse_frames("x"), Error);
  CHECK_THROWS_AS(vktrace::parse_frames(""), Error);
  CHECK(vktrace::snapshot_dir("/tmp/cube.trace") == "/tmp/cube.snapshots");
  CHECK(vktrace::snapshot_dir("cube") == "cube.snapshots");
  CHECK(image::frame_file_name(150) == "frame-000150.png");
}

TEST_CASE("trimmed captures' frame ranges and file names") {
  using Ranges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
  CHECK(vktrace::parse_frame_ranges("100-102") == Ranges{{100, 102}});
  CHECK(vktrace::parse_frame_ranges("5") == Ranges{{5, 5}});
  CHECK(vktrace::parse_frame_ranges("1-2,10-12,13") == Ranges{{1, 2}, {10, 12}, {13, 13}});
  for (const char* bad : {"", "0-3", "3-2", "1-5,5-6", "10-12,1-2", "1-", "-3", "1-2,,3", "a-b", "1--2"})
    CHECK_THROWS_AS(vktrace::parse_frame_ranges(bad), Error);
  CHECK(vktrace::range_trace_path("/tmp/cube.trace", 200) == "/tmp/cube.frames-000200.trace");
  CHECK(vktrace::range_trace_path("cube", 1234567) == "cube.frames-1234567.trace");
  CHECK(vktrace::snapshot_dir(vktrace::range_trace_path("cube.trace", 7)) == "cube.frames-000007.snapshots");
}

TEST_CASE("trak's own calls: names, arguments, ids after the registry's") {
  using vktrace::OwnCall;
  CHECK(vktrace::signature(OwnCall::physical_device).name == "trakPhysicalDevice");
  CHECK(vktrace::signature(OwnCall::update_buffer).name == "trakUpdateBuffer");
  CHECK(vktrace::signature(OwnCall::update_image).name == "trakUpdateImage");
  CHECK(vktrace::signature(OwnCall::snapshot).name == "trakSnapshot");
  CHECK(vktrace::signature(OwnCall::image_contents).name == "trakImageContents");
  CHECK(std::string_view(vktrace::signature(OwnCall::image_contents).members[vktrace::kContentsLayout]) == "layout");
  CHECK(std::string_view(vktrace::signature(vktrace::OwnStruct::image_part).members[vktrace::kPartData]) == "data");
  CHECK(vktrace::signature_id(vktrace::OwnStruct::image_part) == registry::structs().size() + 1);
  CHECK(vktrace::signature(vktrace::OwnStruct::update_run).name == "trakUpdateRun");
  CHECK(std::string_view(vktrace::signature(OwnCall::physical_device).members[vktrace::kMemoryTypes]) == "memoryTypes");
  CHECK(std::string_view(vktrace::signature(OwnCall::update_image).members[vktrace::kUpdateRuns]) == "runs");
  CHECK(std::string_view(vktrace::signature(OwnCall::snapshot).members[vktrace::kSnapshotFile]) == "file");
  CHECK(std::string_view(vktrace::signature(vktrace::OwnStruct::update_run).members[vktrace::kRunData]) == "data");
  CHECK(vktrace::signature_id(OwnCall::physical_device) == registry::commands().size());
  CHECK(vktrace::signature_id(OwnCall::snapshot) == registry::commands().size() + 3);
  CHECK(vktrace::signature_id(vktrace::OwnStruct::update_run) == registry::structs().size());
  CHECK(vktrace::find_own_call("trakUpdateImage") == OwnCall::update_image);
  CHECK(vktrace::find_own_call("trakCopyBuffer") == OwnCall::copy_buffer);
  CHECK(vktrace::signature_id(OwnCall::copy_buffer) == registry::commands().size() + 5);
  CHECK(std::string_view(vktrace::signature(OwnCall::copy_buffer).members[vktrace::kCopyRegions]) == "regions");
  CHECK(!vktrace::find_own_call("trakSomethingNewer"));
  CHECK(vktrace::is_own_name("trakSomethingNewer"));
  CHECK(!vktrace::is_own_name("vkCreateDevice"));
}

TEST_CASE("value sizes") {
  const registry::Struct* extent = registry::find_struct("VkExtent3D");
  REQUIRE(extent);
  CHECK(vktrace::scalar_size(*registry::find_member(*extent, "depth")) == 4);
  const registry::Struct* region = registry::find_struct("VkBufferImageCopy");
  REQUIRE(region);
  CHECK(vktrace::scalar_size(*registry::find_member(*region, "imageExtent")) == sizeof(VkExtent3D));
  CHECK(vktrace::scalar_size(*registry::find_member(*region, "bufferOffset")) == 8);
  // A type of another header: inline, its declared size; behind a pointer, none.
  const registry::Struct* h264 = registry::find_struct("VkVideoDecodeH264ProfileInfoKHR");
  REQUIRE(h264);
  const registry::Member& idc = *registry::find_member(*h264, "stdProfileIdc");
  CHECK(idc.type == registry::Type::other);
  CHECK(vktrace::scalar_size(idc) == idc.size);
  const registry::Struct* dpb = registry::find_struct("VkVideoDecodeH264DpbSlotInfoKHR");
  REQUIRE(dpb);
  CHECK(vktrace::scalar_size(*registry::find_member(*dpb, "pStdReferenceInfo")) == 0);
  // scalar_size() takes an inline one for a single element: no array of one.
  for (const registry::Struct& st : registry::structs())
    for (const registry::Member& m : st.members()) CHECK_FALSE((m.type == registry::Type::other && m.fixed_count));
  const registry::Struct* ci = registry::find_struct("VkInstanceCreateInfo");
  REQUIRE(ci);
  CHECK(vktrace::element_size(*registry::find_member(*ci, "ppEnabledLayerNames")) == sizeof(void*));
}

TEST_CASE("descriptor update template entries") {
  using vktrace::TemplateElement;
  CHECK(vktrace::template_element(VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) == TemplateElement::inline_bytes);
  CHECK(vktrace::template_element(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC) == TemplateElement::buffer_info);
  CHECK(vktrace::template_element(VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER) == TemplateElement::handle);
  CHECK(vktrace::template_element(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) == TemplateElement::image_info);
  CHECK(vktrace::template_element_size(TemplateElement::buffer_info) == sizeof(VkDescriptorBufferInfo));
  const VkDescriptorUpdateTemplateEntry e{2, 1, 3, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 16, 24};
  const vktrace::TemplateEntry t = vktrace::template_entry(e);
  CHECK(t.type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE);
  CHECK(t.count == 3);
  CHECK(t.offset == 16);
  CHECK(t.stride == 24);
}
