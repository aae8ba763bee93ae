// SPDX-License-Identifier: MIT
// Replaying .foz archives on the real device the tests run with (lavapipe
// under meson test): the real archives replay with every pipeline created; a
// worker that crashes or hangs costs one pipeline, not the run; shards add up
// to the whole; a resumed run skips what was done; cache files round-trip;
// bad input fails per pipeline.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "libtrace/replay/foz/replay.hpp"
#include "replay/foz/cache.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

namespace {

const std::string kCube = std::string(TRAK_TEST_DATA) + "/foz/vkcube.72991ed96a80f842.1.foz";
const std::string kCompute = std::string(TRAK_TEST_DATA) + "/foz/synth_compute.foz";

// The workers are processes of the built trak-replay (tests/meson.build
// names it): this process has loaded Vulkan, so forks of it would not do on
// every driver.
std::string worker_executable() {
  const char* exe = std::getenv("TRAK_REPLAY");
  return exe ? exe : "";
}

foz::ReplayOptions options(std::vector<std::string> inputs, unsigned jobs = 2) {
  foz::ReplayOptions o;
  o.inputs = std::move(inputs);
  o.jobs = jobs;
  o.worker_executable = worker_executable();
  return o;
}

const foz::TypeCounts& compute(const foz::ReplayResult& r) { return r.counts[1]; }
const foz::TypeCounts& graphics(const foz::ReplayResult& r) { return r.counts[0]; }

// The pipeline cache file a run wrote: as large as the run says, with a
// valid header of the run's device vendor.
foz::detail::CacheHeader cache_file_header(const foz::ReplayResult& r, const std::string& path) {
  const auto blob = foz::detail::read_file_bytes(path);
  CHECK(r.pipeline_cache_bytes == blob.size());
  std::string why;
  const auto h = foz::detail::parse_cache_header(blob, why);
  REQUIRE(h);
  CHECK(h->vendor_id == r.vendor_id);
  return *h;
}

// Every worker was reaped: this process has no child left, zombie or not.
bool no_children() { return ::waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }

// The processes whose parent is this one, from /proc.
std::vector<pid_t> children() {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces.
    const std::string stat = test::read_file(e.path() / "stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    if (std::atoi(stat.c_str() + close + 4) == ::getpid()) out.push_back(std::atoi(name.c_str()));
  }
  return out;
}

struct EnvVar {
  const char* name;
  EnvVar(const char* n, const std::string& v) : name(n) { ::setenv(n, v.c_str(), 1); }
  ~EnvVar() { ::unsetenv(name); }
};

// Entries of an archive with their decoded payloads, to build variants of it.
struct Item {
  Tag tag;
  std::uint64_t hash;
  std::string payload;
};
std::vector<Item> items_of(const std::string& path) {
  foz::ArchiveReader r(path);
  std::vector<Item> out;
  for (const auto& e : r.entries()) {
    const auto p = r.read_payload(e.tag, e.hash);
    out.push_back({e.tag, e.hash, std::string(p.begin(), p.end())});
  }
  return out;
}
void write_archive(const std::string& path, const std::vector<Item>& items) {
  foz::ArchiveWriter w(path);
  for (const auto& i : items)
    w.write(i.tag, i.hash,
            std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(i.payload.data()), i.payload.size()),
            {foz::PayloadFormat::none, 0, false});
  w.commit();
}
Item& find(std::vector<Item>& v, Tag t) {
  return *std::find_if(v.begin(), v.end(), [&](const Item& i) { return i.tag == t; });
}

// vkcube's graphics pipeline made another one: `hash`, with `to` in place of
// the start of its payload, `from` (its hash and first members).
Item cube_pipeline_as(std::vector<Item>& cube, std::uint64_t hash, const std::string& from, const std::string& to) {
  Item i = find(cube, Tag::graphics_pipeline);
  const std::size_t at = i.payload.find(from);
  REQUIRE(at != std::string::npos);
  i.hash = hash;
  i.payload.replace(at, from.size(), to);
  return i;
}

bool is_lavapipe(const foz::ReplayResult& r) { return r.device.find("llvmpipe") != std::string::npos; }

const std::vector<std::string>& warnings(const foz::ReplayResult& r) { return r.warnings; }

