#include "sim/trace_sink.hpp"

#include <algorithm>

#include "sim/error.hpp"

namespace dcsim::sim {

void check_row(const std::string& table_path, const std::vector<Column>& columns,
               const std::vector<Cell>& row) {
  if (row.size() != columns.size()) {
    throw InternalError("table '" + table_path + "': row has " + std::to_string(row.size()) +
                        " cells, expected " + std::to_string(columns.size()) + " (this is a bug)");
  }
  for (std::size_t i = 0; i < row.size(); ++i) {
    const auto want = static_cast<std::size_t>(columns[i].type);
    if (row[i].index() != want) {
      throw InternalError("table '" + table_path + "': column '" + columns[i].name +
                          "' got a cell of the wrong type (this is a bug)");
    }
  }
}

SeriesId MemoryTraceSink::declare_series(const std::string& path, const std::string& unit,
                                         const std::string& description) {
  for (const auto& s : series_) {
    if (s.path == path) throw InternalError("series '" + path + "' declared twice (this is a bug)");
  }
  series_.push_back(Series{path, unit, description, {}, {}});
  return static_cast<SeriesId>(series_.size() - 1);
}

void MemoryTraceSink::append(SeriesId series, Time t, double value) {
  auto& s = series_.at(series);
  if (!s.time_ns.empty() && t.ns() < s.time_ns.back()) {
    throw InternalError("series '" + s.path + "': time went backwards (this is a bug)");
  }
  s.time_ns.push_back(t.ns());
  s.value.push_back(value);
}

TableId MemoryTraceSink::declare_table(const std::string& path, std::vector<Column> columns) {
  for (const auto& t : tables_) {
    if (t.path == path) throw InternalError("table '" + path + "' declared twice (this is a bug)");
  }
  tables_.push_back(Table{path, std::move(columns), {}});
  return static_cast<TableId>(tables_.size() - 1);
}

void MemoryTraceSink::append_row(TableId table, std::vector<Cell> row) {
  auto& t = tables_.at(table);
  check_row(t.path, t.columns, row);
  t.rows.push_back(std::move(row));
}

void MemoryTraceSink::set_summary(const std::string& path, SummaryValue value) {
  summary_[path] = std::move(value);
}

const MemoryTraceSink::Series& MemoryTraceSink::series(const std::string& path) const {
  auto it = std::find_if(series_.begin(), series_.end(), [&](const Series& s) { return s.path == path; });
  if (it == series_.end()) throw InternalError("no series '" + path + "'");
  return *it;
}

const MemoryTraceSink::Table& MemoryTraceSink::table(const std::string& path) const {
  auto it = std::find_if(tables_.begin(), tables_.end(), [&](const Table& t) { return t.path == path; });
  if (it == tables_.end()) throw InternalError("no table '" + path + "'");
  return *it;
}

const SummaryValue& MemoryTraceSink::summary(const std::string& path) const {
  auto it = summary_.find(path);
  if (it == summary_.end()) throw InternalError("no summary value '" + path + "'");
  return it->second;
}

}  // namespace dcsim::sim
