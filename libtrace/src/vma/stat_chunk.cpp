// SPDX-License-Identifier: MIT
// trak-stat's first pass over a chunk of lines: parse, count, and turn what
// depends on earlier lines into events.
#include "vma/stat_chunk.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <initializer_list>
#include <utility>

#include "libtrace/vma/sim.hpp"
#include "vma/line.hpp"
#include "vma/line_cols.hpp"

namespace libtrace::vma::detail {

int TypeCache::get(const Config& config, std::uint64_t usage, std::uint64_t required, std::uint64_t preferred,
                   std::uint64_t type_bits, std::uint32_t req_bits) {
  const std::uint64_t h =
      (usage * 31 + required * 17 + preferred * 7 + type_bits * 3 + req_bits) * 0x9E3779B97F4A7C15ull;
  Entry& e = entries_[h >> 58];
  if (!e.valid || e.usage != usage || e.required != required || e.preferred != preferred || e.type_bits != type_bits ||
      e.req_bits != req_bits)
    e = {usage,     required, preferred,
         type_bits, req_bits, resolve_memory_type(config, usage, required, preferred, type_bits, req_bits),
         true};
  return e.type;
}

namespace {

class ChunkCounter {
 public:
  ChunkCounter(const Config& config, TypeCache& types, ChunkStats& out) : config_(config), types_(types), s_(out) {}

  // One call of function F (known where the line was parsed: a switch on
  // the function here would be a second unpredictable branch per line).
  // Reads only the columns needed_columns(F) keeps.
  template <Function F>
  void call(const LineCall& c, std::uint64_t line) {
    line_ = line;
    ++s_.calls;
    ++s_.calls_per_function[static_cast<std::size_t>(F)];
    count_thread(c.thread);
    if (s_.calls == 1)
      s_.first_time = c.time;
    else if (c.time < s_.last_time)
      ++s_.time_steps_back;
    s_.last_time = c.time;
    s_.max_time = std::max(s_.max_time, c.time);
    if (s_.calls == 1 || c.frame != s_.frames.back()) s_.frames.push_back(c.frame);
    const auto& n = c.num;
    if constexpr (F == Function::CreatePool) {
      if (!n[c.numbers - 1]) {
        ++s_.failed_creations;
        return;
      }
      add(EventKind::pool_create, c, n[c.numbers - 1]).bytes = n[2];
      aux(s_.events.back()) = {n[0], n[3], n[4], 0, 0};
    } else if constexpr (F == Function::DestroyPool) {
      // A null pool or allocation names nothing (and 0 marks a free slot
      // in the merge's tables, so it must never be looked up there).
      if (n[0]) add(EventKind::pool_destroy, c, n[0]);
    } else if constexpr (F == Function::SetPoolName) {
      if (n[0]) add_text(add(EventKind::pool_name, c, n[0]), c.text);
    } else if constexpr (F == Function::SetAllocationUserData) {
      if (n[0]) add_text(add(EventKind::user_data, c, n[0]), c.text);
    } else if constexpr (F == Function::CreateBuffer) {
      create(c, n[10], n[1], resolve(n[9], n[5], n[6], n[7], n[8], 0xffffffffu), n[9]);
    } else if constexpr (F == Function::CreateImage) {
      const std::uint64_t bytes = estimate_image_bytes(
          static_cast<std::uint32_t>(n[2]), static_cast<std::uint32_t>(n[3]), static_cast<std::uint32_t>(n[4]),
          static_cast<std::uint32_t>(n[5]), static_cast<std::uint32_t>(n[6]), static_cast<std::uint32_t>(n[7]),
          static_cast<std::uint32_t>(n[8]));
      if (n[19]) ++s_.image_bytes_estimated;
      create(c, n[19], bytes, resolve(n[18], n[14], n[15], n[16], n[17], 0xffffffffu), n[18]);
    } else if constexpr (F == Function::AllocateMemory) {
      create(c, n[9], n[0], resolve(n[8], n[4], n[5], n[6], n[7], static_cast<std::uint32_t>(n[2])), n[8]);
    } else if constexpr (F == Function::AllocateMemoryForBuffer || F == Function::AllocateMemoryForImage) {
      create(c, n[11], n[0], resolve(n[10], n[6], n[7], n[8], n[9], static_cast<std::uint32_t>(n[2])), n[10]);
    } else if constexpr (F == Function::AllocateMemoryPages) {
      const int type = resolve(n[8], n[4], n[5], n[6], n[7], static_cast<std::uint32_t>(n[2]));
      if (c.list[0].empty()) ++s_.failed_creations;
      for (std::uint64_t p : c.list[0]) create(c, p, n[0], type, n[8]);
    } else if constexpr (F == Function::CreateLostAllocation) {
      create(c, n[0], 0, -1, 0);
    } else if constexpr (F == Function::DestroyBuffer || F == Function::DestroyImage || F == Function::FreeMemory) {
      if (n[0]) add(EventKind::destroy, c, n[0]);  // destroying null does nothing
    } else if constexpr (F == Function::FreeMemoryPages) {
      for (std::uint64_t p : c.list[0])
        if (p) add(EventKind::destroy, c, p);
    }
  }