// The warnings besides the one a driver that keeps no pipeline data
// (lavapipe) gives for a written cache.
std::vector<std::string> unexpected_warnings(const foz::ReplayResult& r) {
  std::vector<std::string> out;
  for (const std::string& w : r.warnings)
    if (w.find("the driver returned no pipeline data") == std::string::npos) out.push_back(w);
  return out;
}

}  // namespace

TEST_CASE("foz_replay: the real captures replay with every pipeline created") {
  for (const std::string& name :
       {std::string("vkcube.72991ed96a80f842.1.foz"), std::string("edge/truncated_header.foz"),
        std::string("edge/truncated_payload.foz")}) {
    CAPTURE(name);
    const auto r = foz::replay(options({std::string(TRAK_TEST_DATA) + "/foz/" + name}));
    const bool cube = name[0] == 'v';
    CHECK(graphics(r).total == (cube ? 1u : 143u));
    CHECK(graphics(r).ok == graphics(r).total);
    CHECK(compute(r).total == (cube ? 0u : 64u));
    CHECK(compute(r).ok == compute(r).total);
    CHECK(r.faulty.empty());
    CHECK(r.failed.empty());
    CHECK(r.unsupported.empty());
    CHECK(warnings(r).size() == (cube ? 0u : 1u));  // the torn last entry
    CHECK(foz::replay_exit_status(r) == 0);
    CHECK_FALSE(r.device.empty());
    CHECK(r.peak_rss_worker > 0);
  }
  CHECK(no_children());
}

TEST_CASE("foz_replay: synth_compute's 1500 pipelines, with the merged cache written and checked") {
  test::ScratchDir dir;
  auto o = options({kCompute});
  o.pipeline_cache = dir / "cache.bin";
  o.threads_per_worker = 1;  // two processes' caches to merge
  const auto r = foz::replay(o);
  CHECK(compute(r).total == 1500);
  CHECK(compute(r).ok == 1500);
  CHECK(r.workers_started >= 2);
  CHECK(foz::replay_exit_status(r) == 0);
  const foz::detail::CacheHeader h = cache_file_header(r, o.pipeline_cache);
  CHECK(h.device_id == r.device_id);
  if (is_lavapipe(r)) {
    // fossilize-synth recorded mesh shading, which Mesa 22.3's lavapipe lacks:
    // reported once for the device, and no pipeline here needs it.
    CHECK(r.missing_features ==
          std::vector<std::string>{"VK_EXT_mesh_shader.taskShader", "VK_EXT_mesh_shader.meshShader"});
  }
  CHECK(no_children());
}

TEST_CASE("foz_replay: a worker that crashes costs its pipeline, is replaced, and the run goes on") {
  const auto hashes = foz::ArchiveReader(kCompute).hashes(Tag::compute_pipeline);
  test::ScratchDir dir;
  EnvVar crash("TRAK_REPLAY_TEST_CRASH", foz::hash_hex(hashes[10]));
  // One job: with two, a loaded machine can let the other worker finish the
  // rest before the crash is seen, and then nothing needs replacing.
  auto o = options({kCompute}, 1);
  o.ranges = {foz::parse_range("compute:0-39")};
  o.pipeline_cache = dir / "cache.bin";  // the crashed worker's work is redone for the cache
  o.skip_done = dir / "done.foz";
  const auto r = foz::replay(o);
  CHECK(compute(r).total == 40);
  CHECK(compute(r).ok == 39);
  CHECK(compute(r).failed == 1);
  CHECK(compute(r).crashed == 1);
  REQUIRE(r.faulty.size() == 1);
  CHECK(r.faulty[0].hash == hashes[10]);
  CHECK(r.faulty[0].index == 10);
  CHECK(r.faulty[0].outcome == foz::Outcome::crashed);
  CHECK(r.faulty[0].signal == SIGABRT);
  CHECK(r.faulty[0].reason == "the worker died of SIGABRT");
  CHECK(r.workers_started == 2);
  CHECK(foz::replay_exit_status(r) == foz::kExitCrashed);
  CHECK(unexpected_warnings(r).empty());  // this process loaded Vulkan before, which workers do not mind
  CHECK(foz::report_table(r).find("repro: trak-replay " + kCompute + " --range compute:10 --jobs 1") !=
        std::string::npos);
  // The crash is not "done": a resumed run tries it again.
  foz::ArchiveReader db(o.skip_done);
  CHECK(db.size() == 39);
  CHECK_FALSE(db.contains(Tag::compute_pipeline, hashes[10]));
  CHECK(no_children());
}

