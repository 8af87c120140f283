// The report's sections on runs of particular shapes: a serving run (its own section, replicas
// not counted as completed jobs), a three-year run (bands, not a wall of samples), flat series
// (a sentence, not a chart), faults (shaded windows on the time charts) and a fabric no flow
// crossed (a sentence, not an empty chart).

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <functional>
#include <regex>

#include "tests/tools/output/temp_dir.hpp"
#include "tools/output/hdf5_trace_writer.hpp"
#include "tools/report/fault_windows.hpp"
#include "tools/report/report_builder.hpp"

using dcsim::sim::Column;
using dcsim::sim::ColumnType;
using dcsim::sim::Time;
using dcsim::tools::output::Hdf5TraceWriter;
using dcsim::tools::output::RunMeta;
using dcsim::tools::output::test::TempDir;
namespace report = dcsim::tools::report;

namespace {

Time at_s(double s) { return Time::from_ns(static_cast<std::int64_t>(std::llround(s * 1e9))); }

// A run directory: `fill` writes the trace's series and tables; the resolved scenario and the
// summary as given.
void write_dir(const std::filesystem::path& dir, const std::function<void(Hdf5TraceWriter&)>& fill,
               nlohmann::json resolved, nlohmann::json summary) {
  std::filesystem::create_directories(dir);
  Hdf5TraceWriter w(dir / "trace.h5");
  fill(w);
  RunMeta meta;
  meta.scenario_name = "shape";
  resolved["name"] = "shape";
  meta.scenario_resolved = resolved.dump();
  meta.dcsim_version = "0.1.0";
  w.set_meta(meta);
  w.finish(0.1);
  summary["dcsim_version"] = "0.1.0";
  summary["scenario"] = "shape";
  std::ofstream(dir / "summary.json") << summary.dump(2);
}

// The <svg ...> opening tag of the chart titled `title`, "" when there is none.
std::string chart_tag(const std::string& html, const std::string& title) {
  const auto at = html.find("aria-label=\"" + title + "\"");
  if (at == std::string::npos) return "";
  const auto open = html.rfind("<svg", at);
  return html.substr(open, html.find("</svg>", at) - open);
}

std::size_t count_of(const std::string& html, const std::string& what) {
  std::size_t n = 0;
  for (auto at = html.find(what); at != std::string::npos; at = html.find(what, at + 1)) ++n;
  return n;
}

// One service "chat": an hour of replicas, queue and tokens/s each minute; a latency histogram
// (TTFT: 10,000 requests spread over 0.1-0.9 s and 5 at 50 s; TPOT: 100 over 20-40 ms); two
// replica rows in /events/jobs beside one batch job. SLA: TTFT 2 s, TPOT 31 ms.
void write_serving_run(const std::filesystem::path& dir) {
  write_dir(
      dir,
      [](Hdf5TraceWriter& w) {
        const auto replicas = w.declare_series("inference/chat/replicas", "", "");
        const auto queued = w.declare_series("inference/chat/queued", "", "");
        const auto running = w.declare_series("inference/chat/running", "", "");
        const auto tokens = w.declare_series("inference/chat/output_tokens_per_s", "1/s", "");
        for (int m = 0; m <= 60; ++m) {
          w.append(replicas, at_s(60.0 * m), m < 30 ? 1 : 2);
          w.append(queued, at_s(60.0 * m), m % 7);
          w.append(running, at_s(60.0 * m), 10 + m % 5);
          w.append(tokens, at_s(60.0 * m), 1000 + 10 * m);
        }
        const auto hist = w.declare_table("inference/chat/latency_histogram",
                                          {Column{"metric", ColumnType::kString, "", ""},
                                           Column{"lower_s", ColumnType::kFloat64, "s", ""},
                                           Column{"upper_s", ColumnType::kFloat64, "s", ""},
                                           Column{"count", ColumnType::kInt64, "", ""}});
        for (int b = 0; b < 10; ++b) {
          w.append_row(hist, {std::string("ttft"), 0.1 + 0.08 * b, 0.1 + 0.08 * (b + 1), std::int64_t{1000}});
        }
        w.append_row(hist, {std::string("ttft"), 50.0, 50.25, std::int64_t{5}});
        for (int b = 0; b < 4; ++b) {
          w.append_row(hist, {std::string("tpot"), 0.02 + 0.005 * b, 0.02 + 0.005 * (b + 1), std::int64_t{25}});
        }
        const auto jobs = w.declare_table("jobs", {Column{"name", ColumnType::kString, "", ""},
                                                   Column{"state", ColumnType::kString, "", ""},
                                                   Column{"arrival_s", ColumnType::kFloat64, "s", ""},
                                                   Column{"start_s", ColumnType::kFloat64, "s", ""},
                                                   Column{"finish_s", ColumnType::kFloat64, "s", ""}});
        w.append_row(jobs, {std::string("chat/replica-0"), std::string("done"), 0.0, 0.0, 3600.0});
        w.append_row(jobs, {std::string("chat/replica-1"), std::string("done"), 1800.0, 1800.0, 3000.0});
        w.append_row(jobs, {std::string("batch"), std::string("done"), 0.0, 0.0, 1200.0});
      },
      nlohmann::json::parse(R"({"cluster": {"nodes": 2}, "inference": {"services": [
        {"name": "chat", "sla": {"ttft": 2.0, "tpot": 0.031}}]}})"),
      nlohmann::json::parse(R"({"workload": {"jobs_total": 1, "jobs_completed": 1},
        "inference": {"chat": {"requests": 100, "rejected": 0, "unfinished": 3, "sla_attainment": 0.97,
          "ttft_p50_s": 0.55, "ttft_p90_s": 0.91, "ttft_p99_s": 0.99, "ttft_mean_s": 0.55,
          "tpot_p50_s": 0.03, "tpot_p99_s": 0.039, "replicas_min": 1, "replicas_mean": 1.5, "replicas_max": 2}}})"));
}

}  // namespace