  // A call the reference parser read.
  void call(const LineCall& c, std::uint64_t line) {
    static constexpr auto kCall = []<std::size_t... F>(std::index_sequence<F...>) {
      return std::array{&ChunkCounter::call<static_cast<Function>(F)>...};
    }
    (std::make_index_sequence<kFunctionCount>{});
    (this->*kCall[static_cast<std::size_t>(c.function)])(c, line);
  }

 private:
  // Recordings interleave a few threads line by line: a small table indexed
  // by the thread's id hashed (whose check is predictable, unlike "same
  // thread as the line before?"), with a list for ids that collide. Always
  // inlined: GCC leaves it out of the per-function counters otherwise, which
  // cost 3 % of parsing and counting.
  [[gnu::always_inline]] void count_thread(std::uint32_t thread) {
    Slot& t = threads_[(thread * 0x9E3779B1u) >> (32 - kThreadBits)];
    if (t.calls && t.thread == thread) {
      ++t.calls;
    } else if (!t.calls) {
      t = {thread, 1};
    } else {
      for (auto& [id, calls] : s_.threads) {
        if (id == thread) {
          ++calls;
          return;
        }
      }
      s_.threads.push_back({thread, 1});
    }
  }

 public:
  // Moves the table's counts to the chunk's list.
  void finish() {
    for (const Slot& t : threads_)
      if (t.calls) s_.threads.push_back({t.thread, t.calls});
  }

 private:
  // The memory type without a pool; a pool's is looked up when merging,
  // since pools come and go.
  int resolve(std::uint64_t pool, std::uint64_t usage, std::uint64_t required, std::uint64_t preferred,
              std::uint64_t type_bits, std::uint32_t req_bits) {
    return pool ? -1 : types_.get(config_, usage, required, preferred, type_bits, req_bits);
  }

  Event& add(EventKind kind, const LineCall& c, std::uint64_t ptr) {
    return s_.events.emplace_back(Event{ptr, 0, c.time, static_cast<std::uint32_t>(line_), 0, -1, kind, c.function});
  }

  EventAux& aux(Event& e) {
    if (!e.aux) {
      e.aux = static_cast<std::uint32_t>(s_.aux.size());
      s_.aux.emplace_back();
    }
    return s_.aux[e.aux];
  }

  void add_text(Event& e, std::string_view text) {
    EventAux& a = aux(e);
    a.text_at = static_cast<std::uint32_t>(s_.texts.size());
    a.text_size = static_cast<std::uint32_t>(text.size());
    s_.texts += text;
  }

  void create(const LineCall& c, std::uint64_t ptr, std::uint64_t bytes, int type, std::uint64_t pool) {
    if (!ptr) {
      ++s_.failed_creations;
      return;
    }
    ++s_.allocations_created;
    // [k]: sizes in [2^k, 2^(k+1)), the last bucket open-ended.
    const std::size_t bucket = bytes < 2 ? 0
                                         : std::min<std::size_t>(63 - static_cast<std::size_t>(__builtin_clzll(bytes)),
                                                                 s_.size_histogram.size() - 1);
    ++s_.size_histogram[bucket];
    Event& e = add(EventKind::create, c, ptr);
    e.type = static_cast<std::int16_t>(type);
    e.bytes = bytes;
    if (pool) aux(e).pool = pool;
    if (!c.text.empty()) add_text(e, c.text);  // empty: none
  }

