// SPDX-License-Identifier: MIT
// The PhysicalDeviceFeatures2 chain of an application info: read, written and
// hashed from the one table in foz/pdf2.hpp.
#include "foz/pdf2.hpp"
#include "foz/json_in.hpp"
#include "foz/json_out.hpp"

namespace libtrace::foz::detail {

namespace {

const VkBaseInStructure* read_pdf2_struct(const Node& n, VkStructureType s) {
  const Pdf2Struct* d = find_pdf2(s);
  if (!d) return nullptr;
  // Every feature member is required, and nothing else may be there.
  if (n.value().MemberCount() != d->fields.size() + 1) {
    for (const Pdf2Field& f : d->fields) n.at(f.name);
    n.fail("unknown member besides sType and the " + std::to_string(d->fields.size()) + " features");
  }
  void* st = n.ctx().arena.allocate(d->size, alignof(VkBaseOutStructure));
  static_cast<VkBaseOutStructure*>(st)->sType = s;
  for (const Pdf2Field& f : d->fields) pdf2_field(st, f) = n.u32(f.name);
  return static_cast<const VkBaseInStructure*>(st);
}

}  // namespace

void* read_pdf2_pnext(const Node& parent) {
  return read_chain(parent, "a physical device features chain", read_pdf2_struct);
}

void write_pdf2_pnext(Out& o, const void* p) {
  if (!p) return;
  o.begin_array("pNext");
  for (auto* s = static_cast<const VkBaseInStructure*>(p); s; s = s->pNext) {
    const Pdf2Struct* d = find_pdf2(s->sType);
    if (!d)
      fail(o.where(), "cannot write a physical device features struct with unknown sType " + std::to_string(s->sType));
    o.begin_object();
    o.u32("sType", s->sType);
    for (const Pdf2Field& f : d->fields) o.u32(f.name, pdf2_field(s, f));
    o.end_object();
  }
  o.end_array();
}

void hash_pdf2_chain(Hasher& h, const void* p) {
  for (auto* s = static_cast<const VkBaseInStructure*>(p); s; s = s->pNext) {
    const Pdf2Struct* d = find_pdf2(s->sType);
    // Fossilize keeps only these structs; any other is skipped, not hashed.
    if (!d) continue;
    h.s32(s->sType);
    for (std::size_t i : d->hash_order) h.u32(pdf2_field(s, d->fields[i]));
  }
}

}  // namespace libtrace::foz::detail

namespace libtrace::foz {

Object application_object(const VkApplicationInfo* app, const VkDeviceCreateInfo& device, Arena& arena) {
  using namespace detail;
  Object o;
  o.tag = Tag::application_info;
  if (app) {
    auto* a = arena.make<VkApplicationInfo>();
    *a = *app;
    a->pNext = nullptr;  // Fossilize records none
    if (app->pApplicationName) a->pApplicationName = arena.copy_string(app->pApplicationName);
    if (app->pEngineName) a->pEngineName = arena.copy_string(app->pEngineName);
    o.application = a;
  }
  auto* features = arena.make<VkPhysicalDeviceFeatures2>();
  features->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  if (const auto* f = find_pnext<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, device.pNext))
    features->features = f->features;
  else if (device.pEnabledFeatures)
    features->features = *device.pEnabledFeatures;
  auto** tail = reinterpret_cast<VkBaseOutStructure**>(&features->pNext);
  for (auto* s = static_cast<const VkBaseInStructure*>(device.pNext); s; s = s->pNext) {
    const Pdf2Struct* d = find_pdf2(s->sType);
    if (!d) continue;
    auto* copy = static_cast<VkBaseOutStructure*>(arena.allocate(d->size, alignof(VkBaseOutStructure)));
    std::memcpy(copy, s, d->size);
    copy->pNext = nullptr;
    *tail = copy;
    tail = &copy->pNext;
  }
  o.features = features;
  o.hash = hash_application_info(o.application, o.features, "application info");
  return o;
}

}  // namespace libtrace::foz
