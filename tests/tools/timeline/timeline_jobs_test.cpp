// Timeline JSON: it parses, every event has the fields of its phase type, and each job's phases
// (waiting + running + interrupted) add up to its completion minus its arrival -- by hand in a
// small FIFO case, and for every job of a run with random faults.

#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>

#include "timeline_test_support.hpp"

using namespace dcsim::timeline_testing;

namespace {

double cell_number(const dcsim::sim::MemoryTraceSink::Table& t, std::size_t row, const std::string& column) {
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].name == column) return std::get<double>(t.rows[row][i]);
  }
  FAIL("no column " << column);
  return 0.0;
}

std::string cell_text(const dcsim::sim::MemoryTraceSink::Table& t, std::size_t row, const std::string& column) {
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].name == column) return std::get<std::string>(t.rows[row][i]);
  }
  FAIL("no column " << column);
  return {};
}

// Two nodes under FIFO: "a" holds both from 0 to 1 h; "b" (1 node, arriving at 10 min) waits
// until then and runs 30 min.
nlohmann::json two_job_fifo() {
  return nlohmann::json::parse(R"({
    "name": "two jobs, one queue", "seed": 1,
    "cluster": { "node": { "preset": "hgx-h100" }, "nodes": 2, "nodes_per_rack": 2 },
    "workload": { "jobs": [
      { "name": "a", "arrival": "0 s", "nodes": 2, "work": "1 h", "gpu_utilization": 1.0 },
      { "name": "b", "arrival": "10 min", "nodes": 1, "work": "30 min", "gpu_utilization": 1.0 } ] },
    "policies": { "scheduler": "fifo" }
  })");
}

}  // namespace

TEST_CASE("timeline: a queued job waits until the one ahead finishes, then runs; its phases add up to its completion time",
          "[timeline]") {
  const auto run = run_json(two_job_fifo());
  check_structure(run->doc);
  const int a = job_tid(run->doc, "a"), b = job_tid(run->doc, "b");
  // a: no wait, runs 0 -> 3600 s (3.6e9 us).
  const auto pa = phases(run->doc, a);
  REQUIRE(pa.size() == 1);
  CHECK(pa[0].at("name") == "running");
  CHECK(pa[0].at("ts").get<double>() == 0.0);
  CHECK(pa[0].at("dur").get<double>() == 3.6e9);
  // b: waits 600 -> 3600 s (3000 s), runs 3600 -> 5400 s (1800 s): completion 4800 s.
  const auto pb = phases(run->doc, b);
  REQUIRE(pb.size() == 2);
  CHECK(pb[0].at("cat") == "waiting");
  CHECK(pb[0].at("ts").get<double>() == 6e8);
  CHECK(pb[0].at("dur").get<double>() == 3e9);
  CHECK(pb[1].at("cat") == "running");
  CHECK(pb[1].at("ts").get<double>() == 3.6e9);
  CHECK(pb[1].at("dur").get<double>() == 1.8e9);
  const auto sums = phase_sums(run->doc, b);
  CHECK(sums.at("waiting") + sums.at("running") == 4.8e9);
  const auto& jobs = run->sink.table("jobs");
  for (std::size_t r = 0; r < jobs.rows.size(); ++r) {
    if (cell_text(jobs, r, "name") == "b") CHECK(cell_number(jobs, r, "completion_s") * 1e6 == 4.8e9);
  }
  // Threads are named with the node count; the otherData names the run.
  CHECK(job_threads(run->doc).at(b) == "b (1 node)");
  CHECK(run->doc.at("otherData").at("scenario") == "two jobs, one queue");
  CHECK(run->doc.at("otherData").at("seed") == 1);
}

TEST_CASE("timeline: with random faults every job's waiting + running + interrupted add up to its completion time",
          "[timeline]") {
  // Quickstart's 8 nodes for 2 days at the Llama 3 rates x 10,000: a few hundred faults that
  // interrupt named and generated jobs (the generated ones' restarts are logged once a fault
  // touched them).
  const auto run = run_file("scenarios/quickstart.json",
                            {"duration=2 d", "reliability.faults=llama3_405b", "reliability.scale=10000"});
  check_structure(run->doc);
  const auto& jobs = run->sink.table("jobs");
  REQUIRE(jobs.rows.size() > 10);
  std::set<std::string> categories;
  int interrupted_jobs = 0;
  for (std::size_t r = 0; r < jobs.rows.size(); ++r) {
    const std::string name = cell_text(jobs, r, "name");
    INFO(name);
    const int tid = job_tid(run->doc, name);
    const auto ph = phases(run->doc, tid);
    REQUIRE(!ph.empty());
    double total = 0.0;
    for (const auto& e : ph) {
      categories.insert(e.at("cat").get<std::string>());
      total += e.at("dur").get<double>();
    }
    // Contiguous from the arrival.
    CHECK(ph.front().at("ts").get<double>() == Approx(cell_number(jobs, r, "arrival_s") * 1e6).margin(1e-3));
    for (std::size_t i = 1; i < ph.size(); ++i) {
      CHECK(ph[i].at("ts").get<double>() ==
            Approx(ph[i - 1].at("ts").get<double>() + ph[i - 1].at("dur").get<double>()).margin(1e-3));
    }
    const double completion_s = cell_number(jobs, r, "completion_s");
    const double expected_us = std::isfinite(completion_s)
                                   ? completion_s * 1e6
                                   : static_cast<double>(run->end_ns) / 1e3 - cell_number(jobs, r, "arrival_s") * 1e6;
    CHECK(total == Approx(expected_us).margin(1e-3 * static_cast<double>(ph.size())));
    const auto sums = phase_sums(run->doc, tid);
    if (sums.count("interrupted") > 0) ++interrupted_jobs;
  }
  CHECK(categories == std::set<std::string>{"waiting", "running", "interrupted"});
  CHECK(interrupted_jobs > 0);
  // Faults are instants on the faults track.
  int faults = 0;
  for (const auto& e : run->doc.at("traceEvents")) faults += e.at("ph") == "i" && e.at("cat") == "faults";
  CHECK(faults > 0);
}

TEST_CASE("timeline: the same scenario and seed give byte-identical files", "[timeline]") {
  const std::vector<std::string> sets = {"duration=1 d", "reliability.faults=llama3_405b", "reliability.scale=10000"};
  const auto first = run_file("scenarios/quickstart.json", sets);
  const auto second = run_file("scenarios/quickstart.json", sets);
  CHECK(first->text == second->text);
  CHECK(first->text.size() > 1000);
}

TEST_CASE("timeline: jobs beyond --timeline-max-jobs are left out and counted; named jobs always stay", "[timeline]") {
  TimelineOptions options;
  options.records.max_jobs = 5;
  const auto run = run_file("scenarios/quickstart.json", {}, options);
  check_structure(run->doc);
  const auto threads = job_threads(run->doc);
  // The two named jobs plus at most 5 rows of the jobs table (which may repeat a named one).
  CHECK(threads.size() <= 7);
  CHECK(job_tid(run->doc, "finetune-llama3-8b") > 0);
  CHECK(job_tid(run->doc, "eval-sweep") > 0);
  const auto omitted = run->doc.at("otherData").at("sampling").at("jobs_omitted").get<int>();
  CHECK(omitted == static_cast<int>(run->sink.table("jobs").rows.size()) - 5);
}
