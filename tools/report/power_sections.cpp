// Power and PUE, and temperatures: the facility's and the cluster's series over the run.

#include <fmt/format.h>

#include <cmath>

#include "tools/report/html_escape.hpp"
#include "tools/report/report_sections.hpp"

namespace dcsim::tools::report {

namespace {

// Per-rack lines are readable up to the palette's size; bigger clusters show the total only.
std::string rack_chart(const RunData& run) {
  const auto racks = series_matching(run, "power/rack/", "_w");
  if (racks.empty()) {
    // Large clusters write groups of consecutive racks (/outputs/rack_power auto), or nothing.
    const auto groups = series_matching(run, "power/rack_group/", "_w");
    if (groups.empty()) return "";
    return note_html(fmt::format(
        "{} groups of consecutive racks: their power is not plotted here (series power/rack_group/<g>_w in "
        "trace.h5; /outputs/rack_power racks writes one per rack).",
        groups.size()));
  }
  if (racks.size() > kMaxLinesPerPlot) {
    return note_html(fmt::format(
        "{} racks: per-rack power is not plotted here (series power/rack/<n>_w in trace.h5).",
        racks.size()));
  }
  std::vector<SeriesPick> picks;
  for (const auto& r : racks) picks.push_back({r, "rack " + r.substr(11, r.size() - 13)});
  return series_chart(run, "Power per rack", "power", picks);
}

}  // namespace

ReportSection power_section(const RunData& run) {
  ReportSection s{"power", "Power and PUE", "", ""};
  const bool facility = run.trace.has_series("facility/total_w");
  if (!facility && !run.trace.has_series("power/cluster_w")) {
    s.absent = "no cluster or facility in this scenario, so no power series";
    return s;
  }
  if (facility) {
    s.html += series_chart(run, "Facility power", "power",
                           {{"facility/total_w", "facility total"},
                            {"facility/it_w", "IT (nodes + network)"},
                            {"facility/cooling_w", "cooling"},
                            {"facility/chiller_w", "chiller"}});
    s.html += series_chart(run, "PUE (facility power / IT power, per tick)", "PUE",
                           {{"facility/pue", "PUE"}}, false);
    const double pue = summary_number(run, "/facility/pue");
    if (std::isfinite(pue))
      s.html += note_html(fmt::format("Energy-weighted PUE over the run: {:.3f}.", pue));
  } else {
    s.html += note_html(
        "No facility section in this scenario: power is the cluster's IT power only, and there is "
        "no PUE.");
  }
  s.html += series_chart(run, "Cluster IT power", "power", {{"power/cluster_w", "cluster"}});
  s.html += rack_chart(run);
  return s;
}

ReportSection temperature_section(const RunData& run) {
  ReportSection s{"temperatures", "Temperatures", "", ""};
  if (!run.trace.has_series("thermal/max_gpu_c")) {
    s.absent = "no facility in this scenario (temperatures come from its cooling model)";
    return s;
  }
  std::vector<SeriesPick> picks = {{"thermal/max_gpu_c", "hottest GPU die"}};
  for (const auto& z : series_matching(run, "thermal/zone/", "/coolant_c")) {
    picks.push_back({z, "coolant, zone " + z.substr(13, z.size() - 13 - 10)});
  }
  picks.push_back({"facility/water_supply_c", "facility water supply"});
  picks.push_back({"facility/outdoor_c", "outdoor"});
  s.html += series_chart(run, "Temperatures", "temperature", picks, false);
  s.html += series_chart(run, "Clock factor of busy nodes (1: no throttling or capping)",
                         "clock factor", {{"thermal/busy_clock_factor", "busy nodes"}}, false);
  const double hottest = summary_number(run, "/thermal/max_gpu_c");
  const double throttled = summary_number(run, "/thermal/throttled_gpu_s");
  if (std::isfinite(hottest)) {
    s.html +=
        note_html(fmt::format("Hottest GPU over the run {:.1f} C; {:.0f} GPU-seconds throttled.",
                              hottest, std::isfinite(throttled) ? throttled : 0.0));
  }
  return s;
}

}  // namespace dcsim::tools::report
