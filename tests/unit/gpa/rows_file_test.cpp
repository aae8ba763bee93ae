// SPDX-License-Identifier: MIT
// The profile's files, from both ends: what VK_LAYER_TRAK_gpa's RowsFile
// writes (one file per device, named and headed so that trak-gpa can tell the
// devices apart and order them), read back by trak-gpa's read_rows; then the
// lines read_rows refuses, and the summary's arithmetic over what it read.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpa/rows_file.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/gpa/client/profile.hpp"
#include "test_util.hpp"

namespace {

using namespace libtrace;

// The files a folder holds, as the launcher lists them: "<pid>.<n>.csv".
std::string file_of(const test::ScratchDir& dir, unsigned n) {
  return dir / (std::to_string(::getpid()) + "." + std::to_string(n) + ".csv");
}

gpa::client::Profile read_text(const std::string& text, std::vector<std::string>* warnings = nullptr) {
  gpa::client::Profile p;
  std::istringstream in(text);
  gpa::client::read_rows(in, "dev", p, [&](const std::string& where, const std::string& why) {
    if (warnings) warnings->push_back(where + ": " + why);
  });
  return p;
}

void check_refused(const std::string& text, Errc code, const std::string& what) {
  try {
    (void)read_text(text);
    FAIL("accepted: " << text);
  } catch (const Error& e) {
    CHECK(e.code() == code);
    CHECK(std::string(e.what()) == what);
  }
}

}  // namespace

TEST_CASE("gpa rows file: one file per device, headed with its pid and number, read back as that device") {
  test::ScratchDir dir;
  unsigned first = 0;
  {
    gpa::RowsFile a(dir.path);
    REQUIRE(a.open());
    CHECK(a.owned_here());
    gpa::RowsFile b(dir.path);
    REQUIRE(b.open());
    // The devices' numbers go on from process-wide count: find a's.
    for (unsigned n = 0; n < 1000 && first == 0; ++n)
      if (::access(file_of(dir, n).c_str(), F_OK) == 0) first = n + 1;
    REQUIRE(first > 0);
    --first;
    CHECK(::access(file_of(dir, first + 1).c_str(), F_OK) == 0);  // b's
    a.write("frame,command_buffer,scope,gpu_ns,vs_invocations\n");
    a.write("1,0,command buffer,1500,36\n2,0,command buffer,2500,36\n");
    a.write("# cpu_ns=700 frames=2\n");
  }
  const std::string text = test::read_file(file_of(dir, first));
  const std::string head = "# device pid=" + std::to_string(::getpid()) + " n=" + std::to_string(first) + " start_ns=";
  REQUIRE(text.rfind(head, 0) == 0);
  CHECK(text.find('\n') > head.size());  // a time follows

  std::vector<std::string> warnings;
  const gpa::client::Profile p = read_text(text, &warnings);
  CHECK(warnings.empty());
  REQUIRE(p.devices.size() == 1);
  CHECK(p.devices[0].pid == ::getpid());
  CHECK(p.devices[0].index == first);
  CHECK(p.devices[0].profiled);
  CHECK(p.devices[0].samples == 2);
  CHECK(p.devices[0].layer_cpu_ns == 700);
  CHECK(p.counter_names == std::vector<std::string>{"vs_invocations"});
  REQUIRE(p.rows.size() == 2);
  CHECK(p.rows[0].frame == 1);
  CHECK(p.rows[0].scope == "command buffer");
  CHECK(p.rows[1].gpu_ns == 2500);
  CHECK(p.rows[1].counters == std::vector<std::uint64_t>{36});

  // b wrote its header only: a device that made no sample.
  const gpa::client::Profile q = read_text(test::read_file(file_of(dir, first + 1)));
  REQUIRE(q.devices.size() == 1);
  CHECK(q.devices[0].index == first + 1);
  CHECK(q.rows.empty());
  CHECK(q.layer_cpu_ns == -1);
}

TEST_CASE("gpa rows file: a folder it cannot write in leaves it closed, and writes do nothing") {
  test::ScratchDir dir;
  gpa::RowsFile f(dir / "missing");
  CHECK_FALSE(f.open());
  f.write("1,0,command buffer,1,2\n");  // no throw, nowhere to go
  gpa::RowsFile moved(dir.path);
  REQUIRE(moved.open());
  gpa::RowsFile to(std::move(moved));
  CHECK(to.open());
  CHECK_FALSE(moved.open());  // NOLINT(bugprone-use-after-move): the moved-from file is closed
  moved.write("nothing\n");
}

