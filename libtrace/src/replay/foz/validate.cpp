// SPDX-License-Identifier: MIT
// spirv-val over the archives' shader modules.
#include "replay/foz/validate.hpp"

#include <atomic>
#include <mutex>
#include <thread>

#include "libtrace/foz/object.hpp"
#include "vk/spirv_val.hpp"

namespace libtrace::foz::detail {

std::unordered_map<std::uint64_t, std::string> validate_modules(const Sources& sources, const std::string& tool,
                                                                unsigned jobs) {
  const std::vector<std::uint64_t> modules = sources.hashes(Tag::shader_module);
  std::unordered_map<std::uint64_t, std::string> bad;
  std::mutex mu;
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  const auto work = [&] {
    Arena arena;
    std::vector<std::uint8_t> payload;
    for (std::size_t i; (i = next.fetch_add(1)) < modules.size();) {
      std::string why;
      try {
        const auto f = sources.find(Tag::shader_module, modules[i]);
        sources.read(f, payload);
        arena.reset();
        const Object o = parse_payload(std::string_view(reinterpret_cast<const char*>(payload.data()), payload.size()),
                                       arena, f.reader->where(*f.entry));
        const auto* ci = o.as<VkShaderModuleCreateInfo>();
        why = vk::run_validator(tool, reinterpret_cast<const std::uint8_t*>(ci->pCode), ci->codeSize);
      } catch (const Error& e) {
        if (e.code() == Errc::usage) {
          std::lock_guard<std::mutex> lock(mu);
          if (!error) error = std::current_exception();
          next.store(modules.size());
          return;
        }
        why = e.what();
      }
      if (!why.empty()) {
        std::lock_guard<std::mutex> lock(mu);
        bad.emplace(modules[i], std::move(why));
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::max(1u, jobs); ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
  return bad;
}

}  // namespace libtrace::foz::detail