TEST_CASE("a serving run's report has an inference section: figures, fleet, queue and latency CDFs",
          "[tools][report]") {
  TempDir dir;
  write_serving_run(dir / "run");
  const std::string html = report::build_report_html(dir / "run");
  REQUIRE_THAT(html, Catch::Contains("<section id=\"inference\""));
  CHECK_THAT(html, Catch::Contains("<h3>chat</h3>"));
  CHECK_THAT(html, Catch::Contains("100 answered, 0 rejected"));
  CHECK_THAT(html, Catch::Contains("97.0% of the requests judged"));
  CHECK_THAT(html, Catch::Contains("min 1, mean 1.50, max 2 serving"));
  CHECK_THAT(html, Catch::Contains("<td class=\"num\">990.000 ms</td>"));  // TTFT p99
  CHECK_THAT(html, Catch::Contains("SLA: TTFT &lt;= 2.000 s, TPOT &lt;= 31.000 ms."));
  CHECK_FALSE(chart_tag(html, "Replicas serving").empty());
  CHECK_FALSE(chart_tag(html, "Requests queued and running").empty());
  CHECK_FALSE(chart_tag(html, "Output tokens per second").empty());
  // The CDFs: a start at 0% and one point per bucket. The 5 requests at 50 s are beyond the 99.9th
  // percentile (the 9,995th of 10,005 is in the 0.9 s bucket) and 55 times further out: the
  // chart ends at 0.9 s and says so. The SLA's 2 s is off the chart; every request in the chart
  // met it, those at 50 s did not.
  const std::string ttft = chart_tag(html, "Time to first token, distribution (10005 requests)");
  CHECK_THAT(ttft, Catch::Contains("data-points=\"11\""));
  CHECK_THAT(ttft, Catch::Contains("time to first token (ms)"));
  CHECK_THAT(html, Catch::Contains("The slowest 5 requests (from the 99.9th percentile, 900.000 ms, up to 50.250 s) "
                                   "lie beyond the chart&#39;s right edge."));
  CHECK_THAT(html, Catch::Contains("99.95% of the requests within the SLA&#39;s bound (2.000 s)"));
  // TPOT: 4 buckets and the SLA bound at 31 ms as a vertical line (2 points); half the requests
  // (the buckets ending at 25 and 30 ms) within it.
  const std::string tpot = chart_tag(html, "Time per output token, distribution (100 requests)");
  CHECK_THAT(tpot, Catch::Contains("data-points=\"7\""));
  CHECK_THAT(tpot, Catch::Contains("<title>SLA bound</title>"));
  CHECK_THAT(html, Catch::Contains("50.00% of the requests within the SLA&#39;s bound (31.000 ms)"));
  // The replicas ended when the service scaled down or the run ended: one job completed, not three.
  const std::string completed = chart_tag(html, "Jobs completed (cumulative)");
  REQUIRE_FALSE(completed.empty());
  CHECK_THAT(completed, Catch::Contains("data-points=\"2\""));  // the start (0) and the batch job
}

