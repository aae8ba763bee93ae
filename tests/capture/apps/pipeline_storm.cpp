// SPDX-License-Identifier: MIT
// capture_pipeline_storm: creates many distinct pipelines from many threads,
// devices, instances or processes, for the tests of the capture layer.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "pipelines.hpp"

namespace test_apps {
namespace {

const char* const kUsage =
    "usage: capture_pipeline_storm [options]\n"
    "  --threads T          threads creating pipelines, per device (default 4)\n"
    "  --graphics N         graphics pipelines per device (default 200)\n"
    "  --compute M          compute pipelines per device (default 50)\n"
    "  --app-name NAME      VkApplicationInfo::pApplicationName (default pipeline_storm)\n"
    "  --dynamic-rendering  graphics pipelines use VkPipelineRenderingCreateInfo\n"
    "  --gpl                also create each graphics pipeline from four linked libraries\n"
    "  --inline-modules     shader stages carry their VkShaderModuleCreateInfo\n"
    "  --devices D          devices on the same physical device, each doing it all (default 1)\n"
    "  --instances I        instances, each doing it all, named NAME-0 .. NAME-<I-1> (default 1)\n"
    "  --concurrent         instances and devices work at the same time, not in turn\n"
    "  --fork               fork after half the pipelines; the child makes the rest and N more\n"
    "  --same               every pipeline of a kind has the same create info\n";

struct Options {
  unsigned threads = 4;
  std::uint32_t graphics = 200;
  std::uint32_t compute = 50;
  std::string app_name = "pipeline_storm";
  bool dynamic_rendering = false;
  bool gpl = false;
  bool inline_modules = false;
  unsigned devices = 1;
  unsigned instances = 1;
  bool concurrent = false;
  bool fork = false;
  bool same = false;
};

[[noreturn]] void usage_error(const std::string& why) {
  std::fprintf(stderr, "capture_pipeline_storm: %s\n%s", why.c_str(), kUsage);
  std::exit(2);
}

unsigned parse_count(const char* opt, const char* text, unsigned lo, unsigned hi) {
  char* end = nullptr;
  errno = 0;
  const unsigned long v = text ? std::strtoul(text, &end, 10) : 0;
  if (!text || !*text || *end || errno || text[0] == '-' || v < lo || v > hi)
    usage_error(std::string(opt) + " wants a number from " + std::to_string(lo) + " to " + std::to_string(hi));
  return static_cast<unsigned>(v);
}

Options parse(int argc, char** argv) {
  Options o;
  struct Count {
    const char* name;
    unsigned* value;
    unsigned least, most;
  };
  const Count counts[] = {{"--threads", &o.threads, 1, 256},
                          {"--graphics", &o.graphics, 0, 1000000},
                          {"--compute", &o.compute, 0, 1000000},
                          {"--devices", &o.devices, 1, 64},
                          {"--instances", &o.instances, 1, 64}};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
    const auto count = std::find_if(std::begin(counts), std::end(counts), [&](const Count& c) { return a == c.name; });
    // Sets |flag| where |a| is its switch.
    const auto on = [&](const char* name, bool& flag) { return a == name && (flag = true); };
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (count != std::end(counts)) {
      *count->value = parse_count(count->name, next, count->least, count->most), ++i;
    } else if (a == "--app-name") {
      if (!next) usage_error("--app-name wants a name");
      o.app_name = next, ++i;
    } else if (!(on("--dynamic-rendering", o.dynamic_rendering) || on("--gpl", o.gpl) ||
                 on("--inline-modules", o.inline_modules) || on("--concurrent", o.concurrent) || on("--fork", o.fork) ||
                 on("--same", o.same))) {
      usage_error("unknown option " + a);
    }
  }
  if (o.fork && (o.devices != 1 || o.instances != 1)) usage_error("--fork takes one device and one instance");
  return o;
}

void note_once(std::once_flag& flag, const char* text) {
  std::call_once(flag, [&] { std::fprintf(stderr, "capture_pipeline_storm: note: %s\n", text); });
}

// Runs f(0) .. f(n - 1) on n threads and rethrows the first exception.
// |stop| is raised on the first failure so that the others finish early.
void parallel(unsigned n, std::atomic<bool>& stop, const std::function<void(unsigned)>& f) {
  std::mutex m;
  std::exception_ptr first;
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      try {
        f(i);
      } catch (...) {
        stop = true;
        const std::lock_guard<std::mutex> lock(m);
        if (!first) first = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  if (first) std::rethrow_exception(first);
}

struct Totals {
  std::atomic<std::uint64_t> devices{0};
  std::atomic<std::uint64_t> graphics{0};
  std::atomic<std::uint64_t> compute{0};
  std::atomic<std::uint64_t> libraries{0};
  std::atomic<std::uint64_t> linked{0};
};

// Half of the calls create four pipelines at once, half one.
struct Job {
  bool compute;
  std::uint32_t first;
  std::uint32_t count;
};

struct Range {
  std::uint32_t begin;
  std::uint32_t end;
};

constexpr std::array<VkGraphicsPipelineLibraryFlagsEXT, 4> kParts = {
    VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT,
    VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT,
    VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT,
    VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT,
};

// The pipelines of one device. Graphics pipeline i has variant i, but with
// --same all of 0 .. N-1 share variant 0 (and the extras of --fork variant 1).
class Storm {
 public:
  Storm(const Device& device, const Shared& shared, const Options& o, unsigned device_index, Totals& totals)
      : device_(device), shared_(shared), o_(o), device_index_(device_index), totals_(totals) {}

  // Creates graphics pipelines |g| and compute pipelines |c| on o.threads
  // threads; they live as long as the Storm. Throws VkError.
  void run(Range g, Range c) {
    std::vector<Job> jobs;
    std::uint32_t gi = g.begin, ci = c.begin;
    for (unsigned k = 0; gi < g.end || ci < c.end; ++k) {
      const std::uint32_t batch = k % 2 == 0 ? 4 : 1;
      if (gi < g.end) {
        const std::uint32_t n = std::min(batch, g.end - gi);
        jobs.push_back({false, gi, n});
        gi += n;
      }
      if (ci < c.end) {
        const std::uint32_t n = std::min(batch, c.end - ci);
        jobs.push_back({true, ci, n});
        ci += n;
      }
    }
    Batch& b = batches_.emplace_back();
    b.g_begin = g.begin;
    b.c_begin = c.begin;
    b.graphics.resize(g.end - g.begin);
    b.compute.resize(c.end - c.begin);
    if (device_.gpl()) {
      b.libraries.resize(kParts.size() * (g.end - g.begin));
      b.linked.resize(g.end - g.begin);
    }

    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    parallel(o_.threads, stop, [&](unsigned) {
      for (std::size_t j; !stop && (j = next++) < jobs.size();) {
        if (jobs[j].compute)
          create_compute(b, jobs[j]);
        else
          create_graphics(b, jobs[j]);
      }
    });
  }

 private:
  struct Batch {
    std::uint32_t g_begin = 0;
    std::uint32_t c_begin = 0;
    std::vector<Pipeline> graphics;
    std::vector<Pipeline> compute;
    std::vector<Pipeline> libraries;  // per graphics pipeline, its four parts
    std::vector<Pipeline> linked;     // after |libraries|, so destroyed before them
  };

  GraphicsVariant graphics_variant(std::uint32_t i) const {
    GraphicsVariant v;
    v.variant = o_.same ? (i < o_.graphics ? 0 : 1) : i;
    v.inline_modules = device_.inline_modules();
    if (o_.dynamic_rendering)
      v.target = Target::dynamic_rendering;
    else if (o_.devices > 1)
      v.target = device_index_ % 2 == 0 ? Target::render_pass : Target::render_pass2;
    else
      v.target = v.variant % 2 == 0 ? Target::render_pass : Target::render_pass2;
    return v;
  }

  // Creates the pipelines of |job| with one call of |Create| into |slots|,
  // from the create infos that |emplace(info, i)| makes in |infos|.
  template <auto Create, typename Info, typename Emplace>
  void create_batch(const Job& job, std::array<std::optional<Info>, 4>& infos, Pipeline* slots, Emplace emplace,
                    const char* call) {
    std::array<std::remove_cvref_t<decltype(infos[0]->complete())>, 4> cis{};
    for (std::uint32_t k = 0; k < job.count; ++k) {
      emplace(infos[k], job.first + k);
      cis[k] = infos[k]->complete();
    }
    std::array<VkPipeline, 4> out{};
    const VkResult r =
        (device_.vk().*Create)(device_.handle(), VK_NULL_HANDLE, job.count, cis.data(), nullptr, out.data());
    for (std::uint32_t k = 0; k < job.count; ++k) {
      if (out[k] != VK_NULL_HANDLE) slots[k] = Pipeline(device_, out[k]);
    }
    check(r, call);
  }

  void create_graphics(Batch& b, const Job& job) {
    std::array<std::optional<GraphicsInfo>, 4> infos;
    create_batch<&VolkDeviceTable::vkCreateGraphicsPipelines>(
        job, infos, &b.graphics[job.first - b.g_begin],
        [&](auto& info, std::uint32_t i) { info.emplace(device_, shared_, graphics_variant(i)); },
        "vkCreateGraphicsPipelines");
    totals_.graphics += job.count;
    if (!device_.gpl()) return;
    for (std::uint32_t k = 0; k < job.count; ++k) {
      const std::uint32_t slot = job.first - b.g_begin + k;
      create_linked(&b.libraries[kParts.size() * slot], &b.linked[slot], *infos[k]);
    }
  }

  // Creates the four library parts of |info|, one call each, into |parts_out|,
  // then links them into |linked_out|.
  void create_linked(Pipeline* parts_out, Pipeline* linked_out, GraphicsInfo& info) {
    std::array<VkPipeline, kParts.size()> parts{};
    for (std::size_t p = 0; p < kParts.size(); ++p) {
      const VkGraphicsPipelineCreateInfo ci = info.library(kParts[p]);
      APP_CHECK(device_.vk().vkCreateGraphicsPipelines(device_.handle(), VK_NULL_HANDLE, 1, &ci, nullptr, &parts[p]));
      parts_out[p] = Pipeline(device_, parts[p]);
      ++totals_.libraries;
    }
    VkPipelineLibraryCreateInfoKHR libs{};
    libs.sType = VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR;
    libs.libraryCount = static_cast<std::uint32_t>(parts.size());
    libs.pLibraries = parts.data();
    VkGraphicsPipelineCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
    ci.pNext = &libs;
    ci.layout = info.complete().layout;
    ci.renderPass = info.complete().renderPass;
    ci.basePipelineIndex = -1;
    VkPipeline linked = VK_NULL_HANDLE;
    APP_CHECK(device_.vk().vkCreateGraphicsPipelines(device_.handle(), VK_NULL_HANDLE, 1, &ci, nullptr, &linked));
    *linked_out = Pipeline(device_, linked);
    ++totals_.linked;
  }

  void create_compute(Batch& b, const Job& job) {
    std::array<std::optional<ComputeInfo>, 4> infos;
    create_batch<&VolkDeviceTable::vkCreateComputePipelines>(
        job, infos, &b.compute[job.first - b.c_begin],
        [&](auto& info, std::uint32_t i) { info.emplace(shared_, o_.same ? 0 : i, device_.inline_modules()); },
        "vkCreateComputePipelines");
    totals_.compute += job.count;
  }

  const Device& device_;
  const Shared& shared_;
  const Options& o_;
  unsigned device_index_;
  Totals& totals_;
  std::vector<Batch> batches_;
};

std::once_flag g_no_gpl;
std::once_flag g_no_inline;

// --fork: the child makes the second half and N more, reports on stderr and
// leaves with _exit(), since the device and instance it inherited are the
// parent's to destroy. Returns whether the child succeeded.
bool fork_second_half(const Device& device, const Shared& shared, const Options& o, Range g, Range c) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) throw VkError(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    int status = 0;
    try {
      Totals child;
      Storm storm(device, shared, o, 0, child);
      storm.run({g.begin, g.end + o.graphics}, c);
      std::fprintf(stderr, "pipeline_storm: child: graphics %llu, compute %llu\n",
                   static_cast<unsigned long long>(child.graphics), static_cast<unsigned long long>(child.compute));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "capture_pipeline_storm: child: %s\n", e.what());
      status = 1;
    }
    std::fflush(stderr);
    _exit(status);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) throw VkError(std::string("waitpid: ") + std::strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  if (WIFSIGNALED(status))
    std::fprintf(stderr, "capture_pipeline_storm: the child died of signal %d\n", WTERMSIG(status));
  else
    std::fprintf(stderr, "capture_pipeline_storm: the child exited with %d\n", WEXITSTATUS(status));
  return false;
}