  const Config& config_;
  TypeCache& types_;
  ChunkStats& s_;
  std::uint64_t line_ = 0;
  static constexpr int kThreadBits = 5;
  struct Slot {
    std::uint32_t thread;
    std::uint64_t calls;  // 0: free
  };
  std::array<Slot, 1 << kThreadBits> threads_{};
};

// The columns of F whose values ChunkCounter::call<F> reads (bit i: column
// i; a list is always kept); the others are only validated. Tests build with
// the columns left out set to nonsense, so that a read of one shows.
constexpr std::uint64_t needed_columns(Function f) {
  auto bits = [](std::initializer_list<int> cols) {
    std::uint64_t m = 0;
    for (int i : cols) m |= std::uint64_t{1} << i;
    return m;
  };
  switch (f) {
    case Function::CreateBuffer: return bits({1, 5, 6, 7, 8, 9, 10});
    case Function::CreateImage: return bits({2, 3, 4, 5, 6, 7, 8, 14, 15, 16, 17, 18, 19});
    case Function::AllocateMemory: return bits({0, 2, 4, 5, 6, 7, 8, 9});
    case Function::AllocateMemoryPages: return bits({0, 2, 4, 5, 6, 7, 8});
    case Function::AllocateMemoryForBuffer:
    case Function::AllocateMemoryForImage: return bits({0, 2, 6, 7, 8, 9, 10, 11});
    case Function::FlushAllocation:
    case Function::InvalidateAllocation: return 0;
    default: return kAllColumns;  // one or two columns, or rare
  }
}

// Parses the columns of a line with column list K and counts the call.
template <std::size_t K>
const char* count_line(const char* p, const char* stop, LineCall& call, ChunkCounter& counter, std::uint64_t line) {
  p = line_columns<kColumnsOf<K>, needed_columns(kFunctionOf<K>)>(p, stop, call);
  if (p) counter.call<kFunctionOf<K>>(call, line);
  return p;
}

using CountLine = const char* (*)(const char* p, const char* stop, LineCall& call, ChunkCounter& counter,
                                  std::uint64_t line);

template <std::size_t... K>
constexpr std::array<CountLine, kColumnLists> count_lines(std::index_sequence<K...>) {
  return {&count_line<K>...};
}

constexpr auto kCountLine = count_lines(std::make_index_sequence<kColumnLists>{});

}  // namespace

void count_chunk(const Chunk& chunk, const Header& header, bool keep_going, TypeCache& types, ChunkStats& out) {
  out.lines = out.calls = 0;
  out.calls_per_function = {};
  out.threads.clear();
  out.frames.clear();
  out.first_time = out.last_time = out.max_time = 0;
  out.time_steps_back = out.failed_creations = out.allocations_created = out.image_bytes_estimated = 0;
  out.size_histogram = {};
  out.events.clear();
  // Room for an event per 32 bytes of lines up front (a line is longer):
  // grown by doubling, every step would touch new pages.
  out.events.reserve((chunk.head.size() + chunk.end - chunk.begin) / 32);
  out.aux.assign(1, EventAux{});
  out.texts.clear();
  out.notes.clear();
  out.error.reset();
  ChunkCounter counter(header.config, types, out);
  LineCall& parsed = out.line;
  Call& call = out.call;
  const NameTable& names = name_table();
  // Lines in [p, stop), which ends with a '\n'; false at an error.
  auto run = [&](const char* p, const char* stop) {
    while (p < stop) {
      ++out.lines;
      std::size_t list = 0;
      if (const char* head = parse_head(p, stop, header.version, parsed, list, names)) {
        if (const char* after = kCountLine[list](head, stop, parsed, counter, out.lines)) {
          p = after;
          continue;
        }
      }
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(stop - p)));
      std::string_view line(p, static_cast<std::size_t>(nl - p));
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      p = nl + 1;
      if (trim_right(line).empty()) continue;
      if (auto why = parse_call(line, header.version, call)) {
        if (!keep_going) {
          out.error = LineNote{out.lines, std::move(*why)};
          return false;
        }
        out.notes.push_back({out.lines, *why + "; line skipped"});
        continue;
      }
      to_line_call(call, parsed);
      counter.call(parsed, out.lines);
    }
    return true;
  };
  const char* block = chunk.data;
  if (chunk.head.empty() || run(chunk.head.data(), chunk.head.data() + chunk.head.size()))
    run(block + chunk.begin, block + chunk.end);
  counter.finish();
}

}  // namespace libtrace::vma::detail
