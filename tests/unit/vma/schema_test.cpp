// SPDX-License-Identifier: MIT
#include "vma/schema.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace libtrace::vma;
using namespace libtrace::vma::detail;

TEST_CASE("vma_schema: every function name round-trips and has a version range") {
  for (std::size_t i = 0; i < kFunctionCount; ++i) {
    const auto f = static_cast<Function>(i);
    CHECK(function_from_name(function_name(f)) == f);
    CHECK(function_versions(f).first <= function_versions(f).second);
    const std::string name(function_name(f));
    CHECK_FALSE(function_from_name(name + "s"));
    CHECK_FALSE(function_from_name(name.substr(0, name.size() - 1)));
    CHECK_FALSE(function_from_name(name + "\r"));
  }
  CHECK_FALSE(function_from_name("vmaNope"));
  CHECK_FALSE(function_from_name(""));
  CHECK_FALSE(function_from_name("vmaCreateBuffe"));
  CHECK_FALSE(function_from_name("vmacreateBuffer"));
}

TEST_CASE("vma_schema: match_function finds a name before a comma or a line end") {
  for (std::size_t i = 0; i < kFunctionCount; ++i) {
    const auto f = static_cast<Function>(i);
    for (const char* after : {",1,2\n", "\n", "\r\n", ","}) {
      const std::string line = std::string(function_name(f)) + after;
      const Schema* s = match_function(line.data(), line.data() + line.size());
      REQUIRE_MESSAGE(s, line);
      CHECK(s->function == f);
    }
    const std::string longer = std::string(function_name(f)) + "X,1\n";
    CHECK_FALSE(match_function(longer.data(), longer.data() + longer.size()));
    CHECK_FALSE(match_name(longer.data(), longer.data() + longer.size(), name_table()));
    // match_name: what the fast parser reads, kept beside the name.
    const std::string line = std::string(function_name(f)) + ",0000000000000001\n";
    const NameMatch* m = match_name(line.data(), line.data() + line.size(), name_table());
    REQUIRE(m);
    CHECK(m->function == f);
    CHECK(m->size == function_name(f).size());
    CHECK(m->first == schema(f).first);
    CHECK(m->last == schema(f).last);
  }
  // Names that share their first 11 characters.
  const std::string pages = "vmaFreeMemoryPages,1\n", memory = "vmaFreeMemory,1\n";
  CHECK(match_function(pages.data(), pages.data() + pages.size())->function == Function::FreeMemoryPages);
  CHECK(match_function(memory.data(), memory.data() + memory.size())->function == Function::FreeMemory);
}

TEST_CASE("vma_schema: columns per function") {
  const Schema& buffer = schema(Function::CreateBuffer);
  CHECK(buffer.cols.size() == 12);
  CHECK(buffer.numbers == 11);
  CHECK(buffer.lists == 0);
  CHECK(buffer.cols.back() == Col::text);
  CHECK(schema(Function::DefragmentationBegin).lists == 2);
  CHECK(schema(Function::DefragmentationBegin).numbers == 7);
  CHECK(schema(Function::CreateAllocator).cols.empty());
}
