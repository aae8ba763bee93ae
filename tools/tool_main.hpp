// SPDX-License-Identifier: MIT
// The one place that maps outcomes to exit codes, shared by every trak tool:
// 0 ok (also --help, --version), 1 data or I/O error printed as
// "<tool>: <where>: <why>", 2 usage error.
#pragma once

#include <CLI/CLI.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <streambuf>
#include <string>

#include "libtrace/core/error.hpp"
#include "libtrace/core/io.hpp"
#include "libtrace/core/progress.hpp"
#include "libtrace/core/sniff.hpp"
#include "libtrace/core/temp_file.hpp"

namespace tools {

enum Exit : int { kOk = 0, kFailure = 1, kUsage = 2 };

inline constexpr const char* kVersion = "0.1.0";

// Set while a progress bar is on stderr, so an error message starts on a
// clean line.
inline bool g_progress_shown = false;

inline void clear_progress_line() {
  if (g_progress_shown) std::fputs("\r\33[K", stderr);
  g_progress_shown = false;
}

// Thrown by a tool body for a usage problem found after parsing.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// std::cout over file descriptor 1, keeping why a write failed: an iostream
// only says that it did.
class StdoutBuf final : public std::streambuf {
 public:
  StdoutBuf() { setp(buf_, buf_ + sizeof buf_); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override {
    const char* p = pbase();
    auto n = static_cast<std::size_t>(pptr() - pbase());
    setp(buf_, buf_ + sizeof buf_);
    while (n > 0 && !error_) {
      const ssize_t w = ::write(STDOUT_FILENO, p, n);
      if (w < 0) {
        if (errno != EINTR) error_ = errno;
        continue;
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    return error_ ? -1 : 0;
  }

 private:
  char buf_[1 << 16];
  int error_ = 0;
};

inline StdoutBuf& stdout_buf() {
  static StdoutBuf buf;
  return buf;
}

// std::cout writes through stdout_buf() while a tool runs; what is left is
// flushed, and the stream given back its own buffer before statics go.
struct StdoutScope {
  std::streambuf* old = std::cout.rdbuf(&stdout_buf());
  StdoutScope() = default;
  StdoutScope(const StdoutScope&) = delete;
  StdoutScope& operator=(const StdoutScope&) = delete;
  ~StdoutScope() {
    std::cout.flush();
    std::cout.rdbuf(old);
  }
};

// Data that did not reach stdout (a full disk, a closed descriptor) fails
// the run like any other error: one line, exit 1.
inline bool stdout_failed(const std::string& tool) {
  std::cout.flush();
  if (!stdout_buf().error() && std::cout.good()) return false;
  std::cerr << tool << ": <stdout>: write: " << std::strerror(stdout_buf().error() ? stdout_buf().error() : EIO)
            << '\n';
  return true;
}

// --help as people read it: "-o, --output OUTPUT", choices as {a,b},
// numbers as N, defaults in words, descriptions wrapped to 100 columns;
// none of CLI11's own notation ("--x,--no-x{false}", "UINT:UINT in [1 - 256]").
class HelpFormatter final : public CLI::Formatter {
 public:
  HelpFormatter() { column_width(32); }

  std::string make_option_name(const CLI::Option* opt, bool positional) const override {
    std::string out;
    bool skip = false;
    for (char c : CLI::Formatter::make_option_name(opt, positional)) {
      if (c == '{')
        skip = true;
      else if (c == '}')
        skip = false;
      else if (!skip)
        out += c == ',' ? std::string(", ") : std::string(1, c);
    }
    return out;
  }

  // A tool that runs a command (prefix_command) says where the command goes.
  std::string make_usage(const CLI::App* app, std::string name) const override {
    std::string u = CLI::Formatter::make_usage(app, std::move(name));
    if (app->get_prefix_command() && !u.empty() && u.back() == '\n') u.insert(u.size() - 1, " [--] COMMAND [ARGS...]");
    return u;
  }

  std::string make_option_opts(const CLI::Option* opt) const override {
    const std::string type = opt->get_type_name();
    if (type.empty() || !opt->nonpositional()) return {};  // a flag, or a positional
    std::string meta;
    if (const auto open = type.find('{'); open != std::string::npos) {
      meta = type.substr(open, type.find('}', open) - open + 1);
    } else if (type.rfind("UINT", 0) == 0 || type.rfind("INT", 0) == 0) {
      meta = "N";
    } else if (type != "TEXT" && type.find(':') == std::string::npos) {
      meta = type;  // named by the tool (->type_name("FILE"))
    } else {
      meta = opt->get_lnames().empty() ? "ARG" : opt->get_lnames().front();
      for (char& c : meta) c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) meta += " ...";
    return " " + meta;
  }

  std::string make_option_desc(const CLI::Option* opt) const override {
    std::string d = opt->get_description();
    const std::string def = opt->get_default_str();
    if (!def.empty() && opt->get_type_size() != 0 && d.find("default") == std::string::npos)
      d += " (default " + def + ")";
    // format_help indents the lines after the first.
    return wrap(d, 100 - column_width_);
  }

  std::string make_description(const CLI::App* app) const override {
    std::string out;
    const std::string text = app->get_description();
    for (std::string_view rest = text; !rest.empty();) {
      const std::size_t nl = rest.find('\n');
      out += wrap(std::string(rest.substr(0, nl)), 100) + '\n';
      rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    }
    return out;
  }

 private:
  // Wrapped at spaces to `width` columns.
  static std::string wrap(const std::string& d, std::size_t width) {
    std::string out;
    std::size_t line = 0;
    for (std::size_t i = 0; i < d.size();) {
      const std::size_t sp = d.find(' ', i);
      const std::string word = d.substr(i, sp == std::string::npos ? std::string::npos : sp - i);
      if (line && line + 1 + word.size() > width) {
        out += '\n';
        line = 0;
      } else if (line) {
        out += ' ';
        ++line;
      }
      out += word;
      line += word.size();
      i = sp == std::string::npos ? d.size() : sp + 1;
    }
    return out;
  }
};

// Parses argv into `app`, then calls `body` (which returns an exit status).
// CLI11's own exit codes (100+) never escape: bad usage is 2.
template <typename Body>
int run(CLI::App& app, int argc, char** argv, Body&& body) {
  const StdoutScope stdout_scope;
  libtrace::remove_temporaries_on_signals();
  // A tool may give --version a meaning of its own (trak-convert's format
  // version); it then prints the tool version itself when given no value.
  if (!app.get_option_no_throw("--version")) app.set_version_flag("--version", kVersion);
  app.formatter(std::make_shared<HelpFormatter>());
  app.failure_message([](const CLI::App* a, const CLI::Error& e) {
    return a->get_name() + ": " + e.what() + "\nTry '" + a->get_name() + " --help'.\n";
  });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e) == 0 ? kOk : kUsage;
    return stdout_failed(app.get_name()) ? kFailure : status;
  }
  try {
    const int status = body();
    clear_progress_line();
    return stdout_failed(app.get_name()) ? kFailure : status;
  } catch (...) {
    clear_progress_line();
    try {
      throw;
    } catch (const UsageError& e) {
      std::cerr << app.get_name() << ": " << e.what() << "\nTry '" << app.get_name() << " --help'.\n";
      return kUsage;
    } catch (const libtrace::Error& e) {
      std::cerr << app.get_name() << ": " << e.what() << '\n';
      return e.code() == libtrace::Errc::usage ? kUsage : kFailure;
    } catch (const std::bad_alloc&) {
      std::cerr << app.get_name() << ": out of memory\n";
    } catch (const std::exception& e) {
      std::cerr << app.get_name() << ": internal error: " << e.what() << '\n';
    }
  }
  return kFailure;
}

// This program's own path (to find what was built or installed beside it).
inline std::string self_path() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

// Every tool's warnings: one line each, "<tool>: warning: <where>: <why>", on
// a clean line. With `shown`, only the first `*shown` are printed and the
// counter says how many came in all.
inline libtrace::WarningSink warning_sink(const std::string& tool, std::uint64_t* count = nullptr,
                                          std::uint64_t shown = UINT64_MAX) {
  return [tool, count, shown](const std::string& where, const std::string& why) {
    if (count && (*count)++ >= shown) return;
    clear_progress_line();
    std::cerr << tool << ": warning: " << (where.empty() ? "" : where + ": ") << why << '\n';
  };
}

// The one progress line of every tool, on stderr where it is a terminal:
//   trak-stat: [########                      ]  27% 58.2 of 215.7 MB, 96.3 MB/s, 2 s left
// Quiet for the first half second (short jobs show nothing), redrawn at most
// ten times a second, and cleared when the work ends or a message comes.
class ProgressLine {
 public:
  // `unit` names what is counted ("MB": bytes, shown in MB; else a count).
  ProgressLine(std::string tool, std::string unit) : tool_(std::move(tool)), unit_(std::move(unit)) {}

