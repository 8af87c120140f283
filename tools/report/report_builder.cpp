#include "tools/report/report_builder.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "sim/error.hpp"
#include "tools/output/output_directory.hpp"
#include "tools/output/trace_reader.hpp"
#include "tools/report/fault_windows.hpp"
#include "tools/report/report_sections.hpp"

namespace dcsim::tools::report {

namespace {

nlohmann::json read_summary(const std::filesystem::path& run_dir) {
  const auto path = run_dir / "summary.json";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw sim::InputError("'" + run_dir.string() +
                          "' is not a dcsim run directory: no readable summary.json "
                          "(dcsim run -o DIR writes trace.h5 and summary.json)");
  }
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json summary = nlohmann::json::parse(text.str(), nullptr, false);
  if (summary.is_discarded() || !summary.is_object() || !summary.contains("dcsim_version")) {
    throw sim::InputError(
        "'" + path.string() +
        "' is not a dcsim summary (JSON with dcsim_version, as dcsim run writes)");
  }
  return summary;
}

// The end of the run: the last point of the series every run with a cluster or facility samples to
// its end, the fabric's makespan, or the last job event.
double run_end_s(const output::TraceReader& trace, const nlohmann::json& summary) {
  double end_ns = 0;
  for (const char* path : {"power/cluster_w", "jobs/running", "nodes/busy", "facility/total_w",
                           "thermal/max_gpu_c", "uplink/out_bps"}) {
    if (!trace.has_series(path)) continue;
    if (const auto last = trace.series_last_time_ns(path))
      end_ns = std::max(end_ns, static_cast<double>(*last));
  }
  double end_s = end_ns * 1e-9;
  const nlohmann::json::json_pointer makespan("/network/makespan_s");
  if (summary.contains(makespan) && summary.at(makespan).is_number()) {
    end_s = std::max(end_s, summary.at(makespan).get<double>());
  }
  if (trace.has_table("events/jobs") && trace.table_rows("events/jobs") > 0) {
    for (const char* column : {"arrival_s", "start_s", "finish_s"}) {
      for (const double v : trace.read_number_column("events/jobs", column)) {
        if (std::isfinite(v)) end_s = std::max(end_s, v);
      }
    }
  }
  return end_s > 0 ? end_s : 1.0;  // an empty run still gets an axis
}

}  // namespace

std::string build_report_html(const std::filesystem::path& run_dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(run_dir, ec)) {
    throw sim::InputError("run directory '" + run_dir.string() +
                          "' does not exist or is not a directory");
  }
  const nlohmann::json summary = read_summary(run_dir);
  const auto trace_path = run_dir / "trace.h5";
  if (!std::filesystem::exists(trace_path, ec)) {
    throw sim::InputError("'" + run_dir.string() +
                          "' has summary.json but no trace.h5: the report needs both");
  }
  const output::TraceReader trace(trace_path);
  const std::string resolved_text = trace.meta_string("scenario_resolved");
  nlohmann::json resolved = nlohmann::json::parse(resolved_text, nullptr, false);
  if (resolved.is_discarded() || !resolved.is_object()) resolved = nlohmann::json::object();

  RunData run{trace, summary, resolved, 0.0, {}, {}, {}};
  run.end_s = run_end_s(trace, summary);
  run.time = time_axis_for(run.end_s);
  // Faults closer than a pixel of a chart's 784 px plot are one shaded window, their onsets
  // within a pixel one mark.
  auto windows = read_fault_windows(trace, run.end_s);
  for (const auto& w : windows) run.fault_onsets.push_back({w.start_s, w.start_s, w.what});
  run.fault_onsets = merge_fault_windows(std::move(run.fault_onsets), run.end_s / 784);
  run.faults = merge_fault_windows(std::move(windows), run.end_s / 784);

  ReportPage page;
  page.title = trace.meta_string("scenario_name");
  if (page.title.empty()) page.title = summary.value("scenario", "dcsim run");
  page.subtitle = "dcsim report of " + run_dir.string();
  page.sections = {headline_section(run),     power_section(run),      temperature_section(run),
                   job_timeline_section(run), throughput_section(run), inference_section(run),
                   link_section(run),         cost_section(run)};
  return html_page(page);
}

std::filesystem::path write_report(const std::filesystem::path& run_dir,
                                   const std::filesystem::path& output) {
  const std::filesystem::path target = output.empty() ? run_dir / "report.html" : output;
  std::error_code ec;
  // Checked before the (slow) build, so bad arguments fail at once; nothing is created for them.
  const std::filesystem::path parent = target.parent_path().empty() ? "." : target.parent_path();
  if (!output.empty() && !std::filesystem::is_directory(parent, ec)) {
    throw sim::InputError("cannot write '" + target.string() + "': directory '" + parent.string() +
                          "' does not exist");
  }
  if (std::filesystem::is_directory(target, ec)) {
    throw sim::InputError("cannot write '" + target.string() +
                          "': it is a directory (give a file name, e.g. " +
                          (target / "report.html").string() + ")");
  }
  const std::string html = build_report_html(run_dir);
  output::OutputDirectory dir(parent);
  const auto temp = dir.stage(target.filename().string());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << html;
    out.close();
    if (!out) throw sim::InputError("cannot write '" + temp.string() + "'");
  }
  dir.commit();
  return dir.final_path(target.filename().string());
}

}  // namespace dcsim::tools::report