TEST_CASE("foz_replay: a pipeline that kills a worker of four threads is named, the others made again") {
  const auto hashes = foz::ArchiveReader(kCompute).hashes(Tag::compute_pipeline);
  // An abort runs the crash handler, which marks its thread's slot: named at
  // once, no warning. SIGKILL runs none: when the pipeline was not alone in
  // flight, the suspects are made again one at a time (one worker more, and
  // a warning).
  const struct {
    const char* hook;
    int signal;
    const char* reason;
    std::uint64_t most_workers;
  } cases[] = {{"TRAK_REPLAY_TEST_CRASH", SIGABRT, "the worker died of SIGABRT", 2},
               {"TRAK_REPLAY_TEST_KILL", SIGKILL, "the worker died of SIGKILL", 3}};
  for (const auto& c : cases) {
    CAPTURE(c.hook);
    EnvVar hook(c.hook, foz::hash_hex(hashes[10]));
    auto o = options({kCompute}, 4);
    o.threads_per_worker = 4;
    o.ranges = {foz::parse_range("compute:0-39")};
    const auto r = foz::replay(o);
    CHECK(r.threads_per_worker == 4);
    CHECK(compute(r).ok == 39);
    CHECK(compute(r).crashed == 1);
    REQUIRE(r.faulty.size() == 1);
    CHECK(r.faulty[0].hash == hashes[10]);
    CHECK(r.faulty[0].signal == c.signal);
    CHECK(r.faulty[0].reason == c.reason);
    CHECK(r.workers_started >= 2);
    CHECK(r.workers_started <= c.most_workers);
    CHECK(unexpected_warnings(r).size() == r.workers_started - 2);
    CHECK(no_children());
  }
}

TEST_CASE("foz_replay: workers are fresh processes that inherit no descriptor of the caller") {
  test::ScratchDir dir;
  const std::string sentinel = dir / "sentinel";
  test::write_file(sentinel, "x");
  const int fd = ::open(sentinel.c_str(), O_RDONLY);  // no O_CLOEXEC: a plain fork and exec would pass it on
  REQUIRE(fd >= 0);
  const auto hashes = foz::ArchiveReader(kCompute).hashes(Tag::compute_pipeline);
  EnvVar hang("TRAK_REPLAY_TEST_HANG", foz::hash_hex(hashes[2]));  // keeps a worker alive to look at
  auto o = options({kCompute});
  o.ranges = {foz::parse_range("compute:0-9")};
  o.timeout_seconds = 1;
  std::set<pid_t> seen;
  std::vector<std::string> leaked, stdin_not_null, not_workers;
  o.progress = [&](const foz::ReplayProgress&) {
    for (const pid_t pid : children()) {
      const std::string proc = "/proc/" + std::to_string(pid);
      const std::string cmdline = test::read_file(proc + "/cmdline");
      if (cmdline.empty()) continue;  // exiting
      seen.insert(pid);
      if (cmdline.find(std::string(foz::kWorkerFlag)) == std::string::npos) not_workers.push_back(cmdline);
      std::error_code ec;
      for (const auto& e : std::filesystem::directory_iterator(proc + "/fd", ec)) {
        const auto target = std::filesystem::read_symlink(e.path(), ec).string();
        if (target == sentinel) leaked.push_back(proc);
        if (e.path().filename() == "0" && target != "/dev/null") stdin_not_null.push_back(target);
      }
    }
  };
  const auto r = foz::replay(o);
  ::close(fd);
  CHECK_FALSE(seen.empty());
  CHECK(leaked.empty());
  CHECK(stdin_not_null.empty());
  CHECK(not_workers.empty());
  CHECK(compute(r).ok == 9);
  CHECK(compute(r).timed_out == 1);
  CHECK(no_children());
}

