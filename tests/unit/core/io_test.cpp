// SPDX-License-Identifier: MIT
#include "libtrace/core/io.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <thread>

#include "libtrace/core/error.hpp"
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

TEST_CASE("io: map_rest maps what is left of a regular file, peeked bytes included") {
  test::ScratchDir dir;
  test::write_file(dir / "a", "hello world");
  InputFile f(dir / "a");
  char buf[4];
  CHECK(f.read_full(buf, 2) == 2);
  CHECK(f.peek(3) == "llo");
  CHECK(f.map_rest() == "llo world");
  CHECK(f.offset() == 11);
  CHECK(f.read(buf, sizeof buf) == 0);
  CHECK(f.map_rest().empty());  // once

  // Pages given back come back when read again; bytes outside the mapping
  // are left alone.
  {
    std::string big(3 << 16, 'x');
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + i % 26);
    test::write_file(dir / "big", big);
    InputFile b(dir / "big");
    const std::string_view all = b.map_rest();
    REQUIRE(all == big);
    b.unmap_range(all.substr(100, 100000));
    const std::string other = "not mapped";
    b.unmap_range(other);
    CHECK(all == big);
  }

  // stdin may be a file whose position did not start at 0.
  const int fd = ::open((dir / "a").c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  REQUIRE(::lseek(fd, 6, SEEK_SET) == 6);
  const int saved = ::dup(STDIN_FILENO);
  ::dup2(fd, STDIN_FILENO);
  {
    InputFile in("-");
    CHECK(in.map_rest() == "world");
  }
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  ::close(fd);

  // Nothing to map: empty files and pipes, which are then read as before.
  test::write_file(dir / "empty", "");
  InputFile e(dir / "empty");
  CHECK(e.map_rest().empty());
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  REQUIRE(::write(fds[1], "xy", 2) == 2);
  ::close(fds[1]);
  const int saved2 = ::dup(STDIN_FILENO);
  ::dup2(fds[0], STDIN_FILENO);
  {
    InputFile in("-");
    CHECK(in.map_rest().empty());
    CHECK(in.read_full(buf, sizeof buf) == 2);
  }
  ::dup2(saved2, STDIN_FILENO);
  ::close(saved2);
  ::close(fds[0]);
}

TEST_CASE("io: devices and FIFOs are written in place, links through to their file") {
  // Renaming a temporary over /dev/null would make it a regular file.
  {
    OutputFile out("/dev/null");
    out.write("x", 1);
    CHECK(out.in_place());
    out.commit();
    struct stat st {};
    REQUIRE(::stat("/dev/null", &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
  }
  test::ScratchDir dir;
  const std::string fifo = dir / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    char buf[64];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
  });
  {
    OutputFile out(fifo);
    out.write("through a fifo", 14);
    out.commit();
  }
  reader.join();
  CHECK(got == "through a fifo");

  test::write_file(dir / "real", "old");
  REQUIRE(::symlink("real", (dir / "link").c_str()) == 0);
  {
    OutputFile out(dir / "link");
    out.write("new", 3);
    out.commit();
  }
  struct stat st {};
  REQUIRE(::lstat((dir / "link").c_str(), &st) == 0);
  CHECK(S_ISLNK(st.st_mode));
  CHECK(test::read_file(dir / "real") == "new");

  try {
    OutputFile out(dir.path);
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("Is a directory") != std::string::npos);
  }
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