TEST_CASE("a run without services says so instead of an inference section", "[tools][report]") {
  TempDir dir;
  write_dir(
      dir / "run", [](Hdf5TraceWriter& w) { w.append(w.declare_series("power/cluster_w", "W", ""), at_s(0), 1.0); },
      nlohmann::json::parse(R"({"cluster": {"nodes": 1}})"), nlohmann::json::object());
  const std::string html = report::build_report_html(dir / "run");
  CHECK_THAT(html, Catch::Contains("data-section=\"inference\" data-absent=\"true\""));
  CHECK_THAT(html, Catch::Contains("no inference services in this scenario"));
}

TEST_CASE("a three-year run draws weekly bands (min, mean, max), not its 6-hour samples", "[tools][report]") {
  // 3 x 365 days of 6-hourly PUE with a daily swing and a seasonal trend: 4,381 samples. Weekly
  // buckets (a day would make 1,095 of them, over the 200 a plot shows): 157 bands, each from the
  // week's lowest to its highest value, under the week's time-weighted mean.
  TempDir dir;
  const double days = 3 * 365;
  write_dir(
      dir / "run",
      [&](Hdf5TraceWriter& w) {
        const auto pue = w.declare_series("facility/pue", "", "");
        const auto total = w.declare_series("facility/total_w", "W", "");
        for (int k = 0; k <= days * 4; ++k) {
          const double day = k / 4.0;
          const double v = 1.1 + 0.05 * std::sin(2 * M_PI * day / 365) + 0.02 * std::sin(2 * M_PI * day);
          w.append(pue, at_s(day * 86400), v);
          w.append(total, at_s(day * 86400), 1e6 * v);
        }
      },
      nlohmann::json::parse(R"({"cluster": {"nodes": 1}, "facility": {}})"), nlohmann::json::object());
  const std::string html = report::build_report_html(dir / "run");
  const std::string pue = chart_tag(html, "PUE (facility power / IT power, per tick)");
  REQUIRE_FALSE(pue.empty());
  CHECK(count_of(pue, "class=\"band\"") == 1);
  CHECK_THAT(pue, Catch::Contains("data-points=\"157\""));  // one mean per week
  CHECK_THAT(html, Catch::Contains("the time-weighted mean per week, its band the lowest to the highest value in that week"));
  // A run of a day keeps its samples.
  CHECK(report::band_width_s(86400) == 3600);
  CHECK(report::band_width_s(54 * 86400.0) == 86400);
  CHECK(report::band_width_s(days * 86400) == 7 * 86400);
  CHECK(report::band_width_s(30 * 365 * 86400.0) == 30.4375 * 86400);
}

TEST_CASE("a flat series is one sentence, not a chart", "[tools][report]") {
  // Three years at a clock factor of 1 (no throttling) was a chart of one straight line.
  TempDir dir;
  write_dir(
      dir / "run",
      [](Hdf5TraceWriter& w) {
        const auto clock = w.declare_series("thermal/busy_clock_factor", "", "");
        const auto hottest = w.declare_series("thermal/max_gpu_c", "C", "");
        for (int h = 0; h <= 48; ++h) {
          w.append(clock, at_s(3600.0 * h), 1.0);
          w.append(hottest, at_s(3600.0 * h), 60.0 + h % 3);
        }
      },
      nlohmann::json::parse(R"({"cluster": {"nodes": 1}, "facility": {}})"), nlohmann::json::object());
  const std::string html = report::build_report_html(dir / "run");
  CHECK(chart_tag(html, "Clock factor of busy nodes (1: no throttling or capping)").empty());
  CHECK_THAT(html, Catch::Contains("Clock factor of busy nodes (1: no throttling or capping): busy nodes 1 "
                                   "throughout the run (a flat line, not plotted)."));
  CHECK_FALSE(chart_tag(html, "Temperatures").empty());  // a varying series keeps its chart
}

