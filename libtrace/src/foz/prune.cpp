// SPDX-License-Identifier: MIT
// Pruning: pipelines chosen by the filters, then everything they need.
#include "foz/prune.hpp"

#include <array>
#include <deque>
#include <unordered_map>

#include "foz/peek.hpp"

namespace libtrace::foz::detail {

namespace {

constexpr Tag kPipelineTags[] = {Tag::graphics_pipeline, Tag::compute_pipeline, Tag::raytracing_pipeline};

bool has(const TagHashSets& s, Tag t, std::uint64_t h) { return s[static_cast<std::size_t>(t)].count(h) != 0; }

class Pruner {
 public:
  Pruner(const PruneOptions& opt, const PruneInput& in) : opt_(opt), in_(in) {
    for (Tag t : {Tag::sampler, Tag::descriptor_set_layout, Tag::pipeline_layout, Tag::render_pass})
      skips_objects_ = skips_objects_ || !opt_.skip[static_cast<std::size_t>(t)].empty();
  }

  TagHashSets run() {
    keep_application_infos();
    keep_links();
    const bool pipeline_lists = !opt_.keep[static_cast<std::size_t>(Tag::graphics_pipeline)].empty() ||
                                !opt_.keep[static_cast<std::size_t>(Tag::compute_pipeline)].empty() ||
                                !opt_.keep[static_cast<std::size_t>(Tag::raytracing_pipeline)].empty();
    for (Tag t : kPipelineTags) {
      if (opt_.keep_list_empty) break;
      for (std::uint64_t h : in_.present[static_cast<std::size_t>(t)]) {
        if (has(opt_.skip, t, h)) continue;
        if (pipeline_lists && !has(opt_.keep, t, h)) continue;
        if (!opt_.applications.empty() && !has(linked_, t, h)) continue;
        const std::vector<Ref> deps = peek(t, h);  // a copy: peek() reuses its buffer
        if (!modules_allowed(t, deps) || needs_skipped(deps)) continue;
        if (!keep_[static_cast<std::size_t>(t)].insert(h).second) continue;  // already needed by another
        for (const Ref& d : deps) add(d.tag, d.hash);
      }
    }
    // Everything the chosen pipelines need, transitively.
    while (!work_.empty()) {
      const Ref r = work_.front();
      work_.pop_front();
      if (r.tag == Tag::shader_module || r.tag == Tag::sampler || r.tag == Tag::render_pass) continue;
      for (const Ref& d : peek(r.tag, r.hash)) add(d.tag, d.hash);
    }
    return std::move(keep_);
  }

 private:
  void keep_application_infos() {
    for (std::uint64_t h : in_.present[static_cast<std::size_t>(Tag::application_info)])
      if ((opt_.applications.empty() || opt_.applications.count(h)) && !has(opt_.skip, Tag::application_info, h))
        keep_[0].insert(h);
  }

  void keep_links() {
    if (opt_.skip_links && opt_.applications.empty()) return;
    std::vector<std::uint8_t> payload;
    Peeked p;
    for (std::uint64_t h : in_.present[static_cast<std::size_t>(Tag::application_blob_link)]) {
      if (has(opt_.skip, Tag::application_blob_link, h)) continue;
      if (opt_.applications.empty()) {
        keep_[static_cast<std::size_t>(Tag::application_blob_link)].insert(h);
        continue;
      }
      const std::string where = in_.read(Tag::application_blob_link, h, payload);
      peek_payload_in_place(Tag::application_blob_link, payload, p, where);
      if (!p.link_ok || !opt_.applications.count(p.link_application)) continue;
      if (p.link_tag < kTagCount) linked_[p.link_tag].insert(p.link_hash);
      if (!opt_.skip_links) keep_[static_cast<std::size_t>(Tag::application_blob_link)].insert(h);
    }
  }

  // fossilize-prune's module rule: with a module keep list, at least one
  // stage must use a kept module; no stage may use a skipped one; and (ours,
  // for every pipeline type) no skipped library.
  bool modules_allowed(Tag t, const std::vector<Ref>& refs) const {
    const auto& keep_modules = opt_.keep[static_cast<std::size_t>(Tag::shader_module)];
    bool any_kept = keep_modules.empty();
    for (const Ref& r : refs) {
      if (r.tag == Tag::shader_module) {
        if (has(opt_.skip, r.tag, r.hash)) return false;
        if (keep_modules.count(r.hash)) any_kept = true;
      } else if (r.tag == t && has(opt_.skip, r.tag, r.hash)) {
        return false;
      }
    }
    return any_kept;
  }

  // A pipeline whose layout, render pass or their set layouts and samplers
  // are skipped goes too: kept, it could not be created (fossilize-prune's
  // blacklist hides the entry, and the pipeline then fails to parse).
  bool needs_skipped(const std::vector<Ref>& refs) {
    if (!skips_objects_) return false;
    for (const Ref& r : refs) {
      if (r.tag == Tag::shader_module || r.tag == Tag::graphics_pipeline || r.tag == Tag::compute_pipeline ||
          r.tag == Tag::raytracing_pipeline)
        continue;  // modules_allowed() judged these
      if (object_needs_skipped(r.tag, r.hash)) return true;
    }
    return false;
  }

  bool object_needs_skipped(Tag t, std::uint64_t h) {
    if (has(opt_.skip, t, h)) return true;
    if (!has(in_.present, t, h) || t == Tag::sampler || t == Tag::render_pass) return false;
    auto& memo = skipped_deps_[static_cast<std::size_t>(t)];
    if (const auto it = memo.find(h); it != memo.end()) return it->second;
    memo[h] = false;  // a cycle (only in a damaged archive) ends here
    const std::vector<Ref> deps = peek(t, h);
    bool needs = false;
    for (const Ref& d : deps) needs = needs || object_needs_skipped(d.tag, d.hash);
    return memo[h] = needs;
  }

  void add(Tag t, std::uint64_t h) {
    if (has(opt_.skip, t, h) || !has(in_.present, t, h)) return;
    if (!keep_[static_cast<std::size_t>(t)].insert(h).second) return;
    work_.push_back(Ref{t, h});
  }

  const std::vector<Ref>& peek(Tag t, std::uint64_t h) {
    const std::string where = in_.read(t, h, payload_);
    peek_payload_in_place(t, payload_, peeked_, where);
    return peeked_.refs;
  }

  const PruneOptions& opt_;
  const PruneInput& in_;
  TagHashSets keep_, linked_;
  std::array<std::unordered_map<std::uint64_t, bool>, kTagCount> skipped_deps_;
  bool skips_objects_ = false;
  std::deque<Ref> work_;
  std::vector<std::uint8_t> payload_;
  Peeked peeked_;
};

}  // namespace

TagHashSets prune_keep_set(const PruneOptions& opt, const PruneInput& in) { return Pruner(opt, in).run(); }

}  // namespace libtrace::foz::detail
