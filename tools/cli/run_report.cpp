#include "tools/cli/run_report.hpp"

#include <fmt/format.h>

namespace dcsim::tools::cli {

namespace {

double number_at(const nlohmann::json& j, const char* pointer) {
  const nlohmann::json::json_pointer p(pointer);
  return j.contains(p) && j.at(p).is_number() ? j.at(p).get<double>() : 0.0;
}

std::string hours(double seconds) {
  return seconds >= 3600 ? fmt::format("{:.2f} h", seconds / 3600) : fmt::format("{:.1f} min", seconds / 60);
}

}  // namespace

std::string headline_report(const scenario::Scenario& scenario, const run::RunOutputs& outputs) {
  const auto& s = outputs.summary;
  std::string out = fmt::format("{} (seed {})\n", scenario.name, scenario.seed);
  out += fmt::format("  simulated   {} in {:.3f} s of wall time ({} events)\n",
                     hours(outputs.stats.simulated_s), outputs.stats.wall_s, outputs.stats.events);
  out += fmt::format("  IT energy   {:.1f} kWh\n", number_at(s, "/energy/it_kwh"));
  out += fmt::format("  IT power    mean {:.1f} kW, peak {:.1f} kW, peak rack {:.1f} kW\n",
                     number_at(s, "/power/mean_w") / 1e3, number_at(s, "/power/peak_w") / 1e3,
                     number_at(s, "/power/peak_rack_w") / 1e3);
  out += fmt::format("  jobs        {:.0f} of {:.0f} completed; mean wait {}; mean completion {}\n",
                     number_at(s, "/workload/jobs_completed"), number_at(s, "/workload/jobs_total"),
                     hours(number_at(s, "/workload/mean_wait_s")),
                     hours(number_at(s, "/workload/mean_completion_s")));
  out += fmt::format("  nodes busy  {:.1f}% of node-time; makespan {}\n",
                     100 * number_at(s, "/utilization/node_busy_fraction"), hours(number_at(s, "/makespan_s")));
  out += fmt::format("  outputs     {}, {}\n", outputs.trace_file.string(), outputs.summary_file.string());
  return out;
}

}  // namespace dcsim::tools::cli
