// The cluster's reports, alone: what they emit from counts given by hand (the mechanisms that
// add to the counts are tested through the cluster in silent_corruption_test.cpp and
// job_lifecycle_test.cpp).

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "models/cluster/goodput_report.hpp"
#include "models/cluster/integrity_report.hpp"
#include "models/cluster/job_report.hpp"
#include "models/cluster/workload_report.hpp"
#include "sim/trace_sink.hpp"

using dcsim::models::cluster::emit_goodput_summary;
using dcsim::models::cluster::GoodputCounts;
using dcsim::models::cluster::IntegrityReport;
using dcsim::models::cluster::JobReport;
using dcsim::models::cluster::TrainingTimeKept;
using dcsim::sim::MemoryTraceSink;

namespace {

double number(const MemoryTraceSink& sink, const std::string& path) {
  return std::get<double>(sink.summary(path).value);
}
std::int64_t count(const MemoryTraceSink& sink, const std::string& path) {
  return std::get<std::int64_t>(sink.summary(path).value);
}

}  // namespace

TEST_CASE("goodput is the allocated GPU time less what was lost, restarting, moving data or stalled",
          "[models][cluster][report]") {
  GoodputCounts c;
  c.held_gpu_s = 7200.0;     // 2 GPU-h allocated
  c.lost_gpu_s = 1800.0;     // 0.5 GPU-h of progress lost since checkpoints
  c.restart_gpu_s = 900.0;   // 0.25 GPU-h relaunching and reloading
  c.transfer_gpu_s = 180.0;  // 0.05 GPU-h waiting for a cloud job's dataset
  c.stalled_gpu_s = 360.0;   // 0.1 GPU-h stalled at held checkpoints
  c.interruptions = 3;
  c.by_cause["gpu"] = {2, 1200.0};
  c.by_cause["nic"] = {1, 600.0};
  MemoryTraceSink sink;
  emit_goodput_summary(c, TrainingTimeKept{3000.0, 4000.0}, sink);
  // (7200 - 1800 - 900 - 180 - 360) / 7200 = 3960 / 7200
  CHECK(number(sink, "goodput/fraction") == Approx(0.55));
  CHECK(number(sink, "goodput/allocated_gpu_h") == Approx(2.0));
  CHECK(number(sink, "goodput/lost_gpu_h") == Approx(0.5));
  CHECK(number(sink, "goodput/lost_gpu_h_by_cause/gpu") == Approx(1200.0 / 3600.0));
  CHECK(count(sink, "reliability/interruptions/nic") == 1);
  CHECK(count(sink, "reliability/interruptions_total") == 3);
  CHECK(number(sink, "goodput/effective_training_fraction") == Approx(0.75));  // 3000 s kept of 4000 s
}

TEST_CASE("with nothing allocated the goodput fraction is 1 and no training fraction is reported",
          "[models][cluster][report]") {
  MemoryTraceSink sink;
  emit_goodput_summary(GoodputCounts{}, TrainingTimeKept{}, sink);
  CHECK(number(sink, "goodput/fraction") == 1.0);
  CHECK(sink.summary().count("goodput/effective_training_fraction") == 0);
}

TEST_CASE("the integrity report writes rows and a summary only once declared", "[models][cluster][report]") {
  MemoryTraceSink sink;
  IntegrityReport report(sink);
  report.log(dcsim::sim::Time::from_seconds(1.0), "a", 3, "corrupted", 10);
  report.emit(0);
  CHECK(sink.tables().empty());
  CHECK(sink.summary().count("integrity/caught") == 0);

  report.declare();
  report.counts.faults = 2;
  report.counts.caught = 1;
  report.counts.corrupted_gpu_s = 7200.0;
  report.log(dcsim::sim::Time::from_seconds(1.5), "a", 3, "caught", 8);
  report.emit(1);
  REQUIRE(sink.tables().size() == 1);
  CHECK(sink.tables()[0].path == "integrity_events");
  REQUIRE(sink.tables()[0].rows.size() == 1);
  CHECK(std::get<std::string>(sink.tables()[0].rows[0][3]) == "caught");
  CHECK(count(sink, "integrity/sdc_faults") == 2);
  CHECK(count(sink, "integrity/caught") == 1);
  CHECK(count(sink, "integrity/corrupted_at_end") == 1);
  CHECK(number(sink, "integrity/corrupted_gpu_h") == Approx(2.0));
}

