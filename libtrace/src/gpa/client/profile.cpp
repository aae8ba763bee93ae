// SPDX-License-Identifier: MIT
#include "libtrace/gpa/client/profile.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <tuple>

#include "core/report.hpp"
#include "gpa/counters.hpp"
#include "libtrace/gpa/layer.hpp"
#include "libtrace/layer/run.hpp"

namespace libtrace::gpa::client {

std::vector<std::string> counter_names() {
  std::vector<std::string> out;
  for (const Counter& c : counters()) out.emplace_back(c.name);
  return out;
}

std::vector<std::string> default_counters() {
  std::vector<std::string> out;
  std::istringstream in(kDefaultCounters);
  for (std::string name; std::getline(in, name, ',');) out.push_back(name);
  return out;
}

namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) out.push_back(field);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

std::uint64_t number(const std::string& s, const std::string& where) {
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(s, &used);
    if (used == s.size() && !s.empty() && s[0] != '-') return v;
  } catch (const std::exception&) {
  }
  throw Error(Errc::bad_record, where, "not a number: \"" + s + "\"");
}

// "# key=value key=value": the layer's lines about the device.
std::map<std::string, std::string> comment_fields(const std::string& line) {
  std::map<std::string, std::string> out;
  std::istringstream s(line.substr(2));
  for (std::string kv; s >> kv;)
    if (const std::size_t eq = kv.find('='); eq != std::string::npos) out[kv.substr(0, eq)] = kv.substr(eq + 1);
  return out;
}

// The folder the layer writes its files into, this run's alone; removed with
// what is in it.
class RowsFolder {
 public:
  RowsFolder() {
    const char* tmp = std::getenv("TMPDIR");
    path_ = std::string(tmp && *tmp ? tmp : "/tmp") + "/trak-gpa.XXXXXX";
    if (!::mkdtemp(path_.data())) throw_errno(path_, "create");
  }
  ~RowsFolder() {
    for (const std::string& f : files()) ::unlink((path_ + "/" + f).c_str());
    ::rmdir(path_.c_str());
  }
  RowsFolder(const RowsFolder&) = delete;
  RowsFolder& operator=(const RowsFolder&) = delete;
  const std::string& path() const { return path_; }
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    if (DIR* d = ::opendir(path_.c_str())) {
      while (const dirent* e = ::readdir(d))
        if (e->d_name[0] != '.') out.emplace_back(e->d_name);
      ::closedir(d);
    }
    return out;
  }

 private:
  std::string path_;
};

}  // namespace

void read_rows(std::istream& in, const std::string& name, Profile& out, const WarningSink& warn) {
  ProfiledDevice dev;
  const auto index = static_cast<std::uint32_t>(out.devices.size());
  std::vector<std::string> names;  // the file's counters
  bool header = false, same_counters = true, closed = false;
  std::uint64_t last_frame = 0;
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    const std::string where = name + ": line " + std::to_string(n);
    // The layer writes whole lines; one without its end was cut off by the
    // end of its process, and is the file's last.
    if (in.eof()) {
      ++out.torn_rows;
      if (warn) warn(where, "cut off by the end of its process: dropped");
      break;
    }
    if (line.rfind("# ", 0) == 0) {
      for (const auto& [key, value] : comment_fields(line)) {
        if (key == "pid") dev.pid = static_cast<int>(number(value, where));
        if (key == "n") dev.index = static_cast<std::uint32_t>(number(value, where));
        if (key == "unprofiled") {
          dev.profiled = false;
          dev.why_not = value == "no-extension" ? "it has no VK_AMD_gpa_interface to sample with" : value;
        }
        if (key == "cpu_ns") {
          dev.layer_cpu_ns = static_cast<std::int64_t>(number(value, where));
          closed = true;
        }
        if (key == "frames") dev.frames = number(value, where);
      }
      continue;
    }
    const std::vector<std::string> f = split(line);
    if (!header) {
      if (f.size() < 4 || f[0] != "frame") throw Error(Errc::bad_magic, where, "not a profile (no header)");
      header = true;
      names.assign(f.begin() + 4, f.end());
      if (!names.empty() && out.counter_names.empty()) out.counter_names = names;
      same_counters = names == out.counter_names;
      if (!names.empty() && !same_counters && warn)
        warn(name, "sampled other counters than the first device: its samples keep their GPU times only");
      continue;
    }
    if (f.size() != 4 + names.size())
      throw Error(Errc::bad_record, where,
                  std::to_string(f.size()) + " fields, the header has " + std::to_string(4 + names.size()));
    Row r;
    r.device = index;
    r.frame = number(f[0], where);
    r.command_buffer = static_cast<std::uint32_t>(number(f[1], where));
    r.scope = f[2];
    r.gpu_ns = static_cast<double>(number(f[3], where));
    if (same_counters && f.size() > 4 && !f[4].empty())
      for (std::size_t i = 4; i < f.size(); ++i) r.counters.push_back(number(f[i], where));
    last_frame = std::max(last_frame, r.frame);
    ++dev.samples;
    out.rows.push_back(std::move(r));
  }
  if (!closed) dev.frames = last_frame;
  out.frames += dev.frames;
  if (closed) out.layer_cpu_ns = std::max<std::int64_t>(out.layer_cpu_ns, 0) + dev.layer_cpu_ns;
  out.devices.push_back(std::move(dev));
}

