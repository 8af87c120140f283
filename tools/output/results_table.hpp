#pragma once
// results.h5 of `dcsim sweep`: one table, one row per variant, written a block of rows at a time
// so a 10,000-variant sweep never holds its table in memory (LAYOUT.md, "Sweep results"):
//   /                  attribute format_version = "dcsim-sweep-results 1"
//   /results           attribute columns (their order, as in results.csv)
//   /results/<column>  one 1-D dataset per column (int64, uint64, float64 or UTF-8 string),
//                      attributes unit and description; a summary path "a/b" nests as groups
// Missing cells (a failed variant has no summary values) are NaN in float64 columns and "" in
// string columns; int64 and uint64 columns must have every cell.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace dcsim::tools::output {

inline constexpr const char* kResultsFormatVersion = "dcsim-sweep-results 1";

struct ResultsColumn {
  enum class Type { kInt64, kUInt64, kFloat64, kString };
  std::string name;
  Type type = Type::kFloat64;
  std::string unit;
  std::string description;
};

using ResultsCell = std::variant<std::monostate, std::int64_t, std::uint64_t, double, std::string>;

class ResultsTableWriter {
 public:
  // Creates (truncates) `file`. Throws sim::InputError when it cannot.
  ResultsTableWriter(const std::filesystem::path& file, std::vector<ResultsColumn> columns,
                     std::size_t block_rows = 1024);
  // Closes the file (unfinished) when finish() was not reached; never throws.
  ~ResultsTableWriter();
  ResultsTableWriter(const ResultsTableWriter&) = delete;
  ResultsTableWriter& operator=(const ResultsTableWriter&) = delete;

  // One cell per column; a number converts to the column's numeric type. InternalError for a
  // missing int cell or a cell of the wrong kind.
  void append(std::vector<ResultsCell> row);
  // Writes what is buffered and closes the file.
  void finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dcsim::tools::output
