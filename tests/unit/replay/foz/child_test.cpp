// SPDX-License-Identifier: MIT
// What a worker process is told and answers: every field survives the trip,
// another protocol version is refused, and a cut message is noticed.
#include <doctest/doctest.h>

#include <cstdlib>

#include "replay/foz/child.hpp"

namespace foz = libtrace::foz;
using namespace foz::detail;

namespace {

// The body of the one frame in `frame`, checking its kind.
std::string body_of(std::string frame, MsgKind want) {
  MsgKind kind{};
  std::string body;
  REQUIRE(next_frame(frame, kind, body));
  CHECK(kind == want);
  CHECK(frame.empty());
  return body;
}

}  // namespace

TEST_CASE("foz_replay_child: the setup a worker starts from round-trips") {
  WorkerSetup s;
  s.id = 7;
  s.slot = 2;
  s.threads = 6;
  s.parent = 4242;
  s.inputs = {"a.foz", "dir/b.foz"};
  s.device_spec = "NVIDIA";
  s.null_device = true;
  s.load_caches = {"seed.bin"};
  s.module_budget = 123456789;
  s.limits.seconds = 2.5;
  s.limits.rss_bytes = 1ull << 33;
  s.blob_dir = "/tmp/.trak-replay-x";
  s.exit = foz::WorkerExit::fast;
  s.compile_required = foz::CompileRequired::skip;
  s.stats_dir = "/tmp/.trak-replay-stats";
  const WorkerSetup t = read_setup(body_of(setup_message(s), MsgKind::setup));
  CHECK(t.id == 7);
  CHECK(t.slot == 2);
  CHECK(t.threads == 6);
  CHECK(t.parent == 4242);
  CHECK(t.inputs == s.inputs);
  CHECK(t.device_spec == "NVIDIA");
  CHECK(t.null_device);
  CHECK(t.load_caches == s.load_caches);
  CHECK(t.module_budget == 123456789);
  CHECK(t.limits.seconds == 2.5);
  CHECK(t.limits.rss_bytes == 1ull << 33);
  CHECK(t.blob_dir == s.blob_dir);
  CHECK(t.exit == foz::WorkerExit::fast);
  CHECK(t.compile_required == foz::CompileRequired::skip);
  CHECK(t.stats_dir == s.stats_dir);
}

TEST_CASE("foz_replay_child: another protocol, or a cut message, is an error, not a misread") {
  std::string body = body_of(setup_message(WorkerSetup{}), MsgKind::setup);
  std::string other = body;
  other[0] ^= 1;
  CHECK_THROWS_WITH_AS(read_setup(other), doctest::Contains("another protocol"), libtrace::Error);
  std::string bad_mode = body;
  bad_mode[bad_mode.size() - 5] = 3;  // no such CompileRequired (an empty stats_dir follows)
  CHECK_THROWS_WITH_AS(read_setup(bad_mode), doctest::Contains("malformed setup"), libtrace::Error);
  body.resize(body.size() - 1);
  CHECK_THROWS_WITH_AS(read_setup(body), doctest::Contains("malformed setup"), libtrace::Error);
  WorkerSetup none;
  none.threads = 0;
  std::string no_threads = body_of(setup_message(none), MsgKind::setup);
  CHECK_THROWS_WITH_AS(read_setup(no_threads), doctest::Contains("malformed setup"), libtrace::Error);
  std::string start = body_of(start_message({{1, 2}, {}, {}}), MsgKind::start);
  start.resize(6);
  CHECK_THROWS_WITH_AS(read_start(start), doctest::Contains("malformed start"), libtrace::Error);
}

TEST_CASE("foz_replay_child: the start message carries a crashed worker's items and the rejected modules") {
  const InvalidModules invalid = {{0x11, "spirv-val: bad"}, {0x22, ""}};
  const WorkerStart st = read_start(body_of(start_message({{5, 9, 3}, {7}, invalid}), MsgKind::start));
  CHECK(st.solo == std::vector<std::uint64_t>{5, 9, 3});
  CHECK(st.again == std::vector<std::uint64_t>{7});
  CHECK(st.invalid_modules == invalid);
}

TEST_CASE("foz_replay_child: the device report of hello round-trips") {
  DeviceReport d;
  d.name = "llvmpipe";
  d.driver = "Mesa";
  d.vendor_id = 0x10005;
  d.device_id = 1;
  d.api_version = 4206847;
  d.uuid[15] = 0xee;
  d.missing_features = {"VK_EXT_mesh_shader.taskShader"};
  d.warnings = {{"c.bin", "not loaded: made for vendor 0x10de"}};
  d.caches_loaded = 2;
  const std::string body = body_of(hello_message(d), MsgKind::hello);
  MsgIn in(body);
  const DeviceReport e = read_hello(in);
  CHECK(in.ok());
  CHECK(e.name == d.name);
  CHECK(e.driver == d.driver);
  CHECK(e.vendor_id == d.vendor_id);
  CHECK(e.api_version == d.api_version);
  CHECK(e.uuid[15] == 0xee);
  CHECK(e.missing_features == d.missing_features);
  CHECK(e.warnings == d.warnings);
  CHECK(e.caches_loaded == 2);
}

TEST_CASE("foz_replay_child: a worker skips its teardown only where the driver's disk cache is off") {
  struct Env {
    const char* name;
    Env(const char* n, const char* v) : name(n) { ::setenv(n, v, 1); }
    ~Env() { ::unsetenv(name); }
  };
  ::unsetenv("MESA_SHADER_CACHE_DISABLE");
  ::unsetenv("MESA_GLSL_CACHE_DISABLE");
  ::unsetenv("__GL_SHADER_DISK_CACHE");
  DeviceReport lavapipe, nvidia, other, null;
  lavapipe.driver_id = VK_DRIVER_ID_MESA_LLVMPIPE;
  nvidia.driver_id = VK_DRIVER_ID_NVIDIA_PROPRIETARY;
  other.driver_id = VK_DRIVER_ID_AMD_PROPRIETARY;
  null.null_device = true;
  const auto autom = foz::WorkerExit::automatic;
  CHECK(skips_teardown(foz::WorkerExit::fast, lavapipe));
  CHECK_FALSE(skips_teardown(foz::WorkerExit::clean, null));
  CHECK(skips_teardown(autom, null));  // nothing to flush
  CHECK_FALSE(skips_teardown(autom, lavapipe));
  CHECK_FALSE(skips_teardown(autom, nvidia));
  CHECK_FALSE(skips_teardown(autom, other));
  {
    Env off("MESA_SHADER_CACHE_DISABLE", "TRUE");
    CHECK(skips_teardown(autom, lavapipe));
    CHECK_FALSE(skips_teardown(autom, nvidia));  // another driver's switch
  }
  {
    Env on("MESA_SHADER_CACHE_DISABLE", "false");
    CHECK_FALSE(skips_teardown(autom, lavapipe));
  }
  {
    Env off("__GL_SHADER_DISK_CACHE", "0");
    CHECK(skips_teardown(autom, nvidia));
    CHECK_FALSE(skips_teardown(autom, other));
  }
}