TEST_CASE("foz_replay: a worker program that cannot work fails the run with an Error, every child reaped") {
  auto o = options({kCube});
  o.worker_executable = "/bin/true";  // starts, says nothing, exits
  CHECK_THROWS_WITH_AS(foz::replay(o), doctest::Contains("workers keep dying while they set up the device"),
                       libtrace::Error);
  CHECK(no_children());
  o.worker_executable = "/nonexistent/trak-replay";
  CHECK_THROWS_WITH_AS(foz::replay(o), doctest::Contains("cannot start a replay worker: No such file"),
                       libtrace::Error);
  o.worker_executable.clear();
  CHECK_THROWS_WITH_AS(foz::replay(o), doctest::Contains("worker_executable"), libtrace::Error);
  o.in_process = true;  // threads need none
  CHECK(graphics(foz::replay(o)).ok == 1);
  CHECK(no_children());
}

TEST_CASE("foz_replay: workers that end fast or clean give the same results and caches") {
  test::ScratchDir dir;
  for (const auto mode : {foz::WorkerExit::fast, foz::WorkerExit::clean}) {
    auto o = options({kCompute});
    o.ranges = {foz::parse_range("compute:0-199")};
    o.worker_exit = mode;
    o.worker_memory_bytes = 1;  // a handover every 16 pipelines: replacements start while others end
    o.pipeline_cache = dir / "cache.bin";
    const auto r = foz::replay(o);
    CHECK(compute(r).ok == 200);
    CHECK(r.threads_per_worker == 2);  // both threads of a process leave after 16 each
    CHECK(r.workers_started >= 200 / 32);
    CHECK(r.lost_from_cache == 0);
    CHECK(unexpected_warnings(r).empty());
    // Every worker's cache made it into the file (NVIDIA's blobs differ
    // from run to run by a few bytes: no byte comparison across runs).
    cache_file_header(r, o.pipeline_cache);
    CHECK(no_children());
  }
}

TEST_CASE("foz_replay: a pipeline that hangs is killed after --timeout and recorded") {
  const auto hashes = foz::ArchiveReader(kCompute).hashes(Tag::compute_pipeline);
  EnvVar hang("TRAK_REPLAY_TEST_HANG", foz::hash_hex(hashes[3]));
  auto o = options({kCompute});
  o.ranges = {foz::parse_range("compute:0-19")};
  o.timeout_seconds = 1;
  const auto r = foz::replay(o);
  CHECK(compute(r).ok == 19);
  CHECK(compute(r).timed_out == 1);
  REQUIRE(r.faulty.size() == 1);
  CHECK(r.faulty[0].index == 3);
  CHECK(r.faulty[0].outcome == foz::Outcome::timed_out);
  CHECK(r.faulty[0].signal == SIGKILL);
  CHECK(foz::replay_exit_status(r) == foz::kExitCrashed);
  CHECK(no_children());
}

TEST_CASE("foz_replay: shards add up to the whole, each pipeline in exactly one") {
  const auto hashes = foz::ArchiveReader(kCompute).hashes(Tag::compute_pipeline);
  test::ScratchDir dir;
  std::multiset<std::uint64_t> replayed;
  for (unsigned i = 0; i < 3; ++i) {
    auto o = options({kCompute}, 1);
    o.ranges = {foz::parse_range("100-159")};
    o.shard = {i, 3};
    o.skip_done = dir / ("shard" + std::to_string(i) + ".foz");
    const auto r = foz::replay(o);
    CHECK(compute(r).total == 20);
    CHECK(compute(r).ok == 20);
    for (auto h : foz::ArchiveReader(o.skip_done).hashes(Tag::compute_pipeline)) replayed.insert(h);
  }
  const std::multiset<std::uint64_t> whole(hashes.begin() + 100, hashes.begin() + 160);
  CHECK(replayed == whole);
}

