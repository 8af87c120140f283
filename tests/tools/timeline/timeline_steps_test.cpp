// Timeline JSON of training jobs and the facility: each step's compute + communication + bubble
// add up to it, steps are grouped beyond the limit with nothing lost, counters carry power and
// PUE and are averaged (keeping the energy) beyond their limit; the file is written complete or
// not at all.

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "sim/error.hpp"
#include "tools/output/timeline_file.hpp"
#include "timeline_test_support.hpp"

using namespace dcsim::timeline_testing;
namespace fs = std::filesystem;

namespace {

struct StepSlice {
  nlohmann::json slice;
  double parts_us = 0.0;
  std::map<std::string, double> by_part;
};

// The step slices of the first training process (pid 10) with their children summed.
std::vector<StepSlice> step_slices(const nlohmann::json& doc, int pid = 10) {
  std::vector<StepSlice> out;
  for (const auto& e : doc.at("traceEvents")) {
    if (e.at("ph") != "X" || e.at("pid") != pid) continue;
    const std::string cat = e.at("cat");
    if (cat == "step") {
      out.push_back({e, 0.0, {}});
    } else if (cat != "checkpoint") {
      REQUIRE(!out.empty());
      const double ts = e.at("ts"), parent_ts = out.back().slice.at("ts");
      CHECK(ts >= parent_ts - 1e-3);  // inside its step
      out.back().parts_us += e.at("dur").get<double>();
      out.back().by_part[cat] += e.at("dur").get<double>();
    }
  }
  return out;
}

double job_cell(const dcsim::sim::MemoryTraceSink& sink, const std::string& column) {
  const auto& t = sink.table("jobs");
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].name == column) return std::get<double>(t.rows.at(0)[i]);
  }
  FAIL("no column " << column);
  return 0.0;
}

}  // namespace

TEST_CASE("timeline: every training step is a slice whose compute, communication and bubble add up to the step time",
          "[timeline]") {
  // Llama 3 70B on 256 GPUs, analytic, no throttling: 200 steps of the jobs table's step time,
  // with 3 checkpoint writes between them.
  const auto run = run_file("scenarios/llama3-70b-256-gpus.json");
  check_structure(run->doc);
  const auto steps = step_slices(run->doc);
  const double step_us = job_cell(run->sink, "step_time_s") * 1e6;
  CHECK(static_cast<double>(steps.size()) == job_cell(run->sink, "steps_done"));
  for (const auto& s : steps) {
    INFO(s.slice.dump());
    CHECK(s.slice.at("dur").get<double>() == Approx(step_us).margin(2e-3));
    CHECK(s.parts_us == Approx(s.slice.at("dur").get<double>()).margin(3e-3));
    // The split is the step model's: compute and communication as in the jobs table.
    CHECK(s.by_part.at("compute") == Approx(job_cell(run->sink, "compute_s") * 1e6).margin(2e-3));
    CHECK(s.by_part.at("communication") == Approx(job_cell(run->sink, "exposed_comm_s") * 1e6).margin(2e-3));
  }
  CHECK(steps.front().slice.at("name") == "step 1");
  int checkpoints = 0;
  for (const auto& e : run->doc.at("traceEvents")) checkpoints += e.at("ph") == "X" && e.at("cat") == "checkpoint";
  CHECK(checkpoints == static_cast<int>(job_cell(run->sink, "checkpoints")));
}

TEST_CASE("timeline: flow-mode steps (measured on the fabric) also add up", "[timeline]") {
  const auto run = run_file("scenarios/two-jobs-shared-fabric.json");
  check_structure(run->doc);
  for (int pid : {10, 11}) {
    const auto steps = step_slices(run->doc, pid);
    REQUIRE(!steps.empty());
    for (const auto& s : steps) CHECK(s.parts_us == Approx(s.slice.at("dur").get<double>()).margin(3e-3));
  }
}

TEST_CASE("timeline: flow-mode collectives are instant events on their job's process, each inside its step",
          "[timeline]") {
  // Three BERT-Large jobs of 200 steps, each step's gradients in 6 reduce chunks on the fabric.
  const auto run = run_file("scenarios/two-jobs-shared-fabric.json");
  check_structure(run->doc);
  const auto& rows = run->sink.table("training_collectives").rows;
  REQUIRE(rows.size() == 3 * 200 * 6);
  std::map<int, std::vector<nlohmann::json>> by_pid;
  for (const auto& e : run->doc.at("traceEvents")) {
    if (e.at("ph") == "i" && e.at("cat") == "training_collectives") by_pid[e.at("pid").get<int>()].push_back(e);
  }
  std::size_t drawn = 0;
  for (int pid : {10, 11, 12}) {
    const auto steps = step_slices(run->doc, pid);
    const auto& events = by_pid[pid];
    REQUIRE(events.size() == 200 * 6);
    drawn += events.size();
    for (const auto& e : events) {
      CHECK(e.at("tid") == 2);
      CHECK(e.at("name") == "dp_grad");
      // Inside the step it belongs to (1-based step n is the n-th slice).
      const auto& step = steps.at(e.at("args").at("step").get<std::size_t>() - 1).slice;
      const double ts = e.at("ts");
      CHECK(ts >= step.at("ts").get<double>() - 1e-3);
      CHECK(ts <= step.at("ts").get<double>() + step.at("dur").get<double>() + 1e-3);
    }
  }
  CHECK(drawn == rows.size());
  // Past their own budget they are counted, not drawn, and faults keep theirs.
  TimelineOptions options;
  options.records.max_collectives = 100;
  const auto capped = run_file("scenarios/two-jobs-shared-fabric.json", {}, options);
  CHECK(capped->doc.at("otherData").at("sampling").at("collectives_omitted") == rows.size() - 100);
}

