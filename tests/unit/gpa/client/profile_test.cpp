// SPDX-License-Identifier: MIT
// trak-gpa profile's reading of the layer's rows: one file per device, a
// last row torn by the end of its process dropped with a warning, several
// devices kept apart.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "libtrace/gpa/client/profile.hpp"

namespace {

using namespace libtrace;

struct Warnings {
  std::vector<std::string> lines;
  WarningSink sink() {
    return [this](const std::string& where, const std::string& why) { lines.push_back(where + ": " + why); };
  }
};

void read(const std::string& text, gpa::client::Profile& p, Warnings& w) {
  std::istringstream in(text);
  gpa::client::read_rows(in, "pid 7 device 0", p, w.sink());
}

const char* const kWhole =
    "# device pid=7 n=0 start_ns=100\n"
    "frame,command_buffer,scope,gpu_ns,vs_invocations,fs_invocations\n"
    "1,0,command buffer,1000,36,100\n"
    "2,0,command buffer,2000,36,100\n";

}  // namespace

TEST_CASE("gpa: a closed profile: frames, samples and the layer's CPU time") {
  gpa::client::Profile p;
  Warnings w;
  read(std::string(kWhole) + "# cpu_ns=5000 frames=2\n", p, w);
  CHECK(w.lines.empty());
  REQUIRE(p.devices.size() == 1);
  CHECK(p.devices[0].pid == 7);
  CHECK(p.devices[0].samples == 2);
  CHECK(p.frames == 2);
  CHECK(p.layer_cpu_ns == 5000);
  CHECK(p.counter_names == std::vector<std::string>{"vs_invocations", "fs_invocations"});
  REQUIRE(p.rows.size() == 2);
  CHECK(p.rows[1].counters == std::vector<std::uint64_t>{36, 100});
}

TEST_CASE("gpa: a row torn by the end of its process is dropped with a warning, the rest kept") {
  gpa::client::Profile p;
  Warnings w;
  read(std::string(kWhole) + "3,0,comm", p, w);
  CHECK(p.rows.size() == 2);
  CHECK(p.torn_rows == 1);
  REQUIRE(w.lines.size() == 1);
  CHECK(w.lines[0] == "pid 7 device 0: line 5: cut off by the end of its process: dropped");
  CHECK(p.layer_cpu_ns == -1);  // never closed
  CHECK(p.frames == 2);         // the last frame with samples
}

TEST_CASE("gpa: a malformed row that is not the last is an error naming its line") {
  gpa::client::Profile p;
  Warnings w;
  CHECK_THROWS_WITH_AS(read(std::string(kWhole) + "3,0,command buffer\n4,0,command buffer,1,2,3\n", p, w),
                       "pid 7 device 0: line 5: 3 fields, the header has 6", Error);
}

TEST_CASE("gpa: two devices stay apart: their frames add up, their rows keep their device") {
  gpa::client::Profile p;
  Warnings w;
  read(std::string(kWhole) + "# cpu_ns=10 frames=2\n", p, w);
  read(std::string(kWhole) + "# cpu_ns=20 frames=2\n", p, w);
  CHECK(p.devices.size() == 2);
  CHECK(p.frames == 4);
  CHECK(p.layer_cpu_ns == 30);
  REQUIRE(p.rows.size() == 4);
  CHECK(p.rows[3].device == 1);
  const gpa::client::Summary s = gpa::client::summarize(p);
  CHECK(s.frames == 4);  // frame 1 of each device is a frame of its own
  CHECK(s.frame_ns == std::vector<double>{1000, 2000, 1000, 2000});
}

TEST_CASE("gpa: a device the layer could not profile is there, with why") {
  gpa::client::Profile p;
  Warnings w;
  read("# device pid=9 n=0 start_ns=1\n# unprofiled=no-extension\n", p, w);
  REQUIRE(p.devices.size() == 1);
  CHECK_FALSE(p.devices[0].profiled);
  CHECK(p.devices[0].why_not == "it has no VK_AMD_gpa_interface to sample with");
}