TEST_CASE("foz_replay: a resumed run skips what the resume database holds") {
  test::ScratchDir dir;
  auto o = options({kCompute});
  o.skip_done = dir / "done.foz";
  o.ranges = {foz::parse_range("0-29")};
  CHECK(compute(foz::replay(o)).ok == 30);
  o.ranges = {foz::parse_range("0-59")};
  const auto r = foz::replay(o);
  CHECK(compute(r).total == 60);
  CHECK(compute(r).already_done == 30);
  CHECK(compute(r).ok == 30);
  CHECK(compute(r).skipped == 30);
  CHECK(foz::ArchiveReader(o.skip_done).size() == 60);
  // Nothing left: only the worker started before the archive was read (it
  // names the device), and it creates nothing.
  const auto again = foz::replay(o);
  CHECK(compute(again).already_done == 60);
  CHECK(compute(again).ok == 0);
  CHECK(again.workers_started == 1);
  CHECK_FALSE(again.device.empty());

  // Stopped before it began (as by Ctrl-C): nothing run, all counted.
  std::atomic<bool> stop{true};
  o.ranges = {foz::parse_range("60-69")};
  o.stop = &stop;
  const auto stopped = foz::replay(o);
  CHECK(stopped.interrupted);
  CHECK(compute(stopped).not_run == 10);
  CHECK(foz::replay_exit_status(stopped) == foz::kExitInterrupted);
  CHECK(no_children());
}

TEST_CASE("foz_replay: a cache file loads back on its device and is refused on another") {
  test::ScratchDir dir;
  auto o = options({kCube}, 1);
  o.pipeline_cache = dir / "a.bin";
  auto r = foz::replay(o);
  CHECK(r.caches_loaded == 0);
  o.load_caches = {dir / "a.bin"};
  o.pipeline_cache = dir / "b.bin";
  r = foz::replay(o);
  CHECK(r.caches_loaded == 1);
  CHECK(unexpected_warnings(r).empty());
  CHECK(graphics(r).ok == 1);
  const auto a = foz::detail::read_file_bytes(dir / "a.bin");
  const auto b = foz::detail::read_file_bytes(dir / "b.bin");
  CHECK(b.size() >= a.size());  // the seed is merged into the output
  // Another vendor's cache: warned about, not loaded, the run goes on.
  auto other = a;
  other[8] ^= 0x5a;
  test::write_file(dir / "other.bin", std::string(other.begin(), other.end()));
  o.load_caches = {dir / "other.bin"};
  r = foz::replay(o);
  CHECK(r.caches_loaded == 0);
  REQUIRE(unexpected_warnings(r).size() == 1);
  CHECK(unexpected_warnings(r)[0].find("other.bin: not loaded: made for vendor") != std::string::npos);
  CHECK(graphics(r).ok == 1);
  test::write_file(dir / "junk.bin", "junk");
  o.load_caches = {dir / "junk.bin"};
  r = foz::replay(o);
  CHECK(unexpected_warnings(r).size() == 1);
  CHECK(graphics(r).ok == 1);

  // Several seeds: those that fit are merged, the others named.
  o.load_caches = {dir / "a.bin", dir / "other.bin", dir / "b.bin"};
  r = foz::replay(o);
  CHECK(r.caches_loaded == 2);
  CHECK(unexpected_warnings(r).size() == 1);

  // No archive: the caches of shards merge into one file.
  const auto m = foz::merge_cache_files("", {dir / "a.bin", dir / "b.bin", dir / "other.bin"}, dir / "all.bin");
  CHECK(m.merged.size() == 2);
  REQUIRE(m.skipped.size() == 1);
  CHECK(m.skipped[0].first == dir / "other.bin");
  CHECK(m.bytes == foz::detail::read_file_bytes(dir / "all.bin").size());
  CHECK(m.bytes >= a.size());
  CHECK_THROWS_AS(foz::merge_cache_files("", {dir / "other.bin"}, dir / "none.bin"), libtrace::Error);
  CHECK_THROWS_AS(foz::merge_cache_files("", {dir / "a.bin"}, ""), libtrace::Error);
}