TEST_CASE("timeline: beyond --timeline-max-steps slices group k steps and their checkpoints, nothing lost",
          "[timeline]") {
  TimelineOptions options;
  options.max_step_slices = 16;  // one training job, 200 steps -> k = 13
  const auto run = run_file("scenarios/llama3-70b-256-gpus.json", {}, options);
  check_structure(run->doc);
  const auto steps = step_slices(run->doc);
  double counted = 0.0, total_us = 0.0;
  for (const auto& s : steps) {
    counted += s.slice.at("args").at("steps").get<double>();
    total_us += s.slice.at("dur").get<double>();
    CHECK(s.parts_us == Approx(s.slice.at("dur").get<double>()).margin(5e-3));
  }
  CHECK(counted == 200.0);
  CHECK(steps.size() <= 16 + 3);  // a group may end early at a checkpoint it cannot join
  // Grouped, the checkpoint writes are parts of the slices: steps + checkpoints cover the run.
  CHECK(total_us == Approx(job_cell(run->sink, "finish_s") * 1e6 - job_cell(run->sink, "start_s") * 1e6).epsilon(1e-9));
  CHECK(run->doc.at("otherData").at("sampling").at("steps_per_slice").at("llama3-70b") == 13);
}

TEST_CASE("timeline: a facility run has power and PUE counter tracks; a run without one has cluster power only",
          "[timeline]") {
  const auto facility = run_file("scenarios/cooling-failure.json");
  check_structure(facility->doc);
  std::map<std::string, int> counters;
  for (const auto& e : facility->doc.at("traceEvents")) {
    if (e.at("ph") == "C") counters[e.at("name").get<std::string>()] += 1;
  }
  for (const char* name : {"facility/total_w", "facility/it_w", "facility/pue", "power/cluster_w"}) {
    INFO(name);
    CHECK(counters[name] > 0);
  }
  const auto plain = run_file("scenarios/quickstart.json");
  counters.clear();
  for (const auto& e : plain->doc.at("traceEvents")) {
    if (e.at("ph") == "C") counters[e.at("name").get<std::string>()] += 1;
  }
  CHECK(counters.count("facility/pue") == 0);
  CHECK(counters["power/cluster_w"] > 0);
}

