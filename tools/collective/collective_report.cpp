#include "tools/collective/collective_report.hpp"

#include <fmt/format.h>

namespace dcsim::tools::collective {

namespace mc = models::collective;

namespace {

// nccl-tests' redop and root columns: reductions print "sum", rooted ops print root 0.
const char* redop(mc::CollectiveOp op) {
  return op == mc::CollectiveOp::kAllReduce || op == mc::CollectiveOp::kReduceScatter ? "sum"
                                                                                       : "none";
}

int root(mc::CollectiveOp op) { return op == mc::CollectiveOp::kBroadcast ? 0 : -1; }

}  // namespace

std::string format_collective_table(const mc::CollectiveSweep& sweep,
                                    const ReportContext& context) {
  std::string out;
  out += fmt::format("# dcsim collective: {} ({}), {}\n", mc::op_name(sweep.op), context.title,
                     context.model);
  out += fmt::format("# ranks {} = {} node(s) x {} GPUs, algorithm {}\n", sweep.ranks,
                     context.nodes, context.gpus_per_node, context.algorithm);
  out += "#\n";
  out += fmt::format("# {:>10} {:>12} {:>8} {:>6} {:>6} {:>12} {:>6} {:>9} {:>8} {:>8}\n", "size",
                     "count", "type", "redop", "root", "algo", "proto", "time", "algbw", "busbw");
  out += fmt::format("# {:>10} {:>12} {:>8} {:>6} {:>6} {:>12} {:>6} {:>9} {:>8} {:>8}\n", "(B)",
                     "(elements)", "", "", "", "", "", "(us)", "(GB/s)", "(GB/s)");
  double busbw_sum = 0.0;
  for (const auto& row : sweep.rows) {
    out += fmt::format("  {:>10.0f} {:>12.0f} {:>8} {:>6} {:>6} {:>12} {:>6} {:>9.2f} {:>8.2f} {:>8.2f}\n",
                       row.bytes, row.bytes / 4.0, "float", redop(sweep.op), root(sweep.op),
                       row.algorithm, mc::protocol_name(row.protocol), row.time_s * 1e6,
                       row.algbw_GBps, row.busbw_GBps);
    busbw_sum += row.busbw_GBps;
  }
  const double avg = sweep.rows.empty() ? 0.0 : busbw_sum / static_cast<double>(sweep.rows.size());
  out += fmt::format("# Avg bus bandwidth    : {:.3f}\n", avg);
  return out;
}

nlohmann::json collective_rows_json(const mc::CollectiveSweep& sweep) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : sweep.rows) {
    rows.push_back({{"bytes", row.bytes},
                    {"time_s", row.time_s},
                    {"algbw_GBps", row.algbw_GBps},
                    {"busbw_GBps", row.busbw_GBps},
                    {"algorithm", row.algorithm},
                    {"protocol", std::string(mc::protocol_name(row.protocol))}});
  }
  return rows;
}

}  // namespace dcsim::tools::collective
