// SPDX-License-Identifier: MIT
// trak-merge: Fossilize .foz archives into one, deduplicated, raw copies,
// optionally pruned like fossilize-prune.
#include <algorithm>
#include <iostream>

#include "libtrace/foz/merge.hpp"
#include "tool_main.hpp"

namespace {

namespace foz = libtrace::foz;

// Up to 16 hex digits, "0x" allowed: hashes as Fossilize's tools print them.
std::uint64_t parse_hash_arg(std::string s) {
  if (s.starts_with("0x") || s.starts_with("0X")) s = s.substr(2);
  if (s.empty() || s.size() > 16) throw tools::UsageError("'" + s + "' is not a hash (1 to 16 hex digits)");
  const auto h = foz::parse_hash(std::string(16 - s.size(), '0') + s);
  if (!h) throw tools::UsageError("'" + s + "' is not a hash (1 to 16 hex digits)");
  return *h;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Merge Fossilize .foz archives into one: entries deduplicated by (tag, hash) and copied raw (no\n"
      "recompression); duplicates with different payloads are reported. With filters, prune like\n"
      "fossilize-prune: keep the chosen pipelines and everything they need.",
      "trak-merge"};
  foz::MergeOptions opt;
  bool json = false, quiet = false, no_progress = false, prune = false;
  std::vector<std::string> apps, keep_lists, skip_lists;
  std::map<std::string, std::vector<std::string>> by_flag;
  app.add_option("-o,--output", opt.output, "Output archive ('-' writes stdout)")->required();
  app.add_option("inputs", opt.inputs, "Input archives, in priority order (the first copy of an entry wins)")
      ->required();
  app.add_flag("--append", opt.append,
               "Keep the output's entries and append to it, as fossilize-merge-db does (a torn tail is cut off first)");
  app.add_flag("--check-crc", opt.check_crc,
               "Check the CRC of every entry copied and stop at a bad one (copies keep their CRCs, so readers of the "
               "output still catch damage; fossilize-merge-db does not check)");
  app.add_flag("--drop-bad", opt.drop_bad,
               "Check CRCs and drop entries that fail them (with a warning) instead of stopping");
  app.add_flag("--json", json, "Report as one JSON object");
  app.add_flag("-q,--quiet", quiet, "No report");
  app.add_flag("--no-progress", no_progress, "No progress bar on stderr");
  auto* g = app.add_option_group("pruning", "Any of these prunes (see fossilize-prune)");
  g->add_flag("--prune", prune, "Prune without filters: drop objects no pipeline needs");
  // One value per occurrence, so an option never swallows the input names.
  g->add_option("--filter-application", apps, "Keep what this application/feature hash links (repeatable)")
      ->allow_extra_args(false);
  for (const char* f : {"--filter-graphics", "--filter-compute", "--filter-raytracing", "--filter-module",
                        "--skip-graphics", "--skip-compute", "--skip-raytracing", "--skip-module"})
    g->add_option(f, by_flag[f],
                  std::string(f).starts_with("--filter") ? "Keep only these (repeatable)" : "Drop these (repeatable)")
        ->allow_extra_args(false);
  g->add_option("--keep-list", keep_lists,
                "Pipelines/modules to keep: a file of 'TAG HASH' or 40-digit entry names per line (trak-stat --list "
                "prints them), or a .foz archive whose pipelines and modules are kept (fossilize-prune --whitelist)")
      ->allow_extra_args(false);
  g->add_option("--skip-list", skip_lists,
                "Entries to drop, same forms; of an archive, every entry (fossilize-prune --blacklist; a "
                "replay's --skip-done database)")
      ->allow_extra_args(false);
  g->add_flag("--skip-application-info-links", opt.prune.skip_links, "Write no application blob links");
  app.footer(R"(Examples:
  trak-merge -o all.foz game.1.foz game.2.foz game.3.foz
  trak-merge --append -o cube.72991ed96a80f842.foz cube.72991ed96a80f842.*.foz   like fossilize-merge-db
  trak-merge -o one-app.foz --filter-application 0abb3f56ab202152 merged.foz
  trak-merge -o small.foz --skip-graphics e3b925b0c1c00de1 --keep-list hot.txt big.foz
  trak-merge -o todo.foz --skip-list done.foz big.foz        what a replay's --skip-done database lacks
  trak-merge -o hot.foz --keep-list whitelist.foz big.foz    like fossilize-prune --whitelist
  trak-merge -o all.foz a.foz b.foz --json | jq '.conflicts')");

  return tools::run(app, argc, argv, [&] {
    const auto flag = [&](const char* f) { return by_flag[f]; };
    auto add = [&](foz::HashSet& set, const std::vector<std::string>& v) {
      for (const auto& s : v) set.insert(parse_hash_arg(s));
    };
    add(opt.prune.applications, apps);
    add(opt.prune.keep[6], flag("--filter-graphics"));
    add(opt.prune.keep[7], flag("--filter-compute"));
    add(opt.prune.keep[9], flag("--filter-raytracing"));
    add(opt.prune.keep[4], flag("--filter-module"));
    add(opt.prune.skip[6], flag("--skip-graphics"));
    add(opt.prune.skip[7], flag("--skip-compute"));
    add(opt.prune.skip[9], flag("--skip-raytracing"));
    add(opt.prune.skip[4], flag("--skip-module"));
    const auto warnings = tools::warning_sink("trak-merge");
    for (const auto& f : keep_lists) foz::read_key_list(f, opt.prune.keep, foz::KeyList::keep, warnings);
    for (const auto& f : skip_lists) foz::read_key_list(f, opt.prune.skip, foz::KeyList::skip, warnings);
    opt.prune.keep_list_empty = !keep_lists.empty() && std::all_of(opt.prune.keep.begin(), opt.prune.keep.end(),
                                                                   [](const foz::HashSet& s) { return s.empty(); });
    if (opt.prune.keep_list_empty) prune = true;
    for (std::size_t t = 0; t < foz::kTagCount; ++t) {
      const bool allowed = t == 4 || t == 6 || t == 7 || t == 9;
      if (!allowed && !opt.prune.keep[t].empty())
        throw tools::UsageError("keep lists name pipelines and shader modules, not " +
                                std::string(foz::tag_name(static_cast<foz::Tag>(t))) + " entries");
      if (!opt.prune.keep[t].empty() || !opt.prune.skip[t].empty()) prune = true;
    }
    opt.prune.enabled = prune || !apps.empty() || opt.prune.skip_links;
    if (opt.append && libtrace::is_stdio(opt.output)) throw tools::UsageError("--append needs an output file");
    tools::refuse_binary_terminal(opt.output, true);
    opt.progress = tools::progress_bar("trak-merge", !no_progress);
    opt.warnings = warnings;
    const foz::MergeReport r = foz::merge_archives(opt);
    if (!r.conflicts.empty())
      opt.warnings(r.output,
                   std::to_string(r.conflicts.size()) +
                       " conflicting duplicates (same tag and hash, different payloads); the first copies were kept");
    if (!quiet) (libtrace::is_stdio(opt.output) ? std::cerr : std::cout) << foz::report_merge(r, json) << std::flush;
    return tools::kOk;
  });
}
