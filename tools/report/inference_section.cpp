// Inference: per service, what it answered and how fast (latency percentiles against its SLA),
// its fleet and queue over the run, and the distributions of TTFT and TPOT as CDFs from the
// latency histograms the service wrote (/events/inference/<service>/latency_histogram).

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tools/report/headline.hpp"
#include "tools/report/html_escape.hpp"
#include "tools/report/report_sections.hpp"

namespace dcsim::tools::report {

namespace {

// Services a page shows in full; the rest are named in a note (all are in trace.h5).
constexpr std::size_t kMaxServices = 8;
// Points of one CDF: the histogram has up to 5,540 buckets.
constexpr std::size_t kMaxCdfPoints = 1000;

double service_number(const nlohmann::json& svc, const char* key) {
  return svc.contains(key) && svc.at(key).is_number() ? svc.at(key).get<double>() : std::nan("");
}

std::string cell(double v, const char* format) {
  return std::isfinite(v) ? fmt::format(fmt::runtime(format), v) : std::string("-");
}

std::string seconds_cell(double v) { return std::isfinite(v) ? short_time_text(v) : std::string("-"); }

// Requests in buckets [0, k].
double seen_through(const std::vector<std::pair<double, double>>& buckets, std::size_t k) {
  double n = 0;
  for (std::size_t i = 0; i <= k; ++i) n += buckets[i].second;
  return n;
}

// A bound of the service's SLA in seconds (/inference/services/<i>/sla/<key>: seconds, or a
// duration string as given), NaN when it has none.
double sla_bound_s(const nlohmann::json& service, const char* key) {
  const nlohmann::json::json_pointer p(std::string("/sla/") + key);
  if (!service.contains(p)) return std::nan("");
  const auto& v = service.at(p);
  return v.is_number() && v.get<double>() > 0 ? v.get<double>() : std::nan("");
}

// The SLA as the scenario states it: "TTFT <= 2.000 s, TPOT <= 200.000 ms", "" without one.
std::string sla_text(const nlohmann::json& service) {
  if (!service.contains("sla") || !service.at("sla").is_object()) return "";
  std::string out;
  for (const auto& [key, label] : {std::pair{"ttft", "TTFT"}, std::pair{"tpot", "TPOT"}, std::pair{"e2e", "end-to-end"}}) {
    const auto& sla = service.at("sla");
    if (!sla.contains(key)) continue;
    const auto& v = sla.at(key);
    if (v.is_number() && v.get<double>() <= 0) continue;  // 0: no bound
    out += (out.empty() ? "" : ", ") + std::string(label) + " <= " +
           (v.is_number() ? short_time_text(v.get<double>()) : v.is_string() ? v.get<std::string>() : v.dump());
  }
  return out;
}

std::string figures_table(const nlohmann::json& svc) {
  std::string rows;
  const auto row = [&](const std::string& label, const std::string& text) {
    rows += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", html_escape(label), html_escape(text));
  };
  const auto n = [&](const char* key) { return service_number(svc, key); };
  row("requests", fmt::format("{} answered, {} rejected (could never fit a replica), {} still in the system at the end",
                              cell(n("requests"), "{:.0f}"), cell(n("rejected"), "{:.0f}"),
                              cell(n("unfinished"), "{:.0f}")));
  row("SLA attainment", fmt::format("{}% of the requests judged; goodput {} requests/s",
                                    cell(100 * n("sla_attainment"), "{:.1f}"), cell(n("goodput_rps"), "{:.2f}")));
  row("throughput", fmt::format("{} output tokens/s, {} prompt tokens/s", cell(n("output_tokens_per_s"), "{:.0f}"),
                                cell(n("input_tokens_per_s"), "{:.0f}")));
  row("replicas", fmt::format("min {}, mean {}, max {} serving; {} scale-ups, {} scale-downs; {} GPU-hours, {}% busy",
                              cell(n("replicas_min"), "{:.0f}"), cell(n("replicas_mean"), "{:.2f}"),
                              cell(n("replicas_max"), "{:.0f}"), cell(n("scale_ups"), "{:.0f}"),
                              cell(n("scale_downs"), "{:.0f}"), cell(n("gpu_hours"), "{:.1f}"),
                              cell(100 * n("gpu_busy_fraction"), "{:.1f}")));
  std::string latency = "<tr><th>latency</th><th>p50</th><th>p90</th><th>p99</th><th>mean</th></tr>\n";
  for (const auto& [key, label] : {std::pair{"ttft", "time to first token"}, std::pair{"tpot", "time per output token"},
                                   std::pair{"e2e", "end to end"}}) {
    const std::string k = key;
    latency += fmt::format("<tr><th>{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                           "<td class=\"num\">{}</td></tr>\n",
                           label, seconds_cell(n((k + "_p50_s").c_str())), seconds_cell(n((k + "_p90_s").c_str())),
                           seconds_cell(n((k + "_p99_s").c_str())), seconds_cell(n((k + "_mean_s").c_str())));
  }
  latency += fmt::format("<tr><th>queue at a replica</th><td></td><td></td><td class=\"num\">{}</td><td></td></tr>\n",
                         seconds_cell(n("queue_p99_s")));
  return "<table class=\"headline\">\n" + rows + "</table>\n<table class=\"latency\">\n" + latency + "</table>\n";
}

// The CDF of one latency from the histogram's rows of `metric`: the share of requests at or
// below each bucket's upper end, straight between buckets. A tail far beyond the 99.9th
// percentile would squeeze the rest against the axis: the chart then ends there and says how
// many requests lie beyond. The SLA bound (when the chart reaches it) is a vertical line.
std::string cdf_chart(const RunData& run, const std::string& table, const std::string& metric,
                      const std::string& title, const std::string& x_what, double sla_s) {
  const auto metrics = run.trace.read_string_column(table, "metric");
  const auto upper = run.trace.read_number_column(table, "upper_s");
  const auto lower = run.trace.read_number_column(table, "lower_s");
  const auto count = run.trace.read_number_column(table, "count");
  std::vector<std::pair<double, double>> buckets;  // (upper_s, count), in increasing order
  double total = 0, first_lower = 0;
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    if (metrics[i] != metric || !(count[i] > 0)) continue;
    if (buckets.empty()) first_lower = lower[i];
    buckets.emplace_back(upper[i], count[i]);
    total += count[i];
  }
  if (buckets.empty()) return note_html(title + ": no request got this far during the run.");
  // The bucket holding the 99.9th percentile, and where the chart ends.
  std::size_t q999 = 0;
  for (double seen = 0; q999 < buckets.size(); ++q999) {
    seen += buckets[q999].second;
    if (seen >= std::ceil(0.999 * total)) break;
  }
  q999 = std::min(q999, buckets.size() - 1);
  const bool clipped = buckets.back().first > 3 * buckets[q999].first;
  const double x_end_s = clipped ? buckets[q999].first : buckets.back().first;
  const TimeAxis unit = time_axis_for(x_end_s);
  LineChart chart{fmt::format("{} ({:.0f} requests)", title, total), x_what + " (" + unit.unit + ")",
                  "requests (%)", {}, std::nan(""), clipped ? x_end_s / unit.seconds_per_unit : std::nan(""), true,
                  {}, "", {}, ""};
  ChartLine line{"CDF", {}, false, std::nan(""), {}};
  line.points.push_back({first_lower / unit.seconds_per_unit, 0.0});
  const std::size_t last = clipped ? q999 : buckets.size() - 1;
  const std::size_t every = (last + kMaxCdfPoints) / kMaxCdfPoints;
  double seen = 0, within_sla = 0;
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    seen += buckets[i].second;
    if (buckets[i].first <= sla_s) within_sla = seen;
    if (i <= last && (i % every == 0 || i == last))
      line.points.push_back({buckets[i].first / unit.seconds_per_unit, 100.0 * seen / total});
  }
  chart.lines.push_back(std::move(line));
  if (std::isfinite(sla_s) && sla_s <= x_end_s) {
    const double x = sla_s / unit.seconds_per_unit;
    chart.lines.push_back({"SLA bound", {{x, 0.0}, {x, 100.0}}, false, std::nan(""), {}});
  }
  std::string out = svg_line_chart(chart);
  if (std::isfinite(sla_s)) {
    out += note_html(fmt::format("{:.2f}% of the requests within the SLA's bound ({}), to the histogram's 0.5%.",
                                 100.0 * within_sla / total, short_time_text(sla_s)));
  }
  if (clipped) {
    out += note_html(fmt::format("The slowest {:.0f} requests (from the 99.9th percentile, {}, up to {}) lie beyond "
                                 "the chart's right edge.",
                                 total - seen_through(buckets, q999), short_time_text(buckets[q999].first),
                                 short_time_text(buckets.back().first)));
  }
  return out;
}

