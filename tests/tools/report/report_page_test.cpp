// The report page from a run directory: sections present or left out with a note, scenario text
// escaped, nothing fetched from outside, every plot with data and within the point budget; bad
// run directories and targets are InputError and write nothing.

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <regex>

#include "sim/error.hpp"
#include "tests/tools/output/temp_dir.hpp"
#include "tools/output/hdf5_trace_writer.hpp"
#include "tools/report/html_escape.hpp"
#include "tools/report/report_builder.hpp"
#include "tools/report/svg_gantt_chart.hpp"

using dcsim::sim::Column;
using dcsim::sim::ColumnType;
using dcsim::sim::Time;
using dcsim::tools::output::Hdf5TraceWriter;
using dcsim::tools::output::RunMeta;
using dcsim::tools::output::test::read_file;
using dcsim::tools::output::test::TempDir;
namespace report = dcsim::tools::report;

namespace {

constexpr const char* kEvilName = "rack <1> & \"hot\"";
constexpr const char* kEvilJob = "<script>alert(1)</script>";

// A run directory as dcsim run leaves it, small: a day of cluster power sampled every second
// (86,401 points, far over a plot's budget), a facility, three jobs; no fabric, no economics.
void write_run(const std::filesystem::path& dir, int jobs = 3) {
  std::filesystem::create_directories(dir);
  Hdf5TraceWriter w(dir / "trace.h5");
  const auto power = w.declare_series("power/cluster_w", "W", "");
  const auto total = w.declare_series("facility/total_w", "W", "");
  const auto it = w.declare_series("facility/it_w", "W", "");
  const auto pue = w.declare_series("facility/pue", "", "");
  const auto gpu = w.declare_series("thermal/max_gpu_c", "C", "");
  for (int s = 0; s <= 86400; ++s) {
    const double watts = 40e3 + 20e3 * std::sin(s / 3600.0);
    w.append(power, Time::from_ns(std::int64_t{s} * 1'000'000'000), watts);
    if (s % 60 == 0) {
      w.append(total, Time::from_ns(std::int64_t{s} * 1'000'000'000), watts * 1.2);
      w.append(it, Time::from_ns(std::int64_t{s} * 1'000'000'000), watts);
      w.append(pue, Time::from_ns(std::int64_t{s} * 1'000'000'000), 1.2);
      w.append(gpu, Time::from_ns(std::int64_t{s} * 1'000'000'000), 60 + 10 * std::sin(s / 7200.0));
    }
  }
  const auto table = w.declare_table("jobs", {Column{"name", ColumnType::kString, "", ""},
                                              Column{"state", ColumnType::kString, "", ""},
                                              Column{"arrival_s", ColumnType::kFloat64, "s", ""},
                                              Column{"start_s", ColumnType::kFloat64, "s", ""},
                                              Column{"finish_s", ColumnType::kFloat64, "s", ""}});
  for (int j = 0; j < jobs; ++j) {
    const double arrival = 10.0 * j;
    w.append_row(table, {std::string(j == 0 ? kEvilJob : "job-" + std::to_string(j)),
                         std::string("done"), arrival, arrival + 100, arrival + 3600});
  }
  RunMeta meta;
  meta.scenario_name = kEvilName;
  meta.scenario_resolved = nlohmann::json{{"name", kEvilName},
                                          {"description", "a & b"},
                                          {"cluster", {{"nodes", 4}}},
                                          {"facility", nlohmann::json::object()}}
                               .dump();
  meta.dcsim_version = "0.1.0";
  meta.seed = 42;
  meta.source = "scenarios/x.json";
  w.set_meta(meta);
  w.finish(0.5);
  std::ofstream(dir / "summary.json") << nlohmann::json{
      {"dcsim_version", "0.1.0"},
      {"scenario", kEvilName},
      {"seed", 42},
      {"energy", {{"it_kwh", 960.0}}},
      {"facility", {{"pue", 1.2}}}}.dump(2);
}

std::vector<long> data_points(const std::string& html) {
  std::vector<long> out;
  const std::regex svg(R"re(<svg [^>]*data-points="(\d+)")re");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), svg); it != std::sregex_iterator();
       ++it) {
    out.push_back(std::stol((*it)[1]));
  }
  return out;
}

}  // namespace

TEST_CASE("a run's report has its sections, and notes for those without data", "[tools][report]") {
  TempDir dir;
  write_run(dir / "run");
  const std::string html = report::build_report_html(dir / "run");
  for (const char* id : {"headline", "power", "temperatures", "jobs", "throughput"}) {
    CHECK_THAT(html, Catch::Contains(std::string("<section id=\"") + id + "\""));
  }
  // No fabric, no economics: left out, each with a one-line reason.
  CHECK_THAT(html, Catch::Contains("data-section=\"links\" data-absent=\"true\""));
  CHECK_THAT(html, Catch::Contains("no fabric and no uplink traffic in this scenario"));
  CHECK_THAT(html, Catch::Contains("data-section=\"costs\" data-absent=\"true\""));
  CHECK_THAT(html, Catch::Contains("no economics section in this scenario"));
  // The headline lines dcsim run prints.
  CHECK_THAT(html, Catch::Contains("960.0 kWh"));
  CHECK_THAT(html, Catch::Contains("PUE 1.200 (energy-weighted)"));
}

TEST_CASE("every plot of the report has data and at most 2000 points", "[tools][report]") {
  TempDir dir;
  write_run(dir / "run");
  const auto points = data_points(report::build_report_html(dir / "run"));
  // Facility power, cluster power, temperatures, Gantt, jobs completed: the 86,401-point cluster
  // power series is one of them. (PUE, 1.2 throughout, is a sentence.)
  REQUIRE(points.size() >= 5);
  for (const long n : points) {
    CHECK(n > 0);
    CHECK(n <= 2000);
  }
}

TEST_CASE("scenario text on the page is escaped", "[tools][report]") {
  TempDir dir;
  write_run(dir / "run");
  const std::string html = report::build_report_html(dir / "run");
  CHECK_THAT(html, !Catch::Contains(kEvilJob));
  CHECK_THAT(html, Catch::Contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
  CHECK_THAT(html, !Catch::Contains(kEvilName));
  CHECK_THAT(html, Catch::Contains("rack &lt;1&gt; &amp; &quot;hot&quot;"));
  // The one script is the page's own.
  CHECK(std::count(html.begin(), html.end(), '<') > 0);
  std::size_t scripts = 0;
  for (std::size_t at = html.find("<script"); at != std::string::npos;
       at = html.find("<script", at + 1))
    ++scripts;
  CHECK(scripts == 1);
  CHECK(report::html_escape("a<b & \"c\" 'd'") == "a&lt;b &amp; &quot;c&quot; &#39;d&#39;");
}

TEST_CASE("the report fetches nothing: no external URL in src, href or @import",
          "[tools][report]") {
  TempDir dir;
  write_run(dir / "run");
  const std::string html = report::build_report_html(dir / "run");
  const std::regex external(R"re((src|href)\s*=\s*["']?\s*(https?:|//|ftp:)|@import|url\()re",
                            std::regex::icase);
  CHECK_FALSE(std::regex_search(html, external));
  // Every link is to an anchor on the page.
  const std::regex href(R"re(href="([^"]*)")re");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator();
       ++it) {
    CHECK((*it)[1].str().rfind('#', 0) == 0);
  }
}

TEST_CASE("thousands of jobs: the Gantt chart shows every k-th and says so", "[tools][report]") {
  // 1,000 jobs over a 200-row cap: every ceil(1000 / 200) = 5th job, 200 rows, each a waiting
  // and a running bar (started 100 s after arrival): 400 bars.
  TempDir dir;
  write_run(dir / "run", 1000);
  const std::string html = report::build_report_html(dir / "run");
  CHECK_THAT(html, Catch::Contains("(200 of 1000 jobs, every 5th by arrival)"));
  CHECK_THAT(html, Catch::Contains("data-kind=\"gantt\" data-points=\"400\""));
  CHECK_THAT(html, Catch::Contains("1000 jobs are too many for a row each"));
}

TEST_CASE("a job that waited and ran has two bars; one never started, one", "[tools][report]") {
  report::GanttChart chart;
  chart.x_end = 100;
  chart.rows = {{"a", 0, 10, 50, "done"},
                {"b", 5, std::nan(""), std::nan(""), "waiting"},
                {"c", 20, 20, std::nan(""), "running"}};
  // a: waited 0-10, ran 10-50; b: waited 5-100; c: no wait, ran 20-100.
  CHECK(report::gantt_bars(chart) == 4);
}

TEST_CASE("a report is written complete, by default into the run directory", "[tools][report]") {
  TempDir dir;
  write_run(dir / "run");
  const auto written = report::write_report(dir / "run", {});
  CHECK(written == dir / "run" / "report.html");
  const std::string html = read_file(written);
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.size() > 1000);
  CHECK(html.substr(html.size() - 8) == "</html>\n");
  // No temporary left beside it.
  for (const auto& e : std::filesystem::directory_iterator(dir / "run")) {
    CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
  }
  const auto elsewhere = report::write_report(dir / "run", dir / "r.html");
  CHECK(read_file(elsewhere) == html);
}

TEST_CASE("bad run directories and targets are bad input and write nothing", "[tools][report]") {
  TempDir dir;
  CHECK_THROWS_WITH(report::write_report(dir / "missing", {}), Catch::Contains("does not exist"));
  std::filesystem::create_directories(dir / "empty");
  CHECK_THROWS_WITH(report::write_report(dir / "empty", {}),
                    Catch::Contains("not a dcsim run directory"));
  CHECK_FALSE(std::filesystem::exists(dir / "empty" / "report.html"));
  // summary.json of someone else's tool.
  std::filesystem::create_directories(dir / "other");
  std::ofstream(dir / "other" / "summary.json") << "{\"accuracy\": 0.9}";
  CHECK_THROWS_WITH(report::write_report(dir / "other", {}),
                    Catch::Contains("is not a dcsim summary"));
  // A dcsim summary beside a trace.h5 that is not HDF5.
  std::filesystem::create_directories(dir / "broken");
  std::ofstream(dir / "broken" / "summary.json") << "{\"dcsim_version\": \"0.1.0\"}";
  std::ofstream(dir / "broken" / "trace.h5") << "not hdf5";
  CHECK_THROWS_AS(report::write_report(dir / "broken", {}), dcsim::sim::InputError);
  CHECK_FALSE(std::filesystem::exists(dir / "broken" / "report.html"));
  // -o into a directory that does not exist, or onto a directory.
  write_run(dir / "run");
  CHECK_THROWS_WITH(report::write_report(dir / "run", dir / "nowhere" / "r.html"),
                    Catch::Contains("does not exist"));
  CHECK_FALSE(std::filesystem::exists(dir / "nowhere"));
  CHECK_THROWS_WITH(report::write_report(dir / "run", dir / "run"),
                    Catch::Contains("is a directory"));
  CHECK_FALSE(std::filesystem::exists(dir / "run" / "report.html"));
}
