// SPDX-License-Identifier: MIT
// --shard auto: the part a scheduler's task is, from the variables Slurm and
// Kubernetes set, and one-line usage errors for every way they can be
// missing or disagree.
#include <doctest/doctest.h>

#include <initializer_list>
#include <map>
#include <optional>

#include "libtrace/replay/foz/replay.hpp"

namespace foz = libtrace::foz;

namespace {

using Env = std::map<std::string, std::string, std::less<>>;

foz::ResolvedShard resolve(std::string_view spec, const Env& env) {
  return foz::resolve_shard(spec, [&](std::string_view name) -> std::optional<std::string> {
    const auto it = env.find(name);
    return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
  });
}

std::string error_of(std::string_view spec, const Env& env) {
  try {
    resolve(spec, env);
  } catch (const libtrace::Error& e) {
    CHECK(e.code() == libtrace::Errc::usage);
    return e.what();
  }
  return "no error";
}

// What `spec` resolves to in `env`: the part, and where said (when given)
// the count and the source.
struct Part {
  const char* spec;
  Env env;
  std::uint32_t index;
  std::optional<std::uint32_t> count;
  const char* source = nullptr;
};

void check_parts(std::initializer_list<Part> parts) {
  for (const Part& p : parts) {
    CAPTURE(p.spec);
    CAPTURE(p.index);
    const auto r = resolve(p.spec, p.env);
    CHECK(r.shard.index == p.index);
    if (p.count) CHECK(r.shard.count == *p.count);
    if (p.source) CHECK(r.source == p.source);
  }
}

}  // namespace

TEST_CASE("foz_replay_shard: I/N is read as before, with no environment") {
  const auto r = foz::resolve_shard("2/5", nullptr);
  CHECK(r.shard.index == 2);
  CHECK(r.shard.count == 5);
  CHECK(r.source.empty());
  CHECK_THROWS_AS(resolve("5/5", {}), libtrace::Error);
  CHECK_THROWS_AS(resolve("automatic", {{"SLURM_ARRAY_TASK_ID", "0"}}), libtrace::Error);
}