std::string service_part(const RunData& run, const std::string& name, const nlohmann::json& scenario_service) {
  std::string out = "<h3>" + html_escape(name) + "</h3>\n";
  const nlohmann::json none = nlohmann::json::object();
  const nlohmann::json* svc = &none;
  if (run.summary.contains("inference") && run.summary.at("inference").contains(name))
    svc = &run.summary.at("inference").at(name);
  out += figures_table(*svc);
  if (const std::string sla = sla_text(scenario_service); !sla.empty()) out += note_html("SLA: " + sla + ".");
  const std::string p = "inference/" + name + "/";
  out += series_chart(run, "Replicas serving", "replicas", {{p + "replicas", "serving"}});
  out += series_chart(run, "Requests queued and running", "requests",
                      {{p + "queued", "queued (gateway and replicas)"}, {p + "running", "running (in a batch)"}});
  out += series_chart(run, "Output tokens per second", "output tokens/s", {{p + "output_tokens_per_s", "output tokens"}});
  const std::string table = "events/" + p + "latency_histogram";
  if (run.trace.has_table(table) && run.trace.table_rows(table) > 0) {
    out += cdf_chart(run, table, "ttft", "Time to first token, distribution", "time to first token",
                     sla_bound_s(scenario_service, "ttft"));
    out += cdf_chart(run, table, "tpot", "Time per output token, distribution", "time per output token",
                     sla_bound_s(scenario_service, "tpot"));
  } else if (!run.trace.has_table(table)) {
    out += note_html("This trace has no latency histogram (written by later dcsim versions): no distribution chart.");
  }
  return out;
}

}  // namespace

std::vector<std::string> service_names(const RunData& run) {
  std::vector<std::string> out;
  const nlohmann::json::json_pointer services("/inference/services");
  if (!run.resolved.contains(services) || !run.resolved.at(services).is_array()) return out;
  for (const auto& svc : run.resolved.at(services)) {
    if (svc.contains("name") && svc.at("name").is_string()) out.push_back(svc.at("name").get<std::string>());
  }
  return out;
}

ReportSection inference_section(const RunData& run) {
  ReportSection s{"inference", "Inference", "", ""};
  const auto names = service_names(run);
  if (names.empty()) {
    s.absent = "no inference services in this scenario";
    return s;
  }
  std::size_t shown = 0;
  for (const auto& svc : run.resolved.at(nlohmann::json::json_pointer("/inference/services"))) {
    if (!svc.contains("name") || !svc.at("name").is_string()) continue;
    if (shown++ == kMaxServices) break;
    s.html += service_part(run, svc.at("name").get<std::string>(), svc);
  }
  if (names.size() > kMaxServices) {
    s.html += note_html(fmt::format("{} more services are not shown here (summary.json /inference and trace.h5).",
                                    names.size() - kMaxServices));
  }
  return s;
}

}  // namespace dcsim::tools::report
