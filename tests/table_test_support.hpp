#pragma once
// Reading what a model wrote into a MemoryTraceSink table: the cell of the row whose first column
// (a job's name) is `name`. Shared by the model and the scenario tests.

#include <catch2/catch.hpp>

#include <string>
#include <variant>

#include "sim/trace_sink.hpp"

namespace dcsim::tests {

inline sim::Cell row_cell(const sim::MemoryTraceSink& sink, const std::string& table, const std::string& name,
                          const std::string& column) {
  const auto& t = sink.table(table);
  std::size_t col = 0;
  while (col < t.columns.size() && t.columns[col].name != column) ++col;
  REQUIRE(col < t.columns.size());
  for (const auto& row : t.rows) {
    if (std::get<std::string>(row[0]) == name) return row[col];
  }
  FAIL("no row " << name << " in " << table);
  return {};
}

}  // namespace dcsim::tests
