// SPDX-License-Identifier: MIT
// "--shard auto": the part a process is, from what its scheduler tells it.
// A job array's tasks all run the same command line; only their environment
// differs, so the shard has to come from there.
#include <charconv>

#include "libtrace/replay/foz/replay.hpp"

namespace libtrace::foz {

namespace {

struct Var {
  std::string name;
  std::optional<std::string> text;
  std::uint64_t value = 0;
  bool set() const { return text.has_value(); }
  std::string shown() const { return name + "=" + *text; }
};

class Reader {
 public:
  Reader(std::string spec, const EnvLookup& env) : spec_(std::move(spec)), env_(env) {}

  // An empty variable is unset: schedulers and job templates export empty
  // ones more often than they mean zero.
  Var get(std::string_view name) const {
    Var v{std::string(name), env_ ? env_(name) : std::nullopt};
    if (v.text && v.text->empty()) v.text.reset();
    if (!v.text) return v;
    const char* b = v.text->data();
    const char* e = b + v.text->size();
    const auto r = std::from_chars(b, e, v.value);
    if (r.ec != std::errc() || r.ptr != e) fail(v.shown() + " is not a whole number");
    return v;
  }

  [[noreturn]] void fail(const std::string& why) const { throw Error(Errc::usage, "--shard " + spec_, why); }

 private:
  std::string spec_;
  const EnvLookup& env_;
};

// "4-7", or "10-22:4" with a step: how sbatch --array spells the ids.
std::string id_range(std::uint64_t first, std::uint64_t last, std::uint64_t stride) {
  return std::to_string(first) + "-" + std::to_string(last) + (stride > 1 ? ":" + std::to_string(stride) : "");
}

ResolvedShard from_slurm(const Reader& in, const Var& id, std::optional<std::uint64_t> given) {
  const Var count = in.get("SLURM_ARRAY_TASK_COUNT"), min = in.get("SLURM_ARRAY_TASK_MIN"),
            max = in.get("SLURM_ARRAY_TASK_MAX"), step = in.get("SLURM_ARRAY_TASK_STEP");
  const std::uint64_t first = min.set() ? min.value : 0, stride = step.set() ? step.value : 1;
  if (stride == 0) in.fail(step.shown() + ": a step of 0");
  if (id.value < first) in.fail(id.shown() + " is below " + min.shown());
  if ((id.value - first) % stride)
    in.fail(id.shown() + " is not " + std::to_string(first) + " plus a multiple of " + step.shown());
  std::optional<std::uint64_t> n;
  if (max.set()) {
    if (max.value < first) in.fail(max.shown() + " is below " + (min.set() ? min.shown() : "0"));
    n = (max.value - first) / stride + 1;
  }
  if (count.set()) {
    // A list (--array=1,3,7) has fewer tasks than its MIN..MAX span: the
    // ids then say nothing about which part is which.
    if (n && *n != count.value)
      in.fail(count.shown() + " but " + id_range(first, max.value, stride) + " spans " + std::to_string(*n) +
              " ids: an array with gaps (--array=1,3,7) cannot be split by task id; use --array=0-" +
              std::to_string(count.value ? count.value - 1 : 0) + " or --shard I/N");
    n = count.value;
  }
  if (given) {
    if (n && *n != *given)
      in.fail("the Slurm array has " + std::to_string(*n) + " tasks (" +
              (count.set() ? count.shown() : id_range(first, max.value, stride)) + "), not " + std::to_string(*given));
    n = given;
  }
  if (!n)
    in.fail(id.shown() + " but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX is set: give --shard auto/N");
  if (*n == 0) in.fail(count.shown() + ": an array of 0 tasks");
  const std::string ids = id_range(first, first + (*n - 1) * stride, stride);
  const std::uint64_t index = (id.value - first) / stride;
  if (index >= *n) in.fail(id.shown() + " is past the array's " + std::to_string(*n) + " tasks (" + ids + ")");
  return {{index, *n}, id.shown() + " of " + ids};
}

ResolvedShard from_kubernetes(const Reader& in, const Var& index, std::optional<std::uint64_t> given) {
  const Var count = in.get(kShardCountVariable);
  if (given && count.set() && count.value != *given)
    in.fail(count.shown() + " disagrees with " + std::to_string(*given));
  if (!given && !count.set())
    in.fail(index.shown() + " but no count: give --shard auto/N (the Job's completions) or set " +
            std::string(kShardCountVariable));
  const std::uint64_t n = given ? *given : count.value;
  if (n == 0) in.fail(count.shown() + ": a count of 0");
  if (index.value >= n) in.fail(index.shown() + " is not less than the count, " + std::to_string(n));
  return {{index.value, n}, index.shown() + " of " + std::to_string(n)};
}

}  // namespace

ResolvedShard resolve_shard(std::string_view text, const EnvLookup& env) {
  if (text != "auto" && text.rfind("auto/", 0) != 0) return {parse_shard(text), {}};
  const Reader in(std::string(text), env);
  std::optional<std::uint64_t> given;
  if (text != "auto") {
    std::uint64_t n = 0;
    const auto r = std::from_chars(text.data() + 5, text.data() + text.size(), n);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size() || n == 0)
      in.fail("want auto or auto/N, N the number of parts (1 or more)");
    given = n;
  }
  const Var slurm = in.get("SLURM_ARRAY_TASK_ID"), k8s = in.get("JOB_COMPLETION_INDEX");
  if (slurm.set() && k8s.set()) in.fail("both " + slurm.shown() + " and " + k8s.shown() + " are set: give --shard I/N");
  if (slurm.set()) return from_slurm(in, slurm, given);
  if (k8s.set()) return from_kubernetes(in, k8s, given);
  in.fail(
      "no scheduler says which part this is: SLURM_ARRAY_TASK_ID (a Slurm array) and JOB_COMPLETION_INDEX (a "
      "Kubernetes indexed Job) are unset; give --shard I/N");
}

}  // namespace libtrace::foz