TEST_CASE("fault windows are shaded on the time charts", "[tools][report]") {
  // Two random faults (repaired after 600 s and after 0 s), a node down from 2 h to 3 h and a
  // CDU pump failure from 5 h that is never repaired (shaded to the end, 6 h).
  TempDir dir;
  write_dir(
      dir / "run",
      [](Hdf5TraceWriter& w) {
        const auto power = w.declare_series("power/cluster_w", "W", "");
        for (int m = 0; m <= 360; ++m) w.append(power, at_s(60.0 * m), 1000.0 + m);
        const auto faults = w.declare_table("faults", {Column{"time_s", ColumnType::kFloat64, "s", ""},
                                                       Column{"class", ColumnType::kString, "", ""},
                                                       Column{"repair_s", ColumnType::kFloat64, "s", ""}});
        w.append_row(faults, {3600.0, std::string("gpu_xid"), 600.0});
        w.append_row(faults, {14400.0, std::string("job_crash"), 0.0});
        const auto nodes = w.declare_table("node_faults", {Column{"time_s", ColumnType::kFloat64, "s", ""},
                                                           Column{"kind", ColumnType::kString, "", ""},
                                                           Column{"node", ColumnType::kInt64, "", ""}});
        w.append_row(nodes, {7200.0, std::string("node_down"), std::int64_t{3}});
        w.append_row(nodes, {10800.0, std::string("node_up"), std::int64_t{3}});
        const auto facility = w.declare_table("facility", {Column{"time_s", ColumnType::kFloat64, "s", ""},
                                                           Column{"kind", ColumnType::kString, "", ""},
                                                           Column{"zone", ColumnType::kInt64, "", ""},
                                                           Column{"detail", ColumnType::kString, "", ""}});
        w.append_row(facility, {18000.0, std::string("cdu_pump_failure"), std::int64_t{0},
                                std::string("plant fault begins (scripted)")});
        w.append_row(facility, {18100.0, std::string("thermal_slowdown"), std::int64_t{0}, std::string("hot")});
      },
      nlohmann::json::parse(R"({"cluster": {"nodes": 4}})"), nlohmann::json::object());
  const std::string html = report::build_report_html(dir / "run");
  const std::string power = chart_tag(html, "Cluster IT power");
  REQUIRE_FALSE(power.empty());
  CHECK(count_of(power, "<rect class=\"shade\"") == 4);
  CHECK_THAT(power, Catch::Contains("<title>fault: gpu_xid</title>"));
  CHECK_THAT(power, Catch::Contains("<title>fault: node_down</title>"));
  CHECK_THAT(power, Catch::Contains("<title>fault: cdu_pump_failure</title>"));
  CHECK_THAT(power, Catch::Contains("fault in progress"));  // the legend
  // Where each began: a narrow mark (the onsets are hours apart, far more than a pixel).
  CHECK(count_of(power, "<rect class=\"mark\"") == 4);
  CHECK_THAT(power, Catch::Contains("fault begins"));

  // The windows themselves, in seconds; merged when closer than the gap asked for.
  const dcsim::tools::output::TraceReader trace(dir / "run" / "trace.h5");
  const auto windows = report::read_fault_windows(trace, 21600.0);
  REQUIRE(windows.size() == 4);
  CHECK(windows[0].start_s == 3600.0);
  CHECK(windows[0].end_s == 4200.0);
  CHECK(windows[1].start_s == 7200.0);
  CHECK(windows[1].end_s == 10800.0);
  CHECK(windows[2].end_s == 14400.0);  // repaired at once: an instant
  CHECK(windows[3].start_s == 18000.0);
  CHECK(windows[3].end_s == 21600.0);  // never repaired: to the end
  const auto merged = report::merge_fault_windows(windows, 3600.0);
  REQUIRE(merged.size() == 1);
  CHECK(merged[0].what == "4 faults: gpu_xid, node_down, job_crash and 1 more");
}

TEST_CASE("a fabric no flow crossed gets a sentence, not charts of zeros", "[tools][report]") {
  TempDir dir;
  const auto summary = nlohmann::json::parse(R"({"network": {"flows_completed": 0, "flows_failed": 0,
    "link_utilisation_mean": 0.0, "link_utilisation_max": 0.0, "link_utilisation_tier0_mean": 0.0}})");
  write_dir(
      dir / "run", [](Hdf5TraceWriter& w) { w.append(w.declare_series("power/cluster_w", "W", ""), at_s(0), 1.0); },
      nlohmann::json::parse(R"({"cluster": {"nodes": 1}, "fabric": {}})"), summary);
  const std::string html = report::build_report_html(dir / "run");
  CHECK(chart_tag(html, "Fabric link utilisation over the makespan").empty());
  CHECK_THAT(html, Catch::Contains("no flow crossed the fabric in this run, and no uplink traffic"));
}