TEST_CASE("foz_replay: bad input fails its pipeline only") {
  test::ScratchDir dir;
  const auto cube = items_of(kCube);

  SUBCASE("a missing dependency") {
    auto v = cube;
    v.erase(std::remove_if(v.begin(), v.end(), [](const Item& i) { return i.tag == Tag::pipeline_layout; }), v.end());
    write_archive(dir / "a.foz", v);
    auto o = options({dir / "a.foz", kCompute});
    o.ranges = {foz::parse_range("compute:0-4")};
    const auto r = foz::replay(o);
    CHECK(graphics(r).failed == 1);
    CHECK(compute(r).ok == 5);
    REQUIRE(r.failed.size() == 1);
    CHECK(r.failed[0].reason == "missing pipeline_layout 2ab80332838222bd (in no input archive)");
    CHECK(foz::replay_exit_status(r) == foz::kExitFailed);
  }
  SUBCASE("an unknown pNext sType") {
    auto v = cube;
    auto& p = find(v, Tag::graphics_pipeline).payload;
    const std::string at = "{\"flags\":0,\"basePipelineHandle\"";
    REQUIRE(p.find(at) != std::string::npos);
    p.replace(p.find(at), at.size(), "{\"flags\":0,\"pNext\":[{\"sType\":123456789}],\"basePipelineHandle\"");
    write_archive(dir / "b.foz", v);
    const auto r = foz::replay(options({dir / "b.foz"}));
    CHECK(graphics(r).failed == 1);
    REQUIRE(r.failed.size() == 1);
    CHECK(r.failed[0].reason.find("123456789") != std::string::npos);
  }
  SUBCASE("a pNext struct of an extension the device lacks") {
    auto v = cube;
    auto& p = find(v, Tag::graphics_pipeline).payload;
    const std::string at = "{\"flags\":0,\"basePipelineHandle\"";
    p.replace(p.find(at), at.size(),
              "{\"flags\":0,\"pNext\":[{\"sType\":1000099001,\"flags\":0,\"discardRectangleMode\":0,"
              "\"discardRectangleCount\":0}],\"basePipelineHandle\"");
    write_archive(dir / "c.foz", v);
    const auto r = foz::replay(options({dir / "c.foz"}));
    if (is_lavapipe(r)) {  // Mesa 22.3's lavapipe has no VK_EXT_discard_rectangles
      CHECK(graphics(r).skipped == 1);
      CHECK(graphics(r).unsupported == 1);
      REQUIRE(r.unsupported.size() == 1);
      CHECK(r.unsupported[0].reason == "the device lacks VK_EXT_discard_rectangles");
      CHECK(foz::replay_exit_status(r) == 0);
    }
  }
  SUBCASE("invalid SPIR-V, caught by --validate") {
    // spirv-val comes with spirv-tools, which CI installs; elsewhere it may be absent.
    if (std::system("command -v spirv-val >/dev/null 2>&1") != 0 && !std::getenv("CI")) return;
    auto v = cube;
    for (auto& i : v)
      if (i.tag == Tag::shader_module && i.hash == 0x1778d8b90d391b54ull)
        i.payload =
            "{\"version\":6,\"shaderModules\":{\"1778d8b90d391b54\":{\"flags\":0,\"codeSize\":8,\"code\":\"AwIjBwAAAQA="
            "\"}}}";
    write_archive(dir / "d.foz", v);
    auto o = options({dir / "d.foz"});
    o.validate = true;
    const auto r = foz::replay(o);
    CHECK(graphics(r).failed == 1);
    REQUIRE(r.failed.size() == 1);
    CAPTURE(r.failed[0].reason);
    CHECK(r.failed[0].reason.find("shader_module 1778d8b90d391b54: invalid SPIR-V: ") == 0);
  }
  CHECK(no_children());
}

TEST_CASE("foz_replay: objects are found across archives") {
  test::ScratchDir dir;
  auto v = items_of(kCube);
  std::vector<Item> pipeline, rest;
  for (auto& i : v) (i.tag == Tag::graphics_pipeline ? pipeline : rest).push_back(i);
  write_archive(dir / "p.foz", pipeline);
  write_archive(dir / "rest.foz", rest);
  const auto r = foz::replay(options({dir / "p.foz", dir / "rest.foz"}));
  CHECK(graphics(r).ok == 1);
  CHECK(r.failed.empty());
}

TEST_CASE("foz_replay: the null device parses everything and creates nothing") {
  auto o = options({kCompute, kCube}, 1);
  o.null_device = true;
  const auto r = foz::replay(o);
  CHECK(r.device == "null device");
  CHECK(r.null_device);
  CHECK(compute(r).ok == 1500);
  CHECK(graphics(r).ok == 1);
  o.pipeline_cache = "x.bin";
  CHECK_THROWS_AS(foz::replay(o), libtrace::Error);
  CHECK(no_children());
}

