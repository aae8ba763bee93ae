// SPDX-License-Identifier: MIT
// gpa_client: a headless Vulkan program written against VK_AMD_gpa_interface
// alone, the way GPUPerfAPI drives it (features, perf blocks, sessions,
// TIMING and CUMULATIVE samples, results, reset and reuse, secondary command
// buffers with copied sessions, clocks). It knows nothing of the layer that
// may provide the extension: it is built on the shared test-app library and
// the extension's header alone, and checks what the extension answers end to
// end on one device. gpa_samples.cpp holds the checks of samples.
//
// The counters it asks for are those of an emulation that publishes the
// pipeline statistics as block GRBM (17), one instance, events 0..10 in
// VkQueryPipelineStatisticFlagBits order (0 ia_vertices, 1 ia_primitives,
// 2 vs_invocations, ..., 10 cs_invocations): on a driver with other blocks
// the counter checks fail, which is the point of a test.
//
// Exit status: 0 when every check passed, 1 when one failed (each prints
// "gpa_client: FAIL: <what>: got X, expected Y" to stderr) or Vulkan could
// not be set up, 77 when no device lists VK_AMD_gpa_interface (the layer
// that offers it is not loaded).
#include <cinttypes>
#include <cstdarg>
#include <cstdlib>

#include "gpa_client.hpp"
#include "shaders.hpp"

