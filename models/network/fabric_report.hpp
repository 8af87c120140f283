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
// Percentiles are nearest-rank over completed flows, exact up to `exact_fct_flows` completed
// flows; past it they come from a log histogram (sim/log_histogram.hpp, buckets 0.5% wide) and
// are within 0.25% + 0.5 ns of the exact ones. flows_completed and fct_max stay exact.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/network/fabric.hpp"
#include "sim/log_histogram.hpp"
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
  // Completion times kept exactly: 2^20 flows, 8 MB, covers every shipped scenario but the site
  // years (a 131k-GPU site year finishes ~90 M flows: 0.7 GB kept exactly).
  static constexpr std::size_t kExactFctFlows = std::size_t{1} << 20;

  // sink may be null (statistics only).
  FabricReport(sim::TraceSink* sink, std::string prefix = "network", bool emit_flow_table = true,
               std::size_t exact_fct_flows = kExactFctFlows);
  void record(const FinishedFlow& flow);
  // Computes the summary (and emits it when there is a sink).
  FabricSummary finish(const Fabric& fabric);
  // What the completion times hold: at most 8 B x exact_fct_flows, then the histogram's 70 KB.
  std::size_t fct_bytes() const;

 private:
  sim::TraceSink* sink_;
  std::string prefix_;
  bool table_;
  sim::TableId table_id_ = 0;
  std::size_t exact_limit_;
  std::vector<std::int64_t> fct_ns_;             // until exact_limit_ flows completed
  std::unique_ptr<sim::LogHistogram> fct_hist_;  // past it (in ns), and fct_ns_ released
  std::int64_t completed_ = 0;
  std::int64_t fct_max_ns_ = 0;
  std::int64_t makespan_ns_ = 0;
  std::int64_t failed_ = 0;
};

}  // namespace dcsim::models::network
