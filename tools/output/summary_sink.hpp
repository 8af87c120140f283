#pragma once
// A trace sink that keeps only what summary.json is made of (scalars and "summary/" tables):
// for runs whose series nobody reads (`dcsim check`'s planned summary, `dcsim design`'s
// candidates). Its cost per series point is nothing.

#include <cstddef>
#include <string>
#include <vector>

#include "sim/trace_sink.hpp"
#include "tools/output/summary.hpp"

namespace dcsim::tools::output {

class SummarySink final : public sim::TraceSink {
 public:
  sim::SeriesId declare_series(const std::string&, const std::string&, const std::string&) override {
    return next_series_++;
  }
  void append(sim::SeriesId, sim::Time, double) override {}
  sim::TableId declare_table(const std::string& path, std::vector<sim::Column> columns) override {
    const std::string prefix = "summary/";
    tables_.push_back(path.rfind(prefix, 0) == 0 ? summary_.add_table(path.substr(prefix.size()), std::move(columns))
                                                 : kNotSummary);
    return static_cast<sim::TableId>(tables_.size() - 1);
  }
  void append_row(sim::TableId table, std::vector<sim::Cell> row) override {
    if (tables_.at(table) != kNotSummary) summary_.append_row(tables_[table], std::move(row));
  }
  void set_summary(const std::string& path, sim::SummaryValue value) override {
    summary_.set_scalar(path, std::move(value));
  }
  SummaryRecorder& summary() { return summary_; }

 private:
  static constexpr std::size_t kNotSummary = static_cast<std::size_t>(-1);
  SummaryRecorder summary_;
  std::vector<std::size_t> tables_;  // per TableId: the recorder's table, or kNotSummary
  sim::SeriesId next_series_ = 0;
};

}  // namespace dcsim::tools::output
