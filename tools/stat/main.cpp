// SPDX-License-Identifier: MIT
// trak-stat: quick statistics on a trace, a VMA recording or a Fossilize
// archive (told apart by content).
#include <iostream>

#include "libtrace/apitrace/stat.hpp"
#include "libtrace/foz/stat.hpp"
#include "libtrace/vma/stat.hpp"
#include "tool_main.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "Statistics of an apitrace trace, a VMA calls recording or a Fossilize .foz archive (detected from the content).",
      "trak-stat"};
  std::string input = "-";
  bool json = false, all = false, no_progress = false, keep_going = false;
  std::size_t top = 10;
  app.add_option("input", input, "Trace or recording; '-' reads stdin")->capture_default_str();
  app.add_flag("--json", json, "One JSON object instead of the table");
  app.add_option("--top", top, "Functions listed in the table (traces)")->capture_default_str();
  app.add_flag("--all", all, "List every function (traces)");
  app.add_flag("--keep-going", keep_going, "Recordings: count malformed lines as warnings instead of stopping");
  std::string html;
  app.add_option("--html", html,
                 "Recordings: also write a self-contained HTML report (plot and tables) to FILE ('-': to stdout, "
                 "instead of the table)")
      ->type_name("FILE");
  unsigned threads = 0;
  app.add_option("-j,--jobs", threads, "Recordings: threads parsing and counting (default: one per core, up to 12)")
      ->check(CLI::Range(1u, 256u));
  app.add_option("-T,--threads", threads)->check(CLI::Range(1u, 256u))->group("");  // the first spelling
  app.add_flag("--no-progress", no_progress, "No progress bar on stderr");
  bool list = false;
  std::string tag;
  app.add_flag("--list", list,
               "Archives: every entry, one 'TAG HASH' line each (by tag, then hash: what fossilize-list prints); "
               "with --json, one object with offsets and sizes");
  app.add_option("--tag", tag,
                 "Archives, with --list: keep this tag alone (application_info, sampler, descriptor_set_layout, "
                 "pipeline_layout, shader_module, render_pass, graphics_pipeline, compute_pipeline, "
                 "raytracing_pipeline, application_blob_link, bucket_info, or Fossilize's number)")
      ->type_name("TAG");
  app.footer(R"(Examples:
  trak-stat gears.trace
  trak-stat gears.trace --all
  trak-stat gears.trace --json | jq '.frames'
  trak-stat app.vma.csv                    VMA recording: peaks, leaks, pools, histograms
  trak-stat app.vma.csv --json | jq '.peak_live_allocations, .leaks'
  trak-stat app.vma.csv --html report.html   plot of live bytes per heap, tables
  trak-stat big.vma.csv -j 4               four threads, whatever the cores
  trak-repack x.br.trace - --codec snappy | trak-stat -
  trak-stat app.foz                        Fossilize archive: entries per tag, bytes, applications, damage
  trak-stat app.foz --json | jq '.entries_per_tag.graphics_pipeline, .torn_tail'
  trak-stat app.foz --list                 every entry: 'graphics_pipeline e3b925b0c1c00de1'
  trak-stat app.foz --list --tag compute_pipeline | wc -l
  trak-stat app.foz --list --json | jq -r '.entries[] | select(.bytes > 65536) | .hash')");

  return tools::run(app, argc, argv, [&] {
    if (libtrace::is_stdio(html) && json) throw tools::UsageError("--html - and --json would both write to stdout");
    tools::refuse_terminal_input(input);
    tools::refuse_output_is_input(input, html);
    libtrace::InputFile in(input);
    const auto progress_foz = tools::progress_bar("trak-stat", !no_progress);
    libtrace::Sniffed sniffed = libtrace::sniff(in);
    if (sniffed.format == libtrace::Format::foz_json || sniffed.format == libtrace::Format::gfxr_capture)
      throw tools::not_read_here(in, sniffed.format, "trak-stat",
                                 "apitrace traces, VMA calls recordings and Fossilize archives");
    // An option that does not apply to what the input is would be ignored
    // silently: a usage error instead.
    auto only_for = [&](std::initializer_list<const char*> names, const char* what) {
      for (const char* n : names)
        if (app.count(n)) throw tools::UsageError(std::string(n) + " applies to " + what);
    };
    if (!tag.empty() && !list) throw tools::UsageError("--tag applies to --list");
    if (sniffed.format != libtrace::Format::foz_archive) only_for({"--list"}, "Fossilize archives");
    if (sniffed.format == libtrace::Format::foz_archive) {
      only_for({"--html"}, "VMA recordings");
      only_for({"--top", "--all"}, "traces");
      only_for({"--keep-going", "--jobs", "--threads"}, "VMA recordings");
      if (list) {
        libtrace::foz::FozListOptions opt;
        if (!tag.empty()) {
          opt.only = libtrace::foz::parse_tag(tag);
          if (!opt.only)
            throw tools::UsageError("--tag: unknown tag '" + tag + "' (a name trak-stat prints, or 0 to " +
                                    std::to_string(libtrace::foz::kTagCount - 1) + ")");
        }
        opt.progress = progress_foz;
        opt.warnings = tools::warning_sink("trak-stat");
        const libtrace::foz::FozList l =
            libtrace::is_stdio(input) ? libtrace::foz::list_entries(in, opt) : libtrace::foz::list_entries(input, opt);
        std::cout << (json ? libtrace::foz::report_list_json(l) : libtrace::foz::report_list(l));
        std::cout.flush();
        if (l.error) throw *l.error;
        return tools::kOk;
      }
      libtrace::foz::FozStatOptions opt;
      opt.progress = progress_foz;
      opt.warnings = tools::warning_sink("trak-stat");
      // A file is scanned in place; stdin (already peeked at) through `in`.
      const libtrace::foz::FozStats s =
          libtrace::is_stdio(input) ? libtrace::foz::stats(in, opt) : libtrace::foz::stats(input, opt);
      std::cout << (json ? libtrace::foz::report_json(s) : libtrace::foz::report_table(s));
      std::cout.flush();
      if (s.error) throw *s.error;
      if (!s.bad_entries.empty()) {
        const auto& b = s.bad_entries.front();
        throw libtrace::Error(
            libtrace::Errc::bad_record,
            libtrace::at_offset(s.file, b.offset) + ": " + libtrace::foz::describe_entry(b.tag, b.hash),
            b.why + (s.bad_entries.size() > 1
                         ? " (and " + std::to_string(s.bad_entries.size() - 1) + " more bad entries)"
                         : ""));
      }
      return tools::kOk;
    }
    auto decoder = std::move(sniffed.stream);
    const auto progress = tools::progress_bar("trak-stat", !no_progress);
    if (sniffed.format == libtrace::Format::vma_recording) {
      only_for({"--top", "--all"}, "traces");
      libtrace::vma::StatOptions opt;
      opt.keep_going = keep_going;
      opt.timeline = !html.empty();
      opt.threads = threads;
      opt.progress = progress;
      opt.input_size = in.size();
      // --keep-going on a damaged file can skip thousands of lines: the
      // first few are shown, all are counted (Stats::warnings).
      constexpr std::uint64_t kShownWarnings = 20;
      std::uint64_t warned = 0;
      opt.warnings = tools::warning_sink("trak-stat", &warned, kShownWarnings);
      const libtrace::vma::Stats s = libtrace::vma::stats(std::move(decoder), in.name(), opt);
      if (warned > kShownWarnings)
        std::cerr << "trak-stat: warning: " << in.name() << ": " << warned - kShownWarnings
                  << " more warnings not shown\n";
      // The report on stdout unless the page goes there.
      if (!libtrace::is_stdio(html)) {
        std::cout << (json ? libtrace::vma::report_json(s) : libtrace::vma::report_table(s));
        std::cout.flush();
      }
      if (!html.empty()) {
        libtrace::OutputFile page(html);
        const std::string text = libtrace::vma::report_html(s);
        page.write(text.data(), text.size());
        if (s.error) {
          // A page of the lines before the error is kept aside: it must not
          // replace a complete report of an earlier run.
          const std::string partial = page.keep_partial();
          if (!partial.empty())
            throw libtrace::Error(s.error->code(), s.error->where(),
                                  s.error->message() + " (report so far in " + partial + ")");
        } else {
          page.commit();
        }
      }
      if (s.error) throw *s.error;
      return tools::kOk;
    }
    only_for({"--html", "--keep-going", "--jobs", "--threads"}, "VMA recordings");
    const libtrace::apitrace::TraceStats s = libtrace::apitrace::stats(in, std::move(decoder), progress);
    if (s.cut_short) tools::warning_sink("trak-stat")(s.cut_short->where(), s.cut_short->message());
    std::cout << (json ? libtrace::apitrace::report_json(s) : libtrace::apitrace::report_table(s, all ? 0 : top));
    std::cout.flush();
    if (s.error) throw *s.error;
    return tools::kOk;
  });
}