TEST_CASE("timeline: a counter beyond --timeline-max-points becomes time-weighted bucket means that keep its energy",
          "[timeline]") {
  // 1,000 s alternating 0 W and 100 W each second: 11 points allowed -> 10 buckets of 100 s, each
  // a mean of 50 W exactly, then the last point as recorded.
  dcsim::tools::output::TimelineRecorder recorder(nullptr);
  const auto id = recorder.declare_series("power/cluster_w", "W", "test");
  for (int s = 0; s <= 1000; ++s) recorder.append(id, dcsim::sim::Time::from_seconds(s), s % 2 == 0 ? 0.0 : 100.0);
  TimelineOptions options;
  options.max_counter_points = 11;
  std::ostringstream out;
  dcsim::tools::output::write_timeline_json(out, recorder.records(), {"t", 1, "test", {}, 1000'000'000'000}, options);
  const auto doc = nlohmann::json::parse(out.str());
  check_structure(doc);
  std::vector<std::pair<double, double>> points;
  for (const auto& e : doc.at("traceEvents")) {
    if (e.at("ph") == "C") points.emplace_back(e.at("ts").get<double>(), e.at("args").at("W").get<double>());
  }
  REQUIRE(points.size() == 11);
  for (std::size_t i = 0; i < 10; ++i) {
    CHECK(points[i].first == static_cast<double>(i) * 1e8);
    CHECK(points[i].second == 50.0);
  }
  CHECK(points[10] == std::pair<double, double>{1e9, 0.0});
}

TEST_CASE("timeline file: a directory, a missing folder or an empty path is refused before anything is written",
          "[timeline]") {
  const fs::path dir = fs::temp_directory_path() / ("dcsim-timeline-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  using dcsim::tools::output::TimelineFile;
  CHECK_THROWS_WITH(TimelineFile(dir), Catch::Contains("is a directory"));
  CHECK_THROWS_WITH(TimelineFile(dir / "no-such" / "t.json"), Catch::Contains("does not exist"));
  CHECK_THROWS_AS(TimelineFile(""), dcsim::sim::InputError);
  CHECK(fs::is_empty(dir));
  {
    // Not committed (a failed run): the temporary goes, nothing is left.
    TimelineFile file(dir / "t.json");
    CHECK(!fs::is_empty(dir));
  }
  CHECK(fs::is_empty(dir));
  {
    // Committed: only the final file, and it replaces an earlier one.
    std::ofstream(dir / "t.json") << "old";
    TimelineFile file(dir / "t.json");
    dcsim::tools::output::TimelineRecorder recorder(nullptr);
    file.write(recorder.records(), {"t", 1, "test", {}, 0});
    file.commit();
  }
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
  std::ifstream in(dir / "t.json");
  const auto doc = nlohmann::json::parse(in);
  for (const auto& e : doc.at("traceEvents")) CHECK(e.at("ph") == "M");  // nothing recorded: names only
  fs::remove_all(dir);
}

TEST_CASE("training_steps: pieces cut by clock changes are contiguous in time and steps, each as long as its steps take",
          "[timeline]") {
  // 20 days of the token-cost fleet under its facility: throttling and power capping change the
  // clock mid-segment, so pieces end at fractional steps; the next piece of the run goes on from
  // there, and every piece lasts (to_step - from_step) x step_s.
  const auto run = run_file("scenarios/token-cost-llama3-70b.json", {"duration=20 d"});
  const auto& t = run->sink.table("training_steps");
  const auto col = [&](const std::string& name) {
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      if (t.columns[i].name == name) return i;
    }
    FAIL("no column " << name);
    return std::size_t{0};
  };
  const std::size_t start = col("start_ns"), end = col("end_ns"), job = col("job"), ck_end = col("checkpoint_end_ns"),
                    from = col("from_step"), to = col("to_step"), step = col("step_s"), c = col("compute_s"),
                    m = col("exposed_comm_s"), b = col("bubble_s"), cut = col("interrupted");
  std::map<std::string, std::size_t> last;  // job -> its previous steps row
  int fractional = 0;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const auto& row = t.rows[r];
    INFO("row " << r);
    const double f = std::get<double>(row[from]), e = std::get<double>(row[to]), s = std::get<double>(row[step]);
    fractional += f != std::floor(f);
    CHECK(std::get<double>(row[c]) + std::get<double>(row[m]) + std::get<double>(row[b]) == Approx(s).epsilon(1e-12));
    const auto ns = static_cast<double>(std::get<std::int64_t>(row[end]) - std::get<std::int64_t>(row[start]));
    // An activity ends on the first whole nanosecond its work is done: a nanosecond or two more.
    CHECK(ns == Approx((e - f) * s * 1e9).margin(2.0));
    const std::string name = std::get<std::string>(row[job]);
    const auto it = last.find(name);
    if (it != last.end()) {
      // A piece (and the checkpoint after it) cut by a clock change goes on where it stopped.
      const auto& prev = t.rows[it->second];
      const std::int64_t prev_last = std::max(std::get<std::int64_t>(prev[end]), std::get<std::int64_t>(prev[ck_end]));
      if (prev_last == std::get<std::int64_t>(row[start]) && std::get<std::int64_t>(prev[cut]) == 0) {
        CHECK(std::get<double>(prev[to]) == f);
      }
    }
    last[name] = r;
  }
  CHECK(fractional > 100);
  // And the timeline joins the cut steps back up: every step slice's parts add up.
  for (int pid = 10; pid < 30; ++pid) {
    for (const auto& s : step_slices(run->doc, pid)) CHECK(s.parts_us == Approx(s.slice.at("dur").get<double>()).margin(5e-3));
  }
}

TEST_CASE("timeline: slices nest and meet exactly when a viewer adds ts + dur in double arithmetic",
          "[timeline]") {
  // speedscope (a real Chrome-trace viewer, tests/browser/check_timeline_viewer.py) ends a slice at
  // ts + dur computed in doubles and sorts the ends against the next slice's start; an end one
  // ulp late made it read a step's last child as outliving the step and give up on the file.
  // Here no tolerance: on every thread, a slice inside another ends no later than it, and
  // consecutive slices at one depth never overlap.
  const auto run = run_file("scenarios/failover-policies.json", {"duration=\"1 d\""});
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> open;  // thread -> stack of (ts, end)
  std::size_t slices = 0, nested = 0;
  for (const auto& e : run->doc.at("traceEvents")) {
    if (e.at("ph") != "X") continue;
    ++slices;
    const double ts = e.at("ts").get<double>(), end = ts + e.at("dur").get<double>();
    auto& stack = open[{e.at("pid").get<int>(), e.at("tid").get<int>()}];
    while (!stack.empty() && stack.back().second <= ts) stack.pop_back();  // ended before this starts
    if (!stack.empty()) {
      ++nested;
      INFO(e.dump());
      CHECK(end <= stack.back().second);  // inside its parent, not an ulp past it
    }
    stack.emplace_back(ts, end);
  }
  CHECK(slices > 1000);
  CHECK(nested > 1000);  // the step children
}
