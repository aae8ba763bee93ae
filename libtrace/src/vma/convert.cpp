// SPDX-License-Identifier: MIT
// CSV writer and JSON Lines rendering for VMA recordings.
#include "libtrace/vma/convert.hpp"

#include <cinttypes>
#include <cstdio>

#include "core/json_text.hpp"
#include "core/text_util.hpp"

namespace libtrace::vma {

namespace {

using libtrace::detail::put_json_string;

// Config lines a version's recorder did not write yet.
bool config_line_in(std::string_view line, Version v) {
  if (line.rfind("VulkanApiVersion,", 0) == 0) return v >= Version{1, 8};
  if (line.rfind("Extension,VK_KHR_bind_memory2,", 0) == 0) return v >= Version{1, 6};
  if (line.rfind("Extension,VK_EXT_memory_budget,", 0) == 0) return v >= Version{1, 7};
  if (line.rfind("Extension,VK_AMD_device_coherent_memory,", 0) == 0) return v >= Version{1, 8};
  return true;
}

void put_ptr(std::string& out, std::uint64_t p) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIX64, p);
  out += buf;
}

}  // namespace

CsvWriter::CsvWriter(Sink& out, const Header& source, Version target) : out_(out), target_(target) {
  buf_ = "Vulkan Memory Allocator,Calls recording\n1," + std::to_string(target.minor) + "\n";
  if (target >= Version{1, 3}) {
    buf_ += "Config,Begin\n";
    for (const std::string& line : source.config.lines)
      if (config_line_in(line, target)) buf_ += line + "\n";
    buf_ += "Config,End\n";
  }
}

void CsvWriter::write(const Call& c) {
  const auto [first, last] = function_versions(c.function);
  if (target_ < first || target_ > last)
    throw Error(Errc::unsupported, "line " + std::to_string(c.line),
                std::string(function_name(c.function)) + " cannot be expressed in format " + target_.str() + " (only " +
                    first.str() + " to " + last.str() + ")");
  char head[96];
  std::snprintf(head, sizeof head, "%u,%.3f,%u,", c.thread, c.time, c.frame);
  buf_ += head;
  buf_ += function_name(c.function);
  // The last 1.8 recorder wrote vmaCreatePool without frameInUseCount; every
  // other version has the column, and 0 is VmaPoolCreateInfo's default.
  const bool frame_in_use = c.function == Function::CreatePool && c.num.size() == 6 && target_ != Version{1, 8};
  for (const Param& p : params(c)) {
    if (frame_in_use && p.kind == ParamKind::pointer) buf_ += ",0";
    buf_ += ',';
    switch (p.kind) {
      case ParamKind::number:
      case ParamKind::boolean: detail::put_u64(buf_, p.value); break;
      case ParamKind::pointer: put_ptr(buf_, p.value); break;
      case ParamKind::pointer_list:
        for (std::size_t i = 0; i < p.list->size(); ++i) {
          if (i) buf_ += ' ';
          put_ptr(buf_, (*p.list)[i]);
        }
        break;
      case ParamKind::text: buf_ += c.text; break;
    }
  }
  buf_ += '\n';
  if (buf_.size() >= (1u << 16)) flush();
}

void CsvWriter::flush() {
  out_.write(buf_.data(), buf_.size());
  buf_.clear();
}

void jsonl_header(const Header& h, std::string& out) {
  out += "{\"type\":\"header\",\"format\":\"vma-csv\",\"version\":";
  put_json_string(out, h.version.str());
  out += ",\"config\":[";
  for (std::size_t i = 0; i < h.config.lines.size(); ++i) {
    if (i) out += ',';
    put_json_string(out, h.config.lines[i]);
  }
  out += "]}\n";
}

void jsonl_call(const Call& c, std::string& out) {
  char head[128];
  std::snprintf(head, sizeof head,
                "{\"type\":\"call\",\"line\":%" PRIu64 ",\"thread\":%u,\"time\":%.3f,\"frame\":%u,\"function\":",
                c.line, c.thread, c.time, c.frame);
  out += head;
  put_json_string(out, function_name(c.function));
  out += ",\"args\":{";
  bool first = true;
  for (const Param& p : params(c)) {
    if (!first) out += ',';
    first = false;
    put_json_string(out, p.name);
    out += ':';
    switch (p.kind) {
      case ParamKind::number: detail::put_u64(out, p.value); break;
      case ParamKind::boolean: out += p.value ? "true" : "false"; break;
      case ParamKind::pointer:
        out += '"';
        put_ptr(out, p.value);
        out += '"';
        break;
      case ParamKind::pointer_list:
        out += '[';
        for (std::size_t i = 0; i < p.list->size(); ++i) {
          if (i) out += ',';
          out += '"';
          put_ptr(out, (*p.list)[i]);
          out += '"';
        }
        out += ']';
        break;
      case ParamKind::text: put_json_string(out, c.text); break;
    }
  }
  out += "}}\n";
}

}  // namespace libtrace::vma
