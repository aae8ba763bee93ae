// SPDX-License-Identifier: MIT
// What a worker process is told and answers: every field survives the trip,
// another protocol version is refused, and a cut message is noticed.
#include <doctest/doctest.h>

#include "../../libtrace/src/foz_replay_child.hpp"

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
  s.parent = 4242;
  s.inputs = {"a.foz", "dir/b.foz"};
  s.device_spec = "NVIDIA";
  s.null_device = true;
  s.load_caches = {"seed.bin"};
  s.module_budget = 123456789;
  s.limits.seconds = 2.5;
  s.limits.rss_bytes = 1ull << 33;
  s.blob_dir = "/tmp/.trak-replay-x";
  const WorkerSetup t = read_setup(body_of(setup_message(s), MsgKind::setup));
  CHECK(t.id == 7);
  CHECK(t.slot == 2);
  CHECK(t.parent == 4242);
  CHECK(t.inputs == s.inputs);
  CHECK(t.device_spec == "NVIDIA");
  CHECK(t.null_device);
  CHECK(t.load_caches == s.load_caches);
  CHECK(t.module_budget == 123456789);
  CHECK(t.limits.seconds == 2.5);
  CHECK(t.limits.rss_bytes == 1ull << 33);
  CHECK(t.blob_dir == s.blob_dir);
}

TEST_CASE("foz_replay_child: another protocol, or a cut message, is an error, not a misread") {
  std::string body = body_of(setup_message(WorkerSetup{}), MsgKind::setup);
  std::string other = body;
  other[0] ^= 1;
  CHECK_THROWS_WITH_AS(read_setup(other), doctest::Contains("another protocol"), libtrace::Error);
  body.resize(body.size() - 1);
  CHECK_THROWS_WITH_AS(read_setup(body), doctest::Contains("malformed setup"), libtrace::Error);
  std::string start = body_of(start_message({1, 2}, {}), MsgKind::start);
  start.resize(6);
  CHECK_THROWS_WITH_AS(read_start(start), doctest::Contains("malformed start"), libtrace::Error);
}

TEST_CASE("foz_replay_child: the start message carries a crashed worker's items and the rejected modules") {
  const InvalidModules invalid = {{0x11, "spirv-val: bad"}, {0x22, ""}};
  const WorkerStart st = read_start(body_of(start_message({5, 9, 3}, invalid), MsgKind::start));
  CHECK(st.first == std::vector<std::uint64_t>{5, 9, 3});
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