TEST_CASE("gpa rows: malformed lines are refused naming the line") {
  const std::string head = "# device pid=1 n=0 start_ns=5\nframe,command_buffer,scope,gpu_ns,fs_invocations\n";
  check_refused("1,0,command buffer,5,6\n", Errc::bad_magic, "dev: line 1: not a profile (no header)");
  check_refused("frame,command_buffer\n", Errc::bad_magic, "dev: line 1: not a profile (no header)");
  check_refused(head + "x,0,command buffer,5,6\n", Errc::bad_record, "dev: line 3: not a number: \"x\"");
  check_refused(head + "1,0,command buffer,-5,6\n", Errc::bad_record, "dev: line 3: not a number: \"-5\"");
  check_refused(head + "1,0,command buffer,5,6x\n", Errc::bad_record, "dev: line 3: not a number: \"6x\"");
  check_refused(head + "1,0,command buffer,5\n", Errc::bad_record, "dev: line 3: 4 fields, the header has 5");
  check_refused(head + "1,0,command buffer,5,6,7\n", Errc::bad_record, "dev: line 3: 6 fields, the header has 5");
  check_refused("# device pid=x n=0\n", Errc::bad_record, "dev: line 1: not a number: \"x\"");
  check_refused(head + "# cpu_ns=99999999999999999999999\n", Errc::bad_record,
                "dev: line 3: not a number: \"99999999999999999999999\"");
}

TEST_CASE("gpa rows: a device sampling other counters than the first keeps its GPU times only") {
  const std::string first = "frame,command_buffer,scope,gpu_ns,vs_invocations\n1,0,command buffer,10,3\n";
  const std::string other = "frame,command_buffer,scope,gpu_ns,cs_invocations\n1,0,command buffer,20,4\n";
  gpa::client::Profile p;
  std::vector<std::string> warnings;
  for (const std::string* text : {&first, &other}) {
    std::istringstream in(*text);
    gpa::client::read_rows(
        in, "dev " + std::to_string(p.devices.size()), p,
        [&](const std::string& where, const std::string& why) { warnings.push_back(where + ": " + why); });
  }
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "dev 1: sampled other counters than the first device: its samples keep their GPU times only");
  CHECK(p.counter_names == std::vector<std::string>{"vs_invocations"});
  REQUIRE(p.rows.size() == 2);
  CHECK(p.rows[0].counters == std::vector<std::uint64_t>{3});
  CHECK(p.rows[1].counters.empty());
  CHECK(p.rows[1].gpu_ns == 20);
}

TEST_CASE("gpa summary: per-frame GPU time by nearest rank, scopes by total, overhead of the wall time") {
  std::string text = "frame,command_buffer,scope,gpu_ns,vs_invocations\n";
  // Frames 1..20: frame f takes 100 * f ns in command buffer 0, and frame 20
  // 5000 ns more in command buffer 1.
  for (int f = 1; f <= 20; ++f) text += std::to_string(f) + ",0,command buffer," + std::to_string(100 * f) + ",2\n";
  text += "20,1,render pass 0,5000,1\n";
  text += "# cpu_ns=3000000 frames=20\n";
  gpa::client::Profile p = read_text(text);
  p.wall_seconds = 0.5;
  const gpa::client::Summary s = gpa::client::summarize(p);
  CHECK(s.frames == 20);
  CHECK(s.min_ns == 100);
  CHECK(s.max_ns == 7000);     // 2000 + 5000
  CHECK(s.median_ns == 1000);  // rank ceil(0.5 * 20) = 10
  CHECK(s.p95_ns == 1900);     // rank 19 of 20: the largest is frame 20
  CHECK(s.counter_totals == std::vector<std::uint64_t>{41});
  REQUIRE(s.costliest.size() == 2);
  CHECK(s.costliest[0].command_buffer == 0);
  CHECK(s.costliest[0].samples == 20);
  CHECK(s.costliest[0].total_ns == 21000);  // 100 * (1 + ... + 20)
  CHECK(s.costliest[0].mean_ns == 1050);
  CHECK(s.costliest[1].scope == "render pass 0");
  CHECK(s.overhead_percent == doctest::Approx(0.6));  // 3 ms of 500 ms
}
