// SPDX-License-Identifier: MIT
// Statistics over a trace stream in one pass, with memory flat in the calls
// (per-signature counters, one counter per frame).
#include "libtrace/apitrace/stat.hpp"

#include <algorithm>
#include <cstdio>

#include "core/report.hpp"
#include "core/text_util.hpp"
#include "libtrace/apitrace/call_flags.hpp"
#include "libtrace/apitrace/parser.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::apitrace {

namespace {

using libtrace::detail::appendf;

using detail::human_bytes;

// apitrace info's API guess from the first function names.
std::string api_from_name(std::string_view n) {
  auto starts = [&](std::string_view p) { return n.substr(0, p.size()) == p; };
  auto upper_at = [&](std::size_t i) { return n.size() > i && n[i] >= 'A' && n[i] <= 'Z'; };
  if (starts("glX") || (starts("wgl") && upper_at(3)) || starts("CGL")) return "OpenGL + GLX/WGL/CGL";
  if (starts("egl") && upper_at(3)) return "OpenGL + EGL";
  if (starts("Direct") || starts("D3D") || starts("Create")) return "DirectX";
  if (starts("vk") && upper_at(2)) return "Vulkan";
  return {};
}

std::string thousands(std::uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string s;
  s.reserve(digits.size() + digits.size() / 3);
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%",
                whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

}  // namespace

TraceStats stats(const std::string& path, const Progress& progress) {
  InputFile in(path);
  return stats(in, open_decoder(in), progress);
}

TraceStats stats(InputFile& in, std::unique_ptr<Decoder> decoder, const Progress& progress) {
  TraceStats s;
  s.file = in.name();
  ParserOptions popt;
  popt.keep_blob_data = false;
  popt.skip_values = true;
  Parser parser(prefetch(std::move(decoder)), in.name(), popt);
  s.container = parser.container();
  s.header = parser.header();

  std::vector<std::uint64_t> per_sig;  // indexed by a dense id of our own
  std::vector<const FunctionSig*> sigs;
  // Calls per frame as a histogram (sizes repeat), so memory does not grow
  // with the number of frames.
  std::map<std::uint64_t, std::uint64_t> frame_sizes;
  std::vector<std::uint64_t> dense_threads(256);  // thread ids are small counters
  std::uint64_t in_frame = 0;
  auto finish = [&] {
    s.stream_bytes = parser.stream_offset();
    s.blobs = parser.blobs();
    s.blob_bytes = parser.blob_bytes();
    s.file_bytes = in.offset();
    for (std::size_t i = 0; i < sigs.size(); ++i)
      if (per_sig[i]) s.calls_per_function.emplace_back(sigs[i]->name, per_sig[i]);
    std::stable_sort(s.calls_per_function.begin(), s.calls_per_function.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    s.calls_after_last_frame = in_frame;
    for (std::size_t t = 0; t < dense_threads.size(); ++t)
      if (dense_threads[t]) s.calls_per_thread[static_cast<std::uint32_t>(t)] += dense_threads[t];
    if (!frame_sizes.empty()) {
      s.frame_calls_min = frame_sizes.begin()->first;
      s.frame_calls_max = frame_sizes.rbegin()->first;
      // The lower median, as the middle element of the sorted sizes.
      const std::uint64_t middle = (s.frames - 1) / 2;
      std::uint64_t seen = 0;
      for (const auto& [size, count] : frame_sizes) {
        seen += count;
        if (seen > middle) {
          s.frame_calls_median = size;
          break;
        }
      }
    }
  };
  std::vector<std::size_t> by_id;
  std::vector<bool> presents;  // per entry of sigs
  std::unordered_map<std::uint64_t, std::size_t> index;
  const FunctionSig* last_sig = nullptr;
  std::size_t last_index = 0;
  try {
    while (const Call* call = parser.next()) {
      ++s.calls;
      if (call->sig != last_sig) {
        // Function ids are small dense numbers; a hash map is only the fallback.
        const std::uint64_t id = call->sig->id;
        std::size_t* slot;
        if (id < (1u << 20)) {
          if (id >= by_id.size()) by_id.resize(id + 1, SIZE_MAX);
          slot = &by_id[id];
        } else {
          slot = &index.try_emplace(id, SIZE_MAX).first->second;
        }
        if (*slot == SIZE_MAX) {
          *slot = sigs.size();
          sigs.push_back(call->sig);
          per_sig.push_back(0);
          // apitrace knows no Vulkan frame end; trak-capture's streams end frames at presents.
          presents.push_back(call->sig->name == "vkQueuePresentKHR");
          if (s.api.empty()) s.api = api_from_name(call->sig->name);
        }
        last_sig = call->sig;
        last_index = *slot;
      }
      ++per_sig[last_index];
      if (call->thread < dense_threads.size())
        ++dense_threads[call->thread];
      else
        ++s.calls_per_thread[call->thread];
      if (call->flags & kCallIncomplete) ++s.incomplete_calls;
      if (call->flags & kCallFake) ++s.fake_calls;
      if (call->flags & kCallVerbose) ++s.verbose_calls;
      ++in_frame;
      if ((call->flags & kCallEndFrame) || presents[last_index]) {
        ++s.frames;
        ++frame_sizes[in_frame];
        in_frame = 0;
      }
      if (progress && (s.calls & 0x3fff) == 0) progress(parser.file_offset(), in.size());
    }
  } catch (const Error& e) {
    s.error = e;
  }
  s.cut_short = parser.cut_short();
  finish();
  if (progress) progress(in.offset(), in.offset());
  if (s.api.empty()) s.api = "Unknown";
  return s;
}

std::string report_table(const TraceStats& s, std::size_t top) {
  libtrace::detail::TableReport table(14);
  std::string& o = table.text();
  table.row("file", s.file);
  table.row("container", std::string(container_name(s.container)) + ", " + thousands(s.file_bytes) + " bytes");
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.2f",
                s.file_bytes ? static_cast<double>(s.stream_bytes) / static_cast<double>(s.file_bytes) : 0.0);
  table.row("stream", thousands(s.stream_bytes) + " bytes uncompressed (ratio " + ratio + ")");
  table.row("version",
            std::to_string(s.header.version) + " (semantic " + std::to_string(s.header.semantic_version) + ")");
  for (const auto& [k, v] : s.header.properties) table.row("property", k + " = " + v);
  table.row("api", s.api);
  table.row("calls", thousands(s.calls) + " (" + thousands(s.incomplete_calls) + " incomplete, " +
                         thousands(s.fake_calls) + " fake, " + thousands(s.verbose_calls) + " verbose)");
  if (s.error) table.row("stopped", std::string(s.error->what()) + " (the figures cover the calls before)");
  if (s.cut_short) table.row("cut short", s.cut_short->what());
  table.row("functions", thousands(s.calls_per_function.size()) + " distinct");
  table.row("threads", thousands(s.calls_per_thread.size()));
  if (s.frames)
    table.row("frames", thousands(s.frames) + " (calls per frame: min " + thousands(s.frame_calls_min) + ", median " +
                            thousands(s.frame_calls_median) + ", max " + thousands(s.frame_calls_max) + "; " +
                            thousands(s.calls_after_last_frame) + " after the last)");
  else
    table.row("frames", "0");
  table.row("blobs", thousands(s.blobs) + " (" + human_bytes(s.blob_bytes) + ")");

  const std::size_t n = top ? std::min(top, s.calls_per_function.size()) : s.calls_per_function.size();
  o += '\n';
  const std::string title =
      n < s.calls_per_function.size()
          ? "top " + std::to_string(n) + " of " + std::to_string(s.calls_per_function.size()) + " functions"
          : "functions";
  std::size_t width = title.size();
  for (std::size_t i = 0; i < n; ++i) width = std::max(width, s.calls_per_function[i].first.size());
  appendf(o, "%-*s %12s %7s\n", static_cast<int>(width), title.c_str(), "calls", "share");
  for (std::size_t i = 0; i < n; ++i) {
    const auto& [name, count] = s.calls_per_function[i];
    appendf(o, "%-*s %12s %7s\n", static_cast<int>(width), name.c_str(), thousands(count).c_str(),
            percent(count, s.calls).c_str());
  }
  o += '\n';
  appendf(o, "%-8s %12s %7s\n", "thread", "calls", "share");
  for (const auto& [tid, count] : s.calls_per_thread) {
    appendf(o, "%-8u %12s %7s\n", tid, thousands(count).c_str(), percent(count, s.calls).c_str());
  }
  return o;
}

std::string report_json(const TraceStats& s) {
  libtrace::detail::JsonReport report;
  report.object([&] {
    report.members("format", "apitrace", "file", s.file, "container", container_name(s.container), "file_bytes",
                   s.file_bytes, "stream_bytes", s.stream_bytes, "version", s.header.version, "semantic_version",
                   s.header.semantic_version);
    report.object("properties", [&] {
      for (const auto& [k, v] : s.header.properties) {
        report.text(k);  // keys from the file
        report.text(v);
      }
    });
    report.members("api", s.api, "calls", s.calls, "incomplete_calls", s.incomplete_calls, "fake_calls", s.fake_calls,
                   "verbose_calls", s.verbose_calls);
    report.object("calls_per_function", [&] {
      for (const auto& [name, count] : s.calls_per_function) {
        report.text(name);
        report.u64(count);
      }
    });
    report.object("threads", [&] { detail::put_thread_calls(report, s.calls_per_thread); });
    report.object("frames", [&] {
      report.members("count", s.frames, "calls_min", s.frame_calls_min, "calls_median", s.frame_calls_median,
                     "calls_max", s.frame_calls_max, "calls_after_last", s.calls_after_last_frame);
    });
    report.object("blobs", [&] {
      report.u64("count", s.blobs);
      report.u64("bytes", s.blob_bytes);
    });
    if (s.error) report.text("error", s.error->what());  // the figures cover the calls before it
  });
  return report.finish();
}

}  // namespace libtrace::apitrace