// One instance doing the whole workload on each of its devices. Returns
// false if a --fork child failed.
bool run_instance(const Options& o, const std::string& app_name, Totals& totals) {
  Instance instance(app_name);
  const DeviceWants wants{o.gpl, o.inline_modules};
  // Declared in creation order, so destroyed pipelines first, device last.
  std::vector<std::unique_ptr<Device>> devices;
  std::vector<std::unique_ptr<Shared>> shared;
  std::vector<std::unique_ptr<Storm>> storms;
  for (unsigned d = 0; d < o.devices; ++d) {
    auto& dev = *devices.emplace_back(std::make_unique<Device>(instance, wants));
    ++totals.devices;
    if (o.gpl && !dev.gpl()) note_once(g_no_gpl, "the device lacks graphicsPipelineLibrary: --gpl skipped");
    if (o.inline_modules && !dev.inline_modules())
      note_once(g_no_inline, "the device lacks graphicsPipelineLibrary and maintenance5: --inline-modules skipped");
    // With several devices each uses one kind of render pass; alone, both.
    const bool rp1 = o.devices == 1 || d % 2 == 0;
    shared.push_back(std::make_unique<Shared>(dev, rp1, o.devices == 1 || !rp1));
    storms.push_back(std::make_unique<Storm>(dev, *shared.back(), o, d, totals));
  }

  if (o.fork) {
    const Range g1{0, o.graphics / 2}, g2{o.graphics / 2, o.graphics};
    const Range c1{0, o.compute / 2}, c2{o.compute / 2, o.compute};
    storms[0]->run(g1, c1);
    const bool child_ok = fork_second_half(*devices[0], *shared[0], o, g2, c2);
    storms[0]->run(g2, c2);
    return child_ok;
  }
  std::atomic<bool> stop{false};
  const auto work = [&](unsigned d) { storms[d]->run({0, o.graphics}, {0, o.compute}); };
  if (o.concurrent) {
    parallel(o.devices, stop, work);
  } else {
    for (unsigned d = 0; d < o.devices; ++d) work(d);
  }
  return true;
}

int storm_main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  Totals totals;
  std::atomic<bool> ok{true};
  const auto one = [&](unsigned i) {
    const std::string name = o.instances > 1 ? o.app_name + "-" + std::to_string(i) : o.app_name;
    if (!run_instance(o, name, totals)) ok = false;
  };
  std::atomic<bool> stop{false};
  if (o.concurrent) {
    parallel(o.instances, stop, one);
  } else {
    for (unsigned i = 0; i < o.instances; ++i) one(i);
  }
  std::printf("pipeline_storm: devices %llu, graphics %llu, compute %llu",
              static_cast<unsigned long long>(totals.devices), static_cast<unsigned long long>(totals.graphics),
              static_cast<unsigned long long>(totals.compute));
  if (totals.libraries > 0)
    std::printf(", libraries %llu, linked %llu", static_cast<unsigned long long>(totals.libraries),
                static_cast<unsigned long long>(totals.linked));
  std::printf("\n");
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace test_apps

int main(int argc, char** argv) {
  return test_apps::run_main("capture_pipeline_storm", [&] { return test_apps::storm_main(argc, argv); });
}