  void update(std::uint64_t done, std::uint64_t total, const std::string& extra = {}) {
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < std::chrono::milliseconds(500) || now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double scale = unit_ == "MB" ? 1e-6 : 1.0;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double rate = static_cast<double>(done) * scale / seconds;
    std::string line = "\r" + tool_ + ": ";
    char buf[160];
    if (total && done <= total) {
      const double f = static_cast<double>(done) / static_cast<double>(total);
      const int width = 30, fill = static_cast<int>(f * width);
      std::snprintf(buf, sizeof buf, "[%-*s] %3d%% ", width, std::string(static_cast<std::size_t>(fill), '#').c_str(),
                    static_cast<int>(f * 100));
      line += buf;
      std::snprintf(buf, sizeof buf, unit_ == "MB" ? "%.1f of %.1f %s" : "%.0f of %.0f %s",
                    static_cast<double>(done) * scale, static_cast<double>(total) * scale, unit_.c_str());
    } else {
      std::snprintf(buf, sizeof buf, unit_ == "MB" ? "%.1f %s" : "%.0f %s", static_cast<double>(done) * scale,
                    unit_.c_str());
    }
    line += buf;
    if (seconds >= 1) {
      std::snprintf(buf, sizeof buf, ", %.1f %s/s", rate, unit_.c_str());
      line += buf;
      if (total && done && done < total) {
        std::snprintf(buf, sizeof buf, ", %.0f s left", static_cast<double>(total - done) * scale / rate);
        line += buf;
      }
    }
    line += extra;
    line += "\33[K";
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    g_progress_shown = true;
  }

