// SPDX-License-Identifier: MIT
// trak-gpa: GPU counters through VK_AMD_gpa_interface, the driver's own or,
// on any other device, VK_LAYER_TRAK_gpa's.
#include <cstdlib>

#include "libtrace/gpa/info.hpp"
#include "libtrace/layer/find.hpp"
#include "tool_main.hpp"

namespace {

// The loader finds the layer of this build or installation, after any
// folders the user added.
void add_layer_path() {
  const std::string dir = libtrace::layer::find_layer_dir(tools::self_path(), "gpa", "VkLayer_trak_gpa.json");
  if (dir.empty()) return;  // the extension shows only where the driver has it
  const char* old = std::getenv("VK_ADD_LAYER_PATH");
  const std::string path = old && *old ? std::string(old) + ":" + dir : dir;
  ::setenv("VK_ADD_LAYER_PATH", path.c_str(), 1);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "GPU counters through VK_AMD_gpa_interface: the driver's own (AMD), or on any other device trak's layer "
      "VK_LAYER_TRAK_gpa, which offers it from timestamp and pipeline-statistics queries.",
      "trak-gpa"};
  app.require_subcommand(1);
  CLI::App* info = app.add_subcommand("info", "The device's extension: features, perf blocks and counters, clocks");
  std::string device;
  bool json = false;
  info->add_option("--device", device, "Vulkan device: an index or part of its name (default 0)");
  info->add_flag("--json", json, "One JSON object instead of the table");
  app.footer(R"(Examples:
  trak-gpa info
  trak-gpa info --device llvmpipe --json | jq '.blocks[].counters[].name')");

  return tools::run(app, argc, argv, [&] {
    add_layer_path();
    const libtrace::gpa::Info i = libtrace::gpa::query_info(device);
    std::cout << (json ? libtrace::gpa::format_json(i) : libtrace::gpa::format_table(i));
    return i.listed ? tools::kOk : tools::kFailure;
  });
}