TEST_CASE("a job's row: times from its arrival, NaN for what has not happened, placement only in jobs",
          "[models][cluster][report]") {
  using dcsim::sim::Time;
  MemoryTraceSink sink;
  JobReport report(sink);
  report.declare();
  REQUIRE(sink.tables().size() == 3);
  CHECK(sink.tables()[0].path == "jobs");
  CHECK(sink.tables()[1].path == "job_states");
  CHECK(sink.tables()[2].path == "summary/jobs");
  const std::string done_name = "a", waiting_name = "gen-1";
  const std::vector<int> nodes = {3, 7};
  // Done: arrived 10 s, started 40 s, finished 100 s, 7.2 MJ over its runs.
  report.row({done_name, 2, nodes, 8, 1, "done", true, Time::from_seconds(10), Time::from_seconds(40),
              Time::from_seconds(100), 7.2e6, 1, 1800.0, nullptr, nullptr, 0.0, true});
  // Generated, never started: no start, wait or finish; not in summary/jobs.
  report.row({waiting_name,
              4,
              {},
              8,
              0,
              "waiting",
              false,
              Time::from_seconds(5),
              Time::max(),
              Time::max(),
              0.0,
              0,
              0.0,
              nullptr,
              nullptr,
              0.0,
              false});
  const auto& jobs = sink.table("jobs");
  REQUIRE(jobs.rows.size() == 2);
  const auto cell = [&](std::size_t row, const std::string& column) {
    for (std::size_t c = 0; c < jobs.columns.size(); ++c) {
      if (jobs.columns[c].name == column) return jobs.rows[row][c];
    }
    FAIL("no column " << column);
    return jobs.rows[row][0];
  };
  CHECK(std::get<std::string>(cell(0, "node_list")) == "3 7");
  CHECK(std::get<double>(cell(0, "wait_s")) == 30.0);        // 40 - 10
  CHECK(std::get<double>(cell(0, "completion_s")) == 90.0);  // 100 - 10
  CHECK(std::get<double>(cell(0, "energy_kwh")) == 2.0);     // 7.2e6 J / 3.6e6 J per kWh
  CHECK(std::get<double>(cell(0, "lost_gpu_h")) == 0.5);     // 1,800 GPU-s
  CHECK(std::isnan(std::get<double>(cell(1, "start_s"))));
  CHECK(std::isnan(std::get<double>(cell(1, "wait_s"))));
  CHECK(std::isnan(std::get<double>(cell(1, "completion_s"))));
  const auto& summary = sink.table("summary/jobs");
  REQUIRE(summary.rows.size() == 1);                         // the named job only
  CHECK(summary.columns.size() + 3 == jobs.columns.size());  // no node_list, gpus_per_node, fabric_groups
  CHECK(std::get<std::string>(summary.rows[0][0]) == "a");

  report.state_change(Time::from_seconds(40), done_name, "waiting", "running", "", nodes);
  const auto& states = sink.table("job_states");
  REQUIRE(states.rows.size() == 1);
  CHECK(std::get<std::string>(states.rows[0][3]) == "running");
  CHECK(std::get<std::string>(states.rows[0][5]) == "3 7");
}

TEST_CASE("the workload summary: counts by outcome, nearest-rank wait percentiles, bounded slowdown",
          "[models][cluster][report]") {
  using Outcome = dcsim::models::cluster::WorkloadTally::Outcome;
  dcsim::models::cluster::WorkloadTally t;
  t.add(Outcome::kCompleted);
  t.add(Outcome::kCompleted);
  t.add(Outcome::kFailed);
  t.add(Outcome::kNotArrived);
  t.replicas = 2;  // not workload jobs
  for (double w : {40.0, 10.0, 30.0, 20.0}) t.add_wait(w);
  t.add_completion(100.0, 50.0);  // slowdown 100 / 50 = 2
  t.add_completion(4.0, 2.0);     // work under 10 s counts as 10 s: max(1, 4 / 10) = 1
  MemoryTraceSink sink;
  emit_workload_summary(t, sink);
  CHECK(count(sink, "workload/jobs_total") == 4);
  CHECK(count(sink, "workload/jobs_unfinished") == 0);
  CHECK(count(sink, "workload/service_replica_jobs") == 2);
  CHECK(number(sink, "workload/mean_wait_s") == 25.0);
  CHECK(number(sink, "workload/wait_p50_s") == 20.0);  // rank ceil(0.5 x 4) = 2 of 10, 20, 30, 40
  CHECK(number(sink, "workload/wait_p99_s") == 40.0);  // rank ceil(0.99 x 4) = 4
  CHECK(number(sink, "workload/mean_completion_s") == 52.0);
  CHECK(number(sink, "workload/mean_bounded_slowdown") == 1.5);
}
