#pragma once
// A trace sink that keeps nothing: for building models without a run's outputs (`dcsim validate`)
// and for benchmarks that time the models, not the writers.

#include <string>
#include <vector>

#include "sim/trace_sink.hpp"

namespace dcsim::sim {

class DiscardTraceSink final : public TraceSink {
 public:
  SeriesId declare_series(const std::string&, const std::string&, const std::string&) override {
    return next_series_++;
  }
  void append(SeriesId, Time, double) override {}
  TableId declare_table(const std::string&, std::vector<Column>) override { return next_table_++; }
  void append_row(TableId, std::vector<Cell>) override {}
  void set_summary(const std::string&, SummaryValue) override {}

 private:
  SeriesId next_series_ = 0;
  TableId next_table_ = 0;
};

}  // namespace dcsim::sim