TEST_CASE("foz_replay: in-process threads share one device (no isolation, same results)") {
  auto o = options({kCube, kCompute});
  o.in_process = true;
  o.ranges = {foz::parse_range("compute:0-99")};
  const auto r = foz::replay(o);
  CHECK(r.in_process);
  CHECK(graphics(r).ok == 1);
  CHECK(compute(r).ok == 100);
  const std::string json = foz::report_json(r);
  for (const char* key :
       {"\"device\":", "\"graphics\":{\"total\":1,\"ok\":1,\"failed\":0,\"skipped\":0",
        "\"compute\":{\"total\":100,\"ok\":100,\"failed\":0,\"skipped\":0", "\"raytracing\":{\"total\":0",
        "\"pipelines_per_second\":", "\"peak_rss_bytes\":", "\"seconds\":"})
    CHECK(json.find(key) != std::string::npos);
}

TEST_CASE("foz_replay: a derived pipeline gets its base created first, and the base is not made twice") {
  test::ScratchDir dir;
  auto v = items_of(kCube);
  const std::string key = "\"e3b925b0c1c00de1\":{\"flags\":0,\"basePipelineHandle\":\"0000000000000000\"";
  // ALLOW_DERIVATIVES (2) on the base, DERIVATIVE (4) naming it on the other.
  const Item base =
      cube_pipeline_as(v, 0xbbbb, key, "\"000000000000bbbb\":{\"flags\":2,\"basePipelineHandle\":\"0000000000000000\"");
  // It sorts first: the base is made as its dependency.
  const Item derived =
      cube_pipeline_as(v, 0x1111, key, "\"0000000000001111\":{\"flags\":4,\"basePipelineHandle\":\"000000000000bbbb\"");
  v.push_back(base);
  v.push_back(derived);
  write_archive(dir / "d.foz", v);
  auto r = foz::replay(options({dir / "d.foz"}, 1));
  CHECK(graphics(r).total == 3);
  CHECK(graphics(r).ok == 3);
  CHECK(r.failed.empty());

  // Without its base in any archive, the derived pipeline alone fails.
  v.erase(std::remove_if(v.begin(), v.end(), [](const Item& i) { return i.hash == 0xbbbb; }), v.end());
  write_archive(dir / "e.foz", v);
  r = foz::replay(options({dir / "e.foz"}, 1));
  CHECK(graphics(r).ok == 1);
  REQUIRE(r.failed.size() == 1);
  CHECK(r.failed[0].hash == 0x1111);
  CHECK(r.failed[0].reason == "missing graphics_pipeline 000000000000bbbb (in no input archive)");
}

TEST_CASE("foz_replay: ray-tracing pipelines are counted, and skipped on a device without ray tracing") {
  test::ScratchDir dir;
  auto v = items_of(kCube);
  v.push_back({Tag::raytracing_pipeline, 0x7777,
               "{\"version\":6,\"raytracingPipelines\":{\"0000000000007777\":{\"flags\":0,"
               "\"maxPipelineRayRecursionDepth\":1,\"layout\":\"2ab80332838222bd\",\"basePipelineHandle\":"
               "\"0000000000000000\",\"basePipelineIndex\":-1,\"stages\":[{\"flags\":0,\"name\":\"main\","
               "\"module\":\"8360ba81b60d3962\",\"stage\":256}],\"groups\":[{\"type\":0,\"generalShader\":0,"
               "\"closestHitShader\":4294967295,\"anyHitShader\":4294967295,\"intersectionShader\":4294967295}]}}}"});
  write_archive(dir / "rt.foz", v);
  const auto r = foz::replay(options({dir / "rt.foz"}, 1));
  CHECK(r.counts[2].total == 1);
  CHECK(graphics(r).ok == 1);
  if (is_lavapipe(r)) {  // Mesa 22.3's lavapipe has no ray tracing
    CHECK(r.counts[2].unsupported == 1);
    REQUIRE(r.unsupported.size() == 1);
    CHECK(r.unsupported[0].reason == "the device lacks VK_KHR_ray_tracing_pipeline.rayTracingPipeline");
  }
}