TEST_CASE("foz_replay_shard: a Slurm array's task is its place among the array's ids") {
  check_parts({
      // sbatch --array=0-3: the ids are the parts.
      {"auto",
       {{"SLURM_ARRAY_TASK_ID", "2"},
        {"SLURM_ARRAY_TASK_COUNT", "4"},
        {"SLURM_ARRAY_TASK_MIN", "0"},
        {"SLURM_ARRAY_TASK_MAX", "3"},
        {"SLURM_ARRAY_TASK_STEP", "1"}},
       2,
       4,
       "SLURM_ARRAY_TASK_ID=2 of 0-3"},
      // --array=5-8: ids need not start at 0.
      {"auto", {{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_MIN", "5"}, {"SLURM_ARRAY_TASK_MAX", "8"}}, 0, 4},
      // --array=10-22:4: ids 10, 14, 18, 22.
      {"auto/4",
       {{"SLURM_ARRAY_TASK_ID", "18"},
        {"SLURM_ARRAY_TASK_COUNT", "4"},
        {"SLURM_ARRAY_TASK_MIN", "10"},
        {"SLURM_ARRAY_TASK_MAX", "22"},
        {"SLURM_ARRAY_TASK_STEP", "4"}},
       2,
       4,
       "SLURM_ARRAY_TASK_ID=18 of 10-22:4"},
      // Only the count: ids from 0.
      {"auto", {{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_COUNT", "8"}}, 3, 8},
      // Only the id: the count from auto/N.
      {"auto/6", {{"SLURM_ARRAY_TASK_ID", "5"}}, 5, 6},
  });
}

TEST_CASE("foz_replay_shard: a Kubernetes indexed Job's index, with its count from N or TRAK_SHARD_COUNT") {
  check_parts({
      {"auto/3", {{"JOB_COMPLETION_INDEX", "1"}}, 1, 3, "JOB_COMPLETION_INDEX=1 of 3"},
      {"auto", {{"JOB_COMPLETION_INDEX", "0"}, {"TRAK_SHARD_COUNT", "2"}}, 0, 2},
      {"auto/2", {{"JOB_COMPLETION_INDEX", "1"}, {"TRAK_SHARD_COUNT", "2"}, {"SLURM_ARRAY_TASK_ID", ""}}, 1, {}},
  });
}

TEST_CASE("foz_replay_shard: what is missing or inconsistent is a usage error naming the variables") {
  const std::pair<Env, std::string> cases[] = {
      {{},
       "--shard auto: no scheduler says which part this is: SLURM_ARRAY_TASK_ID (a Slurm array) and "
       "JOB_COMPLETION_INDEX (a Kubernetes indexed Job) are unset; give --shard I/N"},
      {{{"SLURM_ARRAY_TASK_ID", ""}}, "--shard auto: no scheduler says which part this is"},
      {{{"SLURM_ARRAY_TASK_ID", "x1"}}, "--shard auto: SLURM_ARRAY_TASK_ID=x1 is not a whole number"},
      {{{"SLURM_ARRAY_TASK_ID", "-1"}, {"SLURM_ARRAY_TASK_COUNT", "4"}},
       "--shard auto: SLURM_ARRAY_TASK_ID=-1 is not a whole number"},
      {{{"SLURM_ARRAY_TASK_ID", "2"}},
       "--shard auto: SLURM_ARRAY_TASK_ID=2 but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX is set: give "
       "--shard auto/N"},
      {{{"SLURM_ARRAY_TASK_ID", "3"},
        {"SLURM_ARRAY_TASK_COUNT", "3"},
        {"SLURM_ARRAY_TASK_MIN", "1"},
        {"SLURM_ARRAY_TASK_MAX", "7"}},
       "--shard auto: SLURM_ARRAY_TASK_COUNT=3 but 1-7 spans 7 ids: an array with gaps (--array=1,3,7) cannot be "
       "split by task id; use --array=0-2 or --shard I/N"},
      {{{"SLURM_ARRAY_TASK_ID", "4"}, {"SLURM_ARRAY_TASK_COUNT", "4"}},
       "--shard auto: SLURM_ARRAY_TASK_ID=4 is past the array's 4 tasks (0-3)"},
      {{{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_MIN", "2"}, {"SLURM_ARRAY_TASK_MAX", "5"}},
       "--shard auto: SLURM_ARRAY_TASK_ID=1 is below SLURM_ARRAY_TASK_MIN=2"},
      {{{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_MAX", "9"}, {"SLURM_ARRAY_TASK_STEP", "2"}},
       "--shard auto: SLURM_ARRAY_TASK_ID=3 is not 0 plus a multiple of SLURM_ARRAY_TASK_STEP=2"},
      {{{"JOB_COMPLETION_INDEX", "1"}},
       "--shard auto: JOB_COMPLETION_INDEX=1 but no count: give --shard auto/N (the Job's completions) or set "
       "TRAK_SHARD_COUNT"},
      {{{"JOB_COMPLETION_INDEX", "3"}, {"TRAK_SHARD_COUNT", "3"}},
       "--shard auto: JOB_COMPLETION_INDEX=3 is not less than the count, 3"},
      {{{"JOB_COMPLETION_INDEX", "0"}, {"TRAK_SHARD_COUNT", "0"}}, "--shard auto: TRAK_SHARD_COUNT=0: a count of 0"},
      {{{"JOB_COMPLETION_INDEX", "0"}, {"SLURM_ARRAY_TASK_ID", "0"}},
       "--shard auto: both SLURM_ARRAY_TASK_ID=0 and JOB_COMPLETION_INDEX=0 are set: give --shard I/N"},
  };
  for (const auto& [env, want] : cases) {
    CAPTURE(want);
    CHECK(error_of("auto", env).rfind(want, 0) == 0);
  }
  CHECK(error_of("auto/4", {{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_COUNT", "2"}}) ==
        "--shard auto/4: the Slurm array has 2 tasks (SLURM_ARRAY_TASK_COUNT=2), not 4");
  CHECK(error_of("auto/4", {{"JOB_COMPLETION_INDEX", "0"}, {"TRAK_SHARD_COUNT", "2"}}) ==
        "--shard auto/4: TRAK_SHARD_COUNT=2 disagrees with 4");
  for (const char* bad : {"auto/", "auto/0", "auto/x", "auto/2/3"}) {
    CAPTURE(bad);
    CHECK(error_of(bad, {{"JOB_COMPLETION_INDEX", "0"}}) ==
          "--shard " + std::string(bad) + ": want auto or auto/N, N the number of parts (1 or more)");
  }
}