Profile run_profile(const ProfileRun& run) {
  const RowsFolder folder;
  const auto start = std::chrono::steady_clock::now();
  std::vector<layer::EnvEdit> env = layer::layer_environment(kLayerName, run.layer_dir);
  env.push_back({"TRAK_GPA_PROFILE", folder.path()});
  env.push_back({"TRAK_GPA_PER", run.per});
  env.push_back({"TRAK_GPA_COUNTERS", run.counters});
  const layer::CommandResult r = layer::run_command(run.command, env);
  Profile p;
  p.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  p.exec_errno = r.exec_errno;
  p.status = r.status;
  p.signal = r.signal;
  if (r.exec_errno) return p;
  // Devices in the order they were made, across processes: by the time on
  // each file's first line (CLOCK_MONOTONIC, one clock for the machine).
  struct File {
    std::uint64_t start_ns = UINT64_MAX;
    int pid = 0;
    std::uint32_t n = 0;
    std::string text;
  };
  std::vector<File> files;
  for (const std::string& f : folder.files()) {
    std::ifstream in(folder.path() + "/" + f);
    File file;
    file.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) throw_errno(folder.path() + "/" + f, "read");
    const std::string first = file.text.substr(0, file.text.find('\n'));
    const auto fields = comment_fields(first.rfind("# ", 0) == 0 ? first : "# ");
    const auto get = [&](const char* key) {
      const auto it = fields.find(key);
      return it == fields.end() ? 0ull : std::strtoull(it->second.c_str(), nullptr, 10);
    };
    file.start_ns = fields.count("start_ns") ? get("start_ns") : UINT64_MAX;
    file.pid = static_cast<int>(get("pid"));
    file.n = static_cast<std::uint32_t>(get("n"));
    files.push_back(std::move(file));
  }
  std::sort(files.begin(), files.end(), [](const File& a, const File& b) {
    return std::tie(a.start_ns, a.pid, a.n) < std::tie(b.start_ns, b.pid, b.n);
  });
  for (const File& f : files) {
    std::istringstream in(f.text);
    read_rows(in, "pid " + std::to_string(f.pid) + " device " + std::to_string(f.n), p, run.warn);
  }
  return p;
}

Summary summarize(const Profile& p) {
  Summary s;
  std::map<std::pair<std::uint32_t, std::uint64_t>, double> per_frame;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::string>, ScopeCost> scopes;
  s.counter_totals.assign(p.counter_names.size(), 0);
  for (const Row& r : p.rows) {
    per_frame[{r.device, r.frame}] += r.gpu_ns;
    ScopeCost& c = scopes[{r.device, r.command_buffer, r.scope}];
    c.device = r.device;
    c.command_buffer = r.command_buffer;
    c.scope = r.scope;
    ++c.samples;
    c.total_ns += r.gpu_ns;
    for (std::size_t i = 0; i < r.counters.size() && i < s.counter_totals.size(); ++i)
      s.counter_totals[i] += r.counters[i];
  }
  for (const auto& [frame, ns] : per_frame) s.frame_ns.push_back(ns);
  s.frames = s.frame_ns.size();
  if (!s.frame_ns.empty()) {
    s.min_ns = *std::min_element(s.frame_ns.begin(), s.frame_ns.end());
    s.max_ns = *std::max_element(s.frame_ns.begin(), s.frame_ns.end());
    s.median_ns = detail::percentile(s.frame_ns, 0.5);
    s.p95_ns = detail::percentile(s.frame_ns, 0.95);
  }
  for (auto& [key, c] : scopes) {
    c.mean_ns = c.total_ns / static_cast<double>(c.samples);
    s.costliest.push_back(c);
  }
  std::stable_sort(s.costliest.begin(), s.costliest.end(),
                   [](const ScopeCost& a, const ScopeCost& b) { return a.total_ns > b.total_ns; });
  if (s.costliest.size() > 10) s.costliest.resize(10);
  if (p.layer_cpu_ns >= 0 && p.wall_seconds > 0)
    s.overhead_percent = 100.0 * static_cast<double>(p.layer_cpu_ns) / (p.wall_seconds * 1e9);
  return s;
}

}  // namespace libtrace::gpa::client
