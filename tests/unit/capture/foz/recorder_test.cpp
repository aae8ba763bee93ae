// SPDX-License-Identifier: MIT
// The archive writer of the capture layer: naming, links, the crash path,
// and fork.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "capture/foz/recorder.hpp"
#include "libtrace/foz/archive.hpp"
#include "libtrace/foz/object.hpp"
#include "test_util.hpp"

namespace {

using namespace libtrace;
using foz::Tag;

struct App {
  foz::Arena arena;
  VkApplicationInfo info{VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, "unit", 1, "engine", 2, VK_API_VERSION_1_3};
  foz::Object object = foz::application_object(&info, VkDeviceCreateInfo{}, arena);
};

// A pipeline layout's payload, serialized as the layer does.
std::string layout_payload(foz::Hash& hash, std::uint32_t push_size) {
  VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT, 0, push_size};
  VkPipelineLayoutCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  ci.pushConstantRangeCount = 1;
  ci.pPushConstantRanges = &range;
  foz::Object o;
  o.tag = Tag::pipeline_layout;
  o.create_info = &ci;
  o.hash = hash = foz::compute_hash(o, {}, "layout");
  return foz::serialize_payload(o, "layout");
}

std::vector<std::pair<Tag, foz::Hash>> keys_of(const std::string& path) {
  foz::ArchiveReader r(path);
  std::vector<std::pair<Tag, foz::Hash>> out;
  for (const foz::Entry& e : r.entries()) out.push_back({e.tag, e.hash});
  return out;
}

}  // namespace

TEST_CASE("capture recorder: BASE.<hash>.<N>.foz, one per recorder, entries once, each after its link") {
  test::ScratchDir dir;
  App app;
  const std::string base = dir / "app";
  const std::string name1 = base + "." + foz::hash_hex(app.object.hash) + ".1.foz";
  const std::string name2 = base + "." + foz::hash_hex(app.object.hash) + ".2.foz";
  foz::Hash h1 = 0, h2 = 0;
  {
    capture::FozRecorder a({base, dir / "report"}, app.object);
    capture::FozRecorder b({base, dir / "report"}, app.object);  // another process of the same application
    const std::string p1 = layout_payload(h1, 16), p2 = layout_payload(h2, 32);
    CHECK(a.add(Tag::pipeline_layout, h1, p1));
    CHECK(a.contains(Tag::pipeline_layout, h1));
    CHECK_FALSE(a.add(Tag::pipeline_layout, h1, p1));
    CHECK(a.add(Tag::pipeline_layout, h2, p2));
    a.drain();
    b.drain();
  }
  // Which recorder's thread created its archive first decides the numbers.
  auto got = keys_of(name1), other = keys_of(name2);
  if (got.size() < other.size()) std::swap(got, other);
  REQUIRE(got.size() == 5);
  CHECK(got[0] == std::make_pair(Tag::application_info, app.object.hash));
  CHECK(got[1].first == Tag::application_blob_link);
  CHECK(got[2] == std::make_pair(Tag::pipeline_layout, h1));
  CHECK(got[4] == std::make_pair(Tag::pipeline_layout, h2));
  CHECK(other.size() == 1);  // the second recorder's archive: only the application info
  const std::string report = test::read_file(dir / "report");
  CHECK(report.find(name1 + "\n") != std::string::npos);
  CHECK(report.find(name2 + "\n") != std::string::npos);
}

TEST_CASE("capture recorder: a dying thread writes the queue and the pipelines being created") {
  test::ScratchDir dir;
  App app;
  foz::Hash h1 = 0, h2 = 0;
  capture::FozRecorder r({dir / "app", ""}, app.object);
  r.drain();
  r.stop();         // nothing writes in the background now: what follows is the crash path's doing
  r.before_fork();  // (holding the locks as a fork would shows they are free again after)
  r.after_fork_in_parent();
  const std::string p1 = layout_payload(h1, 8), p2 = layout_payload(h2, 12);
  std::vector<capture::PendingEntry> last{{Tag::pipeline_layout, h2, p2}};
  {
    // add() starts the writer again; stop it before it can write.
    r.add(Tag::pipeline_layout, h1, p1);
    r.stop();
  }
  r.write_before_dying(last, std::chrono::seconds(1));
  const auto got = keys_of(dir / ("app." + foz::hash_hex(app.object.hash) + ".1.foz"));
  REQUIRE(got.size() == 5);
  CHECK(got[2] == std::make_pair(Tag::pipeline_layout, h1));
  CHECK(got[4] == std::make_pair(Tag::pipeline_layout, h2));
}

TEST_CASE("capture recorder: a forked child that records something writes its own archive, with its parent's entries") {
  test::ScratchDir dir;
  App app;
  const std::string stem = dir / ("app." + foz::hash_hex(app.object.hash));
  foz::Hash before = 0, in_child = 0, in_parent = 0;
  capture::FozRecorder r({dir / "app", ""}, app.object);
  const std::string p0 = layout_payload(before, 4), p1 = layout_payload(in_child, 64),
                    p2 = layout_payload(in_parent, 128);
  r.add(Tag::pipeline_layout, before, p0);
  r.drain();
  r.before_fork();
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    r.after_fork_in_child();
    const bool added = r.add(Tag::pipeline_layout, in_child, p1);
    r.drain();
    ::_exit(added ? 0 : 1);
  }
  r.after_fork_in_parent();
  r.add(Tag::pipeline_layout, in_parent, p2);
  r.drain();
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  const auto parent = keys_of(stem + ".1.foz"), child = keys_of(stem + ".2.foz");
  CHECK(parent.size() == 5);
  REQUIRE(child.size() == 5);
  CHECK(child[0].first == Tag::application_info);
  CHECK(child[2] == std::make_pair(Tag::pipeline_layout, before));
  CHECK(child[4] == std::make_pair(Tag::pipeline_layout, in_child));
  CHECK(parent[4] == std::make_pair(Tag::pipeline_layout, in_parent));
}