 private:
  std::string tool_, unit_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_{};
};

// libtrace's byte progress as a ProgressLine, where stderr is a terminal and
// `enabled` (--no-progress turns it off); otherwise nothing, so that logs
// stay clean. run() clears the line when the tool's work ends.
inline libtrace::Progress progress_bar(const std::string& tool, bool enabled = true) {
  if (!enabled || !libtrace::stderr_is_terminal()) return {};
  auto line = std::make_shared<ProgressLine>(tool, "MB");
  return [line](std::uint64_t done, std::uint64_t total) {
    if (total && done >= total) return clear_progress_line();
    line->update(done, total);
  };
}

// The error for a file that a tool does not read: what it is, and what the
// tool reads instead.
inline libtrace::Error not_read_here(const libtrace::InputFile& in, libtrace::Format f, const std::string& tool,
                                     const std::string& reads) {
  return libtrace::Error(libtrace::Errc::unsupported, in.name(),
                         "this is " + std::string(libtrace::format_name(f)) + "; " + tool + " reads " + reads);
}

// A trace read from stdin must come from a pipe or a file, not a terminal
// (where the tool would just wait).
inline void refuse_terminal_input(const std::string& input) {
  if (libtrace::is_stdio(input) && libtrace::stdin_is_terminal())
    throw UsageError("no input: give a trace file, or pipe one in with '-'");
}

// Binary output to a terminal is refused unless "-o -" was explicit (tools
// whose output is an -o option); `advice` says how to get it elsewhere.
inline void refuse_binary_terminal(const std::string& output, bool explicit_dash,
                                   const char* advice = "use -o FILE, or -o - to insist") {
  if (libtrace::is_stdio(output) && !explicit_dash && libtrace::stdout_is_terminal())
    throw UsageError(std::string("refusing to write binary data to a terminal (") + advice + ")");
}

// An output that is an input (the same file, also through a link) would be
// destroyed before it is read: a usage error.
inline void refuse_output_is_input(const std::string& input, const std::string& output) {
  if (libtrace::is_stdio(input) || libtrace::is_stdio(output)) return;
  struct stat a {
  }, b{};
  if (::stat(input.c_str(), &a) != 0 || ::stat(output.c_str(), &b) != 0) return;
  if (a.st_dev == b.st_dev && a.st_ino == b.st_ino)
    throw UsageError(output + " is the input " + input + ": the output must go elsewhere");
}

}  // namespace tools
