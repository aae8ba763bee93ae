// SPDX-License-Identifier: MIT
#include "libtrace/io.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include "libtrace/error.hpp"
#include "test_util.hpp"

using namespace libtrace;

TEST_CASE("io: missing file throws libtrace::Error naming the path") {
  try {
    InputFile f("/nonexistent/x.trace");
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::io);
    CHECK(std::string(e.what()) == "/nonexistent/x.trace: No such file or directory");
  }
}

TEST_CASE("io: peek does not consume, read sees the peeked bytes") {
  test::ScratchDir dir;
  test::write_file(dir / "a", "hello world");
  InputFile f(dir / "a");
  CHECK(f.peek(5) == "hello");
  CHECK(f.offset() == 0);
  char buf[32];
  CHECK(f.read_full(buf, sizeof buf) == 11);
  CHECK(std::string(buf, 11) == "hello world");
  CHECK(f.offset() == 11);
  CHECK(f.size() == 11);
}

TEST_CASE("io: output appears only at commit, replacing the old file") {
  test::ScratchDir dir;
  test::write_file(dir / "out", "old");
  {
    OutputFile out(dir / "out");
    out.write("new", 3);
    out.flush();
    CHECK(test::read_file(dir / "out") == "old");
    out.commit();
  }
  CHECK(test::read_file(dir / "out") == "new");
}

TEST_CASE("io: an output never committed leaves the old file and no temporary") {
  test::ScratchDir dir;
  test::write_file(dir / "out", "old");
  {
    OutputFile out(dir / "out");
    out.write("half", 4);
  }
  CHECK(test::read_file(dir / "out") == "old");
  CHECK(std::system(("test $(ls '" + dir.path + "' | wc -l) = 1").c_str()) == 0);
}

TEST_CASE("io: keep_partial moves what was written to NAME.partial") {
  test::ScratchDir dir;
  OutputFile out(dir / "out");
  out.write("some", 4);
  CHECK(out.keep_partial() == dir / "out.partial");
  CHECK(test::read_file(dir / "out.partial") == "some");
  struct stat st {};
  CHECK(::stat((dir / "out").c_str(), &st) != 0);
}
