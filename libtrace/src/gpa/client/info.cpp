// SPDX-License-Identifier: MIT
#include "libtrace/gpa/client/info.hpp"

#include <cstring>
#include <sstream>

#include "core/report.hpp"
#include "gpa/counters.hpp"
#include "libtrace/gpa/layer.hpp"
#include "libtrace/vk/device.hpp"

namespace libtrace::gpa::client {

namespace {

const char* block_name(VkGpaPerfBlockAMD b) {
  static constexpr const char* kNames[] = {
      "CPF", "IA",    "VGT",   "PA",  "SC",     "SPI",   "SQ",      "SX",     "TA",       "TD",
      "TCP", "TCC",   "TCA",   "DB",  "CB",     "GDS",   "SRBM",    "GRBM",   "GRBM_SE",  "RLC",
      "DMA", "MC",    "CPG",   "CPC", "WD",     "TCS",   "ATC",     "ATC_L2", "MC_VM_L2", "EA",
      "RPB", "RMI",   "UMCCH", "GE",  "GL1A",   "GL1C",  "GL1CG",   "GL2A",   "GL2C",     "CHA",
      "CHC", "CHCG",  "GUS",   "GCR", "PH",     "UTCL1", "GE_DIST", "GE_SE",  "DF_MALL",  "SQ_WGP",
      "PC",  "GL1XA", "GL1XC", "WGS", "EACPWD", "EASE",  "RLCUSER"};
  const auto i = static_cast<std::size_t>(b);
  return i < std::size(kNames) ? kNames[i] : "?";
}

}  // namespace

Info query_info(const std::string& device) {
  Info out;
  {
    // Without the layer: whether the driver has the extension itself.
    vk::InstanceOptions plain;
    plain.application_name = "trak";
    vk::Instance inst(plain);
    out.native = inst.select(device).has_extension(VK_AMD_GPA_INTERFACE_EXTENSION_NAME);
  }
  vk::InstanceOptions opt;
  opt.application_name = "trak";
  if (!out.native) opt.layers.push_back(kLayerName);
  vk::Instance inst(opt);
  const vk::PhysicalDeviceInfo& pd = inst.select(device);
  out.device = pd.name();
  out.driver = pd.driver_info.empty() ? pd.driver_name : pd.driver_name + " " + pd.driver_info;
  out.api_version = vk::version_string(pd.properties.apiVersion);
  for (const VkExtensionProperties& e : pd.extensions)
    if (std::strcmp(e.extensionName, VK_AMD_GPA_INTERFACE_EXTENSION_NAME) == 0) {
      out.listed = true;
      out.spec_version = e.specVersion;
    }
  out.timestamp_period = pd.properties.limits.timestampPeriod;
  if (!pd.queue_families.empty()) out.timestamp_valid_bits = pd.queue_families[0].timestampValidBits;
  if (!out.listed) return out;

  out.features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD;
  VkPhysicalDeviceFeatures2 f2{};
  f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  f2.pNext = &out.features;
  vkGetPhysicalDeviceFeatures2(pd.handle, &f2);
  out.features.pNext = nullptr;

  VkPhysicalDeviceGpaPropertiesAMD props{};
  props.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD;
  VkPhysicalDeviceGpaProperties2AMD props2{};
  props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD;
  props.pNext = &props2;
  VkPhysicalDeviceProperties2 p2{};
  p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  p2.pNext = &props;
  vkGetPhysicalDeviceProperties2(pd.handle, &p2);  // the count
  std::vector<VkGpaPerfBlockPropertiesAMD> blocks(props.perfBlockCount);
  props.pPerfBlocks = blocks.data();
  vkGetPhysicalDeviceProperties2(pd.handle, &p2);  // the blocks
  blocks.resize(props.perfBlockCount);
  out.revision_id = props2.revisionId;
  out.shader_engines = props.shaderEngineCount;
  for (const VkGpaPerfBlockPropertiesAMD& b : blocks) {
    BlockInfo bi;
    bi.properties = b;
    if (!out.native && b.blockType == kStatsBlock)
      for (const Counter& c : counters())
        if (c.event <= b.maxEventID) bi.counters.push_back({c.event, c.name, c.meaning});
    out.blocks.push_back(std::move(bi));
  }

  // Clocks need a device with the extension enabled.
  vk::DeviceOptions dopt;
  dopt.required_extensions.push_back(VK_AMD_GPA_INTERFACE_EXTENSION_NAME);
  vk::Device dev(inst, pd, dopt);
  const auto set_mode =
      reinterpret_cast<PFN_vkSetGpaDeviceClockModeAMD>(vkGetDeviceProcAddr(dev.handle(), "vkSetGpaDeviceClockModeAMD"));
  const auto get_info =
      reinterpret_cast<PFN_vkGetGpaDeviceClockInfoAMD>(vkGetDeviceProcAddr(dev.handle(), "vkGetGpaDeviceClockInfoAMD"));
  if (set_mode) {
    VkGpaDeviceClockModeInfoAMD q{};
    q.sType = VK_STRUCTURE_TYPE_GPA_DEVICE_CLOCK_MODE_INFO_AMD;
    q.clockMode = VK_GPA_DEVICE_CLOCK_MODE_QUERY_AMD;
    out.clock_query_result = set_mode(dev.handle(), &q);
    out.memory_clock_ratio = q.memoryClockRatioToPeak;
    out.engine_clock_ratio = q.engineClockRatioToPeak;
    // Asking for a mode and going back to the default leaves the device as
    // it was (on a driver that can set clocks, for a moment).
    VkGpaDeviceClockModeInfoAMD m{};
    m.sType = VK_STRUCTURE_TYPE_GPA_DEVICE_CLOCK_MODE_INFO_AMD;
    m.clockMode = VK_GPA_DEVICE_CLOCK_MODE_PROFILING_AMD;
    out.set_profiling_result = set_mode(dev.handle(), &m);
    m.clockMode = VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD;
    set_mode(dev.handle(), &m);
  }
  if (get_info) {
    VkGpaDeviceGetClockInfoAMD c{};
    c.sType = VK_STRUCTURE_TYPE_GPA_DEVICE_GET_CLOCK_INFO_AMD;
    out.clock_info_result = get_info(dev.handle(), &c);
    out.memory_clock_mhz = c.memoryClockFrequency;
    out.engine_clock_mhz = c.engineClockFrequency;
  }
  return out;
}

std::string report_table(const Info& i) {
  std::ostringstream o;
  const auto yes = [](VkBool32 b) { return b ? "yes" : "no"; };
  o << "device        " << i.device << " (" << i.driver << "), Vulkan " << i.api_version << '\n';
  if (!i.listed) {
    o << "extension     VK_AMD_gpa_interface is not offered (the driver lacks it and VK_LAYER_TRAK_gpa did not load, "
         "or the device has no timestamps or host query reset)\n";
    return o.str();
  }
  o << "extension     VK_AMD_gpa_interface revision " << i.spec_version << ", "
    << (i.native ? "the driver's own" : "emulated by VK_LAYER_TRAK_gpa") << '\n';
  o << "features      perfCounters " << yes(i.features.perfCounters) << ", streamingPerfCounters "
    << yes(i.features.streamingPerfCounters) << ", sqThreadTracing " << yes(i.features.sqThreadTracing)
    << ", clockModes " << yes(i.features.clockModes) << '\n';
  o << "revision id   " << i.revision_id << (i.native ? "" : " (emulated)") << "\n";
  o << "timing        TIMING samples give two timestamps in ticks of " << i.timestamp_period << " ns ("
    << i.timestamp_valid_bits << " valid bits): ns = (end - begin) * " << i.timestamp_period << '\n';
  o << "clocks        query " << vk::result_name(static_cast<VkResult>(i.clock_query_result)) << ": memory "
    << i.memory_clock_ratio << ", engine " << i.engine_clock_ratio << " of peak; " << i.memory_clock_mhz << " / "
    << i.engine_clock_mhz << " MHz" << (i.memory_clock_mhz || i.engine_clock_mhz ? "" : " (0: unknown)")
    << "; setting PROFILING: " << vk::result_name(static_cast<VkResult>(i.set_profiling_result)) << '\n';
  o << "\nblock      id  instances  max event  cumulative counters\n";
  for (const BlockInfo& b : i.blocks) {
    char line[128];
    std::snprintf(line, sizeof line, "%-9s %3u %10u %10u %20u\n", block_name(b.properties.blockType),
                  static_cast<unsigned>(b.properties.blockType), b.properties.instanceCount, b.properties.maxEventID,
                  b.properties.maxGlobalSharedCounters);
    o << line;
  }
  for (const BlockInfo& b : i.blocks) {
    if (b.counters.empty()) continue;
    o << "\n"
      << block_name(b.properties.blockType) << " counters (instance 0; CUMULATIVE results: one uint64 each, "
      << "in request order)\nevent  name                  meaning\n";
    for (const CounterInfo& c : b.counters) {
      char line[64];
      std::snprintf(line, sizeof line, "%5u  %-20s  ", c.event, c.name.c_str());
      o << line << c.meaning << '\n';
    }
  }
  return o.str();
}

std::string report_json(const Info& i) {
  detail::JsonReport j;
  j.object([&] {
    j.members("device", i.device, "driver", i.driver, "api_version", i.api_version, "listed", i.listed, "native",
              i.native, "spec_version", i.spec_version);
    j.object("features", [&] {
      // VkBool32s: members() would write them as numbers.
      j.boolean("perfCounters", i.features.perfCounters);
      j.boolean("streamingPerfCounters", i.features.streamingPerfCounters);
      j.boolean("sqThreadTracing", i.features.sqThreadTracing);
      j.boolean("clockModes", i.features.clockModes);
    });
    j.members("revision_id", i.revision_id, "timestamp_period_ns", i.timestamp_period, "timestamp_valid_bits",
              i.timestamp_valid_bits);
    j.object("clocks", [&] {
      j.members("query", vk::result_name(static_cast<VkResult>(i.clock_query_result)), "memory_ratio_to_peak",
                i.memory_clock_ratio, "engine_ratio_to_peak", i.engine_clock_ratio, "memory_mhz", i.memory_clock_mhz,
                "engine_mhz", i.engine_clock_mhz, "set_profiling",
                vk::result_name(static_cast<VkResult>(i.set_profiling_result)));
    });
    j.objects("blocks", i.blocks, [&](const BlockInfo& bl) {
      j.members("name", block_name(bl.properties.blockType), "id", static_cast<std::uint32_t>(bl.properties.blockType),
                "instances", bl.properties.instanceCount, "max_event", bl.properties.maxEventID,
                "max_cumulative_counters", bl.properties.maxGlobalSharedCounters);
      j.objects("counters", bl.counters,
                [&](const CounterInfo& c) { j.members("event", c.event, "name", c.name, "meaning", c.meaning); });
    });
  });
  return j.finish();
}

}  // namespace libtrace::gpa::client
