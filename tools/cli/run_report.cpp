#include "tools/cli/run_report.hpp"

#include <fmt/format.h>

#include "tools/report/headline.hpp"

namespace dcsim::tools::cli {

std::string headline_report(const scenario::Scenario& scenario, const run::RunOutputs& outputs) {
  report::HeadlineFacts facts;
  facts.name = scenario.name;
  facts.seed = scenario.seed;
  facts.has_cluster = scenario.has_cluster;
  facts.has_facility = scenario.facility.has_value();
  facts.has_fabric = scenario.fabric.has_value();
  if (scenario.has_cluster) facts.cluster_nodes = scenario.cluster.nodes;
  facts.has_frontend = scenario.frontend.has_value();
  facts.has_reliability = scenario.reliability.has_value();
  facts.has_storage = scenario.storage.has_value();
  facts.has_nvmeof = scenario.nvmeof.has_value();
  facts.uplink_carries_traffic =
      scenario.uplink && (!scenario.uplink->streams.empty() || scenario.uplink->checkpoint_copies);
  facts.has_economics = scenario.economics.has_value();
  if (scenario.economics) {
    for (const auto& c : scenario.economics->ledger.cloud)
      facts.cloud_options.push_back(c.offer.name);
  }
  for (const auto& t : scenario.traces) facts.trace_notes.push_back(t.name + ": " + t.summary);
  for (const auto& service : scenario.inference) facts.services.push_back(service.name);

  std::string out = fmt::format("{} (seed {})\n", scenario.name, scenario.seed);
  // Writing the outputs is part of what the user waited for (25,000 rack series took 46 s).
  const auto& stats = outputs.stats;
  out += fmt::format(
      "  simulated   {} in {:.3f} s of wall time ({} events), outputs written in {:.3f} s\n",
      stats.simulated_s >= 60 ? report::hours_text(stats.simulated_s)
                              : report::short_time_text(stats.simulated_s),
      stats.wall_s, stats.events, stats.write_s);
  for (const auto& line : report::headline_lines(facts, outputs.summary))
    out += report::headline_text_line(line);
  out += fmt::format("  outputs     {}, {}\n", outputs.trace_file.string(),
                     outputs.summary_file.string());
  return out;
}

}  // namespace dcsim::tools::cli
