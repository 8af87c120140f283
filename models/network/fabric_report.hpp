#pragma once
// FabricReport: what a fabric run emits through sim::TraceSink.
//  - table "<prefix>/flows": one row per finished or failed flow: flow, src, dst, bytes,
//    start_ns, finish_ns, fct_ns, status ("ok" or "failed: <reason>"), route (link ids).
//    Optional (emit_flow_table): a 2-million-flow benchmark does not want it.
//  - summary "<prefix>/...": makespan_s, fct_p50_s, fct_p99_s, fct_max_s, flows_completed,
//    flows_failed, bytes_sent, bytes_delivered, link_utilisation_mean / _max, and
//    link_utilisation_tier<N>_mean per link tier. Utilisation = payload bits carried /
//    (capacity x makespan), over every directed link.
//  - table "<prefix>/link_utilisation" (only when FabricOptions::link_series_interval_ns > 0):
//    link, tier, start_ns, end_ns, bytes, utilisation per busy (link, interval).
// Percentiles are nearest-rank over completed flows.

#include <cstdint>
#include <string>
#include <vector>

#include "models/network/fabric.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::network {

struct FabricSummary {
  sim::Time makespan;
  sim::Time fct_p50, fct_p99, fct_max;
  std::int64_t flows_completed = 0;
  std::int64_t flows_failed = 0;
  double bytes_sent = 0.0;
  double bytes_delivered = 0.0;
  double link_utilisation_mean = 0.0;
  double link_utilisation_max = 0.0;
  std::vector<double> link_utilisation_tier_mean;  // index: link tier
};

class FabricReport {
 public:
  // sink may be null (statistics only).
  FabricReport(sim::TraceSink* sink, std::string prefix = "network", bool emit_flow_table = true);
  void record(const FinishedFlow& flow);
  // Computes the summary (and emits it when there is a sink).
  FabricSummary finish(const Fabric& fabric);

 private:
  sim::TraceSink* sink_;
  std::string prefix_;
  bool table_;
  sim::TableId table_id_ = 0;
  std::vector<std::int64_t> fct_ns_;
  std::int64_t makespan_ns_ = 0;
  std::int64_t failed_ = 0;
};

}  // namespace dcsim::models::network