namespace test_apps::gpa_client {
namespace {

const char* const kUsage =
    "usage: gpa_client [--api-version 1.0|1.1|1.2|1.3] [--gpa-features-first] [--timeout S] [--quiet]\n"
    "  Checks VK_AMD_gpa_interface end to end on the first device that lists it.\n"
    "  Exit 0: all checks passed; 1: a check failed; 77: no device lists the extension.\n"
    "  --api-version V  VkApplicationInfo::apiVersion (default 1.1); with 1.0 the\n"
    "                   client enables VK_KHR_get_physical_device_properties2, as\n"
    "                   GPUPerfAPI asks applications to, and uses its entry points\n"
    "  --gpa-features-first  VkPhysicalDeviceGpaFeaturesAMD first in VkDeviceCreateInfo's\n"
    "                   chain, before VkPhysicalDeviceFeatures2 (default: last)\n"
    "  --timeout S      seconds a submission may take until its sessions say\n"
    "                   VK_SUCCESS and its fence signals (default 5)\n"
    "  --quiet          print only failures and the closing line\n";

constexpr int kExitSkip = 77;

}  // namespace

void info(const char* fmt, ...) {
  if (g_quiet) return;
  std::fputs("gpa_client: ", stdout);
  va_list args;
  va_start(args, fmt);
  std::vprintf(fmt, args);
  va_end(args);
  std::fputc('\n', stdout);
}

Work::Work(const Device& d) {
  counter = make_buffer(d, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  counter_value = static_cast<volatile std::uint32_t*>(map(d, counter.memory));
  *counter_value = 0;
  storage = make_storage_set(d, counter.get(), 0, VK_WHOLE_SIZE);
  layout = make_pipeline_layout(d, storage.layout.get());
  compute = make_compute_pipeline(d, layout.get(), make_module(d, kGpaCompSpirv).get());

  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  render_pass = make_colour_pass(d);
  image = make_image(d, format, kImageSize, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0);
  view = make_view(d, image.get(), format, VK_IMAGE_ASPECT_COLOR_BIT);
  framebuffer = make_framebuffer(d, render_pass.get(), {view.get()}, kImageSize);
  const ShaderModule vert = make_module(d, kGpaVertSpirv);
  const ShaderModule frag = make_module(d, kGpaFragSpirv);
  graphics = make_plain_pipeline(d, layout.get(), render_pass.get(), vert.get(), frag.get(), kImageSize);

  VkQueryPoolCreateInfo qpci{};
  qpci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qpci.queryCount = 2;
  timestamps = make<QueryPool, &VolkDeviceTable::vkCreateQueryPool>(d, qpci);
  pool = make_command_pool(d, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
  fence = make_fence(d);
}

namespace {

// Check 1: the extension listed, its features and properties, and a device
// with it enabled.
void open_device(Context& c, Checks& checks) {
  const bool khr2 = g_api_version < VK_API_VERSION_1_1;  // VK_KHR_get_physical_device_properties2
  AppInfo app{"gpa_client", g_api_version, {}, {}};
  if (khr2) app.extensions.push_back(VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME);
  c.instance.emplace(app);
  const PFN_vkGetPhysicalDeviceFeatures2 get_features2 =
      khr2 ? vkGetPhysicalDeviceFeatures2KHR : vkGetPhysicalDeviceFeatures2;
  const PFN_vkGetPhysicalDeviceProperties2 get_properties2 =
      khr2 ? vkGetPhysicalDeviceProperties2KHR : vkGetPhysicalDeviceProperties2;
  if (!get_features2 || !get_properties2) throw Abort("no vkGetPhysicalDeviceFeatures2/Properties2");

  // The first device with a graphics+compute queue that writes timestamps,
  // preferring one that lists the extension.
  std::string without;  // the suitable devices that lack the extension
  std::uint32_t spec_version = 0;
  for (VkPhysicalDevice pd : physical_devices(c.instance->handle())) {
    VkPhysicalDeviceProperties props{};
    vkGetPhysicalDeviceProperties(pd, &props);
    if (props.apiVersion < g_api_version) continue;
    const auto family = queue_family(pd, VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT, true);
    if (!family) continue;
    const std::vector<VkExtensionProperties> exts = device_extensions(pd);
    const VkExtensionProperties* ext = find_extension(exts, VK_AMD_GPA_INTERFACE_EXTENSION_NAME);
    if (!ext) {
      without += std::string(without.empty() ? "" : ", ") + props.deviceName;
      continue;
    }
    spec_version = ext->specVersion;
    c.physical = pd;
    c.properties = props;
    c.family = *family;
    break;
  }
  if (!c.physical) {
    throw Skip(without.empty()
                   ? "no device of the API version asked for with a graphics+compute queue that writes timestamps"
                   : VK_AMD_GPA_INTERFACE_EXTENSION_NAME " is not listed by " + without +
                         " (is a layer that offers it, such as VK_LAYER_TRAK_gpa, loaded?)");
  }
  checks.expect(true, "extension listed", "", "");
  checks.eq("VK_AMD_gpa_interface specVersion", spec_version, std::uint32_t{VK_AMD_GPA_INTERFACE_SPEC_VERSION});
  info("API version %u.%u asked for; device %s (Vulkan %u.%u.%u), queue family %u, timestampPeriod %g ns",
       VK_API_VERSION_MAJOR(g_api_version), VK_API_VERSION_MINOR(g_api_version), c.properties.deviceName,
       VK_API_VERSION_MAJOR(c.properties.apiVersion), VK_API_VERSION_MINOR(c.properties.apiVersion),
       VK_API_VERSION_PATCH(c.properties.apiVersion), c.family, c.properties.limits.timestampPeriod);

  // Features.
  VkPhysicalDeviceGpaFeaturesAMD features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD;
  features.streamingPerfCounters = features.sqThreadTracing = features.clockModes = 0xbad;  // must be written
  VkPhysicalDeviceFeatures2 f2{};
  f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  f2.pNext = &features;
  get_features2(c.physical, &f2);
  info("features: perfCounters %u, streamingPerfCounters %u, sqThreadTracing %u, clockModes %u", features.perfCounters,
       features.streamingPerfCounters, features.sqThreadTracing, features.clockModes);
  checks.require("VkPhysicalDeviceGpaFeaturesAMD.perfCounters", features.perfCounters, VkBool32{VK_TRUE});
  checks.eq("VkPhysicalDeviceGpaFeaturesAMD.streamingPerfCounters", features.streamingPerfCounters, VkBool32{VK_FALSE});
  checks.eq("VkPhysicalDeviceGpaFeaturesAMD.sqThreadTracing", features.sqThreadTracing, VkBool32{VK_FALSE});
  checks.eq("VkPhysicalDeviceGpaFeaturesAMD.clockModes", features.clockModes, VkBool32{VK_FALSE});

  // Properties, two calls: the count, then the array. The second call also
  // asks for VkPhysicalDeviceGpaProperties2AMD.
  VkPhysicalDeviceGpaPropertiesAMD gp{};
  gp.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD;
  gp.perfBlockCount = 0xbad;  // must be overwritten with the count
  VkPhysicalDeviceProperties2 p2{};
  p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  p2.pNext = &gp;
  get_properties2(c.physical, &p2);
  checks.require("VkPhysicalDeviceGpaPropertiesAMD.perfBlockCount (pPerfBlocks NULL)", gp.perfBlockCount,
                 std::uint32_t{1});
  std::vector<VkGpaPerfBlockPropertiesAMD> blocks(gp.perfBlockCount);
  for (auto& b : blocks) b.blockType = VK_GPA_PERF_BLOCK_MAX_ENUM_AMD;  // must be written
  gp.pPerfBlocks = blocks.data();
  VkPhysicalDeviceGpaProperties2AMD gp2{};
  gp2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD;
  gp2.revisionId = 0xbad;  // must be written
  gp.pNext = &gp2;
  get_properties2(c.physical, &p2);
  checks.eq("VkPhysicalDeviceGpaPropertiesAMD.perfBlockCount (with pPerfBlocks)", gp.perfBlockCount, std::uint32_t{1});
  info("properties: shaderEngineCount %u, maxSqttSeBufferSize %" PRIu64 ", flags 0x%x, revisionId %u",
       gp.shaderEngineCount, static_cast<std::uint64_t>(gp.maxSqttSeBufferSize), gp.flags, gp2.revisionId);
  const VkGpaPerfBlockPropertiesAMD* block = nullptr;
  for (std::uint32_t i = 0; i < std::min<std::uint32_t>(gp.perfBlockCount, blocks.size()); ++i) {
    const auto& b = blocks[i];
    info(
        "perf block %u: blockType %d, instanceCount %u, maxEventID %u, maxGlobalOnlyCounters %u, "
        "maxGlobalSharedCounters %u, maxStreamingCounters %u",
        i, static_cast<int>(b.blockType), b.instanceCount, b.maxEventID, b.maxGlobalOnlyCounters,
        b.maxGlobalSharedCounters, b.maxStreamingCounters);
    if (b.blockType == kBlock) block = &b;
  }
  checks.require("perf block GRBM listed", block != nullptr, true);
  checks.eq("GRBM instanceCount", block->instanceCount, std::uint32_t{1});
  checks.eq("GRBM maxEventID", block->maxEventID, kMaxEvent);
  checks.eq("VkPhysicalDeviceGpaProperties2AMD.revisionId", gp2.revisionId, std::uint32_t{0});

  // The device: the extension, and its feature asked for the usual way, in
  // a chain with VkPhysicalDeviceFeatures2 (and, from Vulkan 1.2 on,
  // VkPhysicalDeviceVulkan12Features, all off, as applications of 1.2 have):
  // by default the extension's struct comes last, with --gpa-features-first
  // first. Vulkan lets the structs come in any order.
  VkPhysicalDeviceGpaFeaturesAMD on{};
  on.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD;
  on.perfCounters = VK_TRUE;
  VkPhysicalDeviceFeatures2 on2{};
  on2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  VkPhysicalDeviceVulkan12Features on12{};
  on12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  std::vector<VkBaseOutStructure*> chain;
  if (g_gpa_features_first) chain.push_back(reinterpret_cast<VkBaseOutStructure*>(&on));
  chain.push_back(reinterpret_cast<VkBaseOutStructure*>(&on2));
  if (g_api_version >= VK_API_VERSION_1_2) chain.push_back(reinterpret_cast<VkBaseOutStructure*>(&on12));
  if (!g_gpa_features_first) chain.push_back(reinterpret_cast<VkBaseOutStructure*>(&on));
  for (std::size_t i = 0; i + 1 < chain.size(); ++i) chain[i]->pNext = chain[i + 1];
  VkDevice device = VK_NULL_HANDLE;
  checks.require("vkCreateDevice with VK_AMD_gpa_interface",
                 create_device(c.physical, c.family, chain.front(), {VK_AMD_GPA_INTERFACE_EXTENSION_NAME}, &device),
                 VK_SUCCESS);
  c.device.emplace(c.physical, c.family, device);
  c.queue = c.device->queue();
  c.gpa.load(device, checks);
}

// Check 7: clocks. QUERY must work; the other modes are reported.
void check_clocks(const Context& c, Checks& checks) {
  VkGpaDeviceClockModeInfoAMD mode{};
  mode.sType = VK_STRUCTURE_TYPE_GPA_DEVICE_CLOCK_MODE_INFO_AMD;
  mode.clockMode = VK_GPA_DEVICE_CLOCK_MODE_QUERY_AMD;
  mode.memoryClockRatioToPeak = mode.engineClockRatioToPeak = -1.0f;
  const VkResult query = c.gpa.SetGpaDeviceClockMode(c.dev(), &mode);
  checks.eq("vkSetGpaDeviceClockModeAMD(QUERY)", query, VK_SUCCESS);
  info("clock mode QUERY: %s, memoryClockRatioToPeak %g, engineClockRatioToPeak %g", text(query).c_str(),
       mode.memoryClockRatioToPeak, mode.engineClockRatioToPeak);
  const std::pair<VkGpaDeviceClockModeAMD, const char*> modes[] = {
      {VK_GPA_DEVICE_CLOCK_MODE_PROFILING_AMD, "PROFILING (GPUPerfAPI's default)"},
      {VK_GPA_DEVICE_CLOCK_MODE_PEAK_AMD, "PEAK"},
      {VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD, "DEFAULT"},
  };
  for (const auto& [m, name] : modes) {
    VkGpaDeviceClockModeInfoAMD set{};
    set.sType = VK_STRUCTURE_TYPE_GPA_DEVICE_CLOCK_MODE_INFO_AMD;
    set.clockMode = m;
    info("clock mode %s: %s (an emulation cannot set clocks)", name,
         text(c.gpa.SetGpaDeviceClockMode(c.dev(), &set)).c_str());
  }
  VkGpaDeviceGetClockInfoAMD clocks{};
  clocks.sType = VK_STRUCTURE_TYPE_GPA_DEVICE_GET_CLOCK_INFO_AMD;
  clocks.memoryClockRatioToPeak = clocks.engineClockRatioToPeak = -1.0f;
  const VkResult r = c.gpa.GetGpaDeviceClockInfo(c.dev(), &clocks);
  checks.eq("vkGetGpaDeviceClockInfoAMD", r, VK_SUCCESS);
  info("clock info: %s, memory %u MHz (ratio %g), engine %u MHz (ratio %g)", text(r).c_str(),
       clocks.memoryClockFrequency, clocks.memoryClockRatioToPeak, clocks.engineClockFrequency,
       clocks.engineClockRatioToPeak);
}

int run(Checks& checks) {
  Context c;
  open_device(c, checks);
  {
    Work w(*c.device);

    // Checks 2 and 3: one session, the main command buffer, its results.
    Session main = create_session(c, checks, VK_NULL_HANDLE, "main");
    const VkCommandBuffer cb = allocate(c, w, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
    const MainIds ids = record_main(c, w, checks, cb, main.get(), false, "first run");
    checks.eq("vkGetGpaSessionStatusAMD before the submit (first run)", c.gpa.GetGpaSessionStatus(c.dev(), main.get()),
              VK_NOT_READY);
    *w.counter_value = 0;
    if (!submit_and_wait(c, w, checks, cb, {{main.get(), "main"}}, "first run"))
      throw Abort("the first submission did not complete");
    const MainValues first = check_main_results(c, w, checks, main.get(), ids, true, "first run");

    // Check 4: refusals, in a command buffer of their own that is never
    // submitted, within a session of their own.
    {
      Session refusals = create_session(c, checks, VK_NULL_HANDLE, "refusals");
      const VkCommandBuffer rcb = allocate(c, w, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
      begin_primary(c, rcb);
      checks.eq("vkCmdBeginGpaSessionAMD (refusals)", c.gpa.CmdBeginGpaSession(rcb, refusals.get()), VK_SUCCESS);
      record_refusals(c, checks, rcb, refusals.get(), "own command buffer");
      // Where a CUMULATIVE sample is open, another one nests: the
      // emulation's limit; reported only.
      const std::vector<VkGpaPerfCounterAMD> cs = {counter(kCsInvocations)};
      const std::uint32_t outer =
          begin_sample(c, checks, rcb, refusals.get(), cumulative_info(cs), "CUMULATIVE, refusals' own");
      std::uint32_t inner = ~0u;
      const VkGpaSampleBeginInfoAMD nested_info = cumulative_info(cs);
      const VkResult nested = c.gpa.CmdBeginGpaSample(rcb, refusals.get(), &nested_info, &inner);
      info("a CUMULATIVE sample nested in another of the same command buffer: %s", text(nested).c_str());
      if (nested == VK_SUCCESS) c.gpa.CmdEndGpaSample(rcb, refusals.get(), inner);
      if (outer != ~0u) c.gpa.CmdEndGpaSample(rcb, refusals.get(), outer);
      checks.eq("vkCmdEndGpaSessionAMD (refusals)", c.gpa.CmdEndGpaSession(rcb, refusals.get()), VK_SUCCESS);
      APP_CHECK(c.vk().vkEndCommandBuffer(rcb));
      checks.eq("vkGetGpaSessionStatusAMD of a session never submitted",
                c.gpa.GetGpaSessionStatus(c.dev(), refusals.get()), VK_NOT_READY);
      c.vk().vkFreeCommandBuffers(c.dev(), w.pool.get(), 1, &rcb);
    }

    // Check 5: reset, the same work again in the same (reset) command
    // buffer, with the refused calls recorded in it too; the same values.
    checks.eq("vkResetGpaSessionAMD", c.gpa.ResetGpaSession(c.dev(), main.get()), VK_SUCCESS);
    checks.eq("vkGetGpaSessionStatusAMD after vkResetGpaSessionAMD", c.gpa.GetGpaSessionStatus(c.dev(), main.get()),
              VK_NOT_READY);
    APP_CHECK(c.vk().vkResetCommandBuffer(cb, 0));
    const MainIds again = record_main(c, w, checks, cb, main.get(), true, "reuse");
    info("reuse: sample ids %s the first run's", again == ids ? "are" : "differ from");
    checks.eq("vkGetGpaSessionStatusAMD before the submit (reuse)", c.gpa.GetGpaSessionStatus(c.dev(), main.get()),
              VK_NOT_READY);
    *w.counter_value = 0;
    if (!submit_and_wait(c, w, checks, cb, {{main.get(), "main"}}, "reuse"))
      throw Abort("the second submission did not complete");
    const MainValues second = check_main_results(c, w, checks, main.get(), again, false, "reuse");
    checks.expect(second.dispatch == first.dispatch && second.draw == first.draw,
                  "reuse gives the first run's counter values", "different values", "the same");
    c.vk().vkFreeCommandBuffers(c.dev(), w.pool.get(), 1, &cb);
    main.reset();

    // Check 6.
    check_secondary(c, w, checks);
    check_spanning(c, w, checks);

    // Check 7.
    check_clocks(c, checks);

    // Check 8: everything goes, sessions first (done above), then the rest.
    c.gpa.DestroyGpaSession(c.dev(), VK_NULL_HANDLE, nullptr);
    checks.expect(true, "vkDestroyGpaSessionAMD(VK_NULL_HANDLE) returns", "", "");
    APP_CHECK(c.vk().vkDeviceWaitIdle(c.dev()));
  }
  c.destroy();
  checks.expect(true, "device and instance destroyed", "", "");
  return 0;
}

}  // namespace
}  // namespace test_apps::gpa_client

int main(int argc, char** argv) {
  using namespace test_apps::gpa_client;
  // Line by line, so that what was printed is there when a call crashes.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quiet") {
      g_quiet = true;
    } else if (a == "--timeout" && i + 1 < argc) {
      const int t = std::atoi(argv[++i]);
      if (t <= 0) {
        std::fprintf(stderr, "gpa_client: --timeout wants a number of seconds\n%s", kUsage);
        return 2;
      }
      g_timeout_s = static_cast<unsigned>(t);
    } else if (a == "--gpa-features-first") {
      g_gpa_features_first = true;
    } else if (a == "--api-version" && i + 1 < argc) {
      const std::string v = argv[++i];
      if (v == "1.0") {
        g_api_version = VK_API_VERSION_1_0;
      } else if (v == "1.1") {
        g_api_version = VK_API_VERSION_1_1;
      } else if (v == "1.2") {
        g_api_version = VK_API_VERSION_1_2;
      } else if (v == "1.3") {
        g_api_version = VK_API_VERSION_1_3;
      } else {
        std::fprintf(stderr, "gpa_client: unknown API version %s\n%s", v.c_str(), kUsage);
        return 2;
      }
    } else if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else {
      std::fprintf(stderr, "gpa_client: unknown option %s\n%s", a.c_str(), kUsage);
      return 2;
    }
  }
  Checks checks;
  try {
    run(checks);
  } catch (const Skip& e) {
    std::printf("gpa_client: skipped: %s\n", e.what());
    return kExitSkip;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpa_client: %s\n", e.what());
    std::fprintf(stderr, "gpa_client: %d checks passed, %d failed before that\n", checks.passed(), checks.failed());
    return 1;
  }
  if (checks.failed() > 0) {
    std::fprintf(stderr, "gpa_client: %d checks passed, %d failed\n", checks.passed(), checks.failed());
    return 1;
  }
  std::printf("gpa_client: %d checks passed\n", checks.passed());
  return 0;
}