TEST_CASE("foz_replay: a real ray-tracing pipeline is created where the device has ray tracing, else skipped") {
  // tests/data/foz/raytracing: raygen, miss and closest hit from SPIR-V
  // assembly, a TLAS + storage image set layout (tests/gen/foz_rt_gen.cpp).
  const auto r = foz::replay(options({std::string(TRAK_TEST_DATA) + "/foz/raytracing/raytracing.foz"}, 1));
  const foz::TypeCounts& rt = r.counts[2];
  CHECK(rt.total == 1);
  CHECK(rt.failed == 0);
  CHECK(rt.ok + rt.unsupported == 1);
  CHECK(r.failed.empty());
  if (rt.unsupported) {  // lavapipe (Mesa 22.3) has none
    REQUIRE(r.unsupported.size() == 1);
    CHECK(r.unsupported[0].hash == 0xad67c83944072029);
    CHECK(r.unsupported[0].reason == "the device lacks VK_KHR_ray_tracing_pipeline.rayTracingPipeline");
  }
  if (is_lavapipe(r)) CHECK(rt.unsupported == 1);
  MESSAGE("ray tracing on " << r.device << ": " << rt.ok << " created, " << rt.unsupported << " unsupported");
  CHECK(foz::replay_exit_status(r) == 0);
}

TEST_CASE("foz_replay: workers hand over to fresh ones past their memory limit; every cache is merged") {
  test::ScratchDir dir;
  auto o = options({kCompute});
  o.ranges = {foz::parse_range("0-99")};
  o.worker_memory_bytes = 1;  // every worker is over it: it leaves after 16 pipelines
  o.module_cache_bytes = 1;   // and keeps no shader module beyond the pipeline using it
  o.pipeline_cache = dir / "c.bin";
  o.skip_done = dir / "done.foz";
  const auto r = foz::replay(o);
  CHECK(compute(r).ok == 100);
  CHECK(r.workers_started >= 100 / (16 * r.threads_per_worker));
  CHECK(r.lost_from_cache == 0);
  CHECK(foz::ArchiveReader(o.skip_done).size() == 100);
  CHECK(r.pipeline_cache_bytes == foz::detail::read_file_bytes(o.pipeline_cache).size());
  CHECK(no_children());
}

TEST_CASE("foz_replay: a pipeline linked from a graphics pipeline library gets the library created first") {
  test::ScratchDir dir;
  auto v = items_of(kCube);
  // vkcube's pipeline as a complete library (all four parts), and a pipeline
  // made of nothing but that library.
  const Item lib =
      cube_pipeline_as(v, 0xa1a1, "\"e3b925b0c1c00de1\":{\"flags\":0,",
                       "\"000000000000a1a1\":{\"flags\":2048,\"pNext\":[{\"sType\":1000320002,\"flags\":15}],");
  const Item linked{
      Tag::graphics_pipeline, 0x0a2a,
      "{\"version\":6,\"graphicsPipelines\":{\"0000000000000a2a\":{\"flags\":0,\"basePipelineHandle\":"
      "\"0000000000000000\",\"basePipelineIndex\":-1,\"layout\":\"2ab80332838222bd\",\"renderPass\":"
      "\"0000000000000000\",\"subpass\":0,\"pNext\":[{\"sType\":1000290000,\"libraries\":[\"000000000000a1a1\"]}]}}}"};
  v.push_back(lib);
  v.push_back(linked);
  write_archive(dir / "gpl.foz", v);
  const auto r = foz::replay(options({dir / "gpl.foz"}, 1));
  CHECK(graphics(r).total == 3);
  CHECK(r.failed.empty());
  if (is_lavapipe(r)) {  // Mesa 22.3's lavapipe has VK_EXT_graphics_pipeline_library
    CHECK(graphics(r).ok == 3);
  } else {
    CHECK(graphics(r).ok + graphics(r).unsupported == 3);
  }
}

TEST_CASE("foz_replay: the rate counts the pipelines attempted, failed ones too") {
  foz::ReplayResult r;
  r.seconds = 2;
  r.counts[0].ok = 0;
  r.counts[0].failed = 10;  // an interrupted or failing run still went at some speed
  r.counts[1].ok = 6;
  CHECK(r.pipelines_per_second() == doctest::Approx(8.0));
}
