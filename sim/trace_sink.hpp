#pragma once
// The trace-sink interface: what models emit into. Formats (HDF5, JSON, CSV) live in tools/ and
// implement this interface; models never see a file (SST's statistics/output split).
//
// Three kinds of record, addressed by slash-separated paths relative to their group:
//  - time series: (time, value) points of one named quantity, e.g. "power/cluster_w". A series
//    is a step function unless its description says otherwise: a value holds until the next point.
//  - tables: rows of typed columns, e.g. "jobs" (one row per finished job). Tables whose path
//    starts with "summary/" are headline tables (they land in summary.json as arrays of objects).
//  - summary scalars: headline metrics, e.g. "energy_kwh", "jobs/completed".
// Units are part of every declaration (written as HDF5 attributes / JSON fields).

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "sim/time.hpp"

namespace dcsim::sim {

using SeriesId = std::uint32_t;
using TableId = std::uint32_t;

enum class ColumnType { kInt64, kFloat64, kString };

struct Column {
  std::string name;
  ColumnType type;
  std::string unit;         // "" when dimensionless or not a quantity
  std::string description;  // one line
};

using Cell = std::variant<std::int64_t, double, std::string>;

struct SummaryValue {
  std::variant<double, std::int64_t, std::string> value;
  std::string unit;
  std::string description;
};

class TraceSink {
 public:
  virtual ~TraceSink() = default;

  // Declaring the same path twice is an InternalError (two models would silently interleave).
  virtual SeriesId declare_series(const std::string& path, const std::string& unit,
                                  const std::string& description) = 0;
  // Points of one series must come in non-decreasing time.
  virtual void append(SeriesId series, Time t, double value) = 0;

  virtual TableId declare_table(const std::string& path, std::vector<Column> columns) = 0;
  // The row must match the declared columns in count and type (else InternalError).
  virtual void append_row(TableId table, std::vector<Cell> row) = 0;

  virtual void set_summary(const std::string& path, SummaryValue value) = 0;
};

// Keeps everything in memory: for tests, and as the canonical reference of what a run emitted.
class MemoryTraceSink : public TraceSink {
 public:
  struct Series {
    std::string path, unit, description;
    std::vector<std::int64_t> time_ns;
    std::vector<double> value;
  };
  struct Table {
    std::string path;
    std::vector<Column> columns;
    std::vector<std::vector<Cell>> rows;
  };

  SeriesId declare_series(const std::string& path, const std::string& unit,
                          const std::string& description) override;
  void append(SeriesId series, Time t, double value) override;
  TableId declare_table(const std::string& path, std::vector<Column> columns) override;
  void append_row(TableId table, std::vector<Cell> row) override;
  void set_summary(const std::string& path, SummaryValue value) override;

  const std::vector<Series>& series() const { return series_; }
  const std::vector<Table>& tables() const { return tables_; }
  const std::map<std::string, SummaryValue>& summary() const { return summary_; }
  // Lookups by path; InternalError when absent.
  const Series& series(const std::string& path) const;
  const Table& table(const std::string& path) const;
  const SummaryValue& summary(const std::string& path) const;

 private:
  std::vector<Series> series_;
  std::vector<Table> tables_;
  std::map<std::string, SummaryValue> summary_;
};

// Checks a row against its columns; shared by every sink. Throws InternalError.
void check_row(const std::string& table_path, const std::vector<Column>& columns,
               const std::vector<Cell>& row);

}  // namespace dcsim::sim
