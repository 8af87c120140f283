#pragma once
// Runs a scenario into a TimelineRecorder (forwarding to a MemoryTraceSink) and writes its
// timeline JSON to a string; structure checks every timeline test applies.

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "sim/trace_sink.hpp"
#include "tools/output/timeline_json.hpp"
#include "tools/output/timeline_recorder.hpp"
#include "tools/run/run_scenario.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::timeline_testing {

using tools::output::TimelineOptions;

struct Run {
  sim::MemoryTraceSink sink;  // what trace.h5 would hold
  std::string text;           // the timeline file's bytes
  nlohmann::json doc;         // parsed
  std::int64_t end_ns = 0;
};

inline std::unique_ptr<Run> run_timeline(const tools::scenario::Scenario& scenario,
                                         const models::ModelRegistries& registries,
                                         const TimelineOptions& options = {}) {
  auto r = std::make_unique<Run>();
  tools::output::TimelineRecorder recorder(&r->sink, options.records);
  const auto stats = tools::run::simulate(scenario, registries, recorder);
  r->end_ns = sim::Time::from_seconds(stats.simulated_s).ns();
  const tools::output::TimelineMeta meta{scenario.name, scenario.seed, "test", scenario.overrides, r->end_ns};
  std::ostringstream out;
  tools::output::write_timeline_json(out, recorder.records(), meta, options);
  r->text = out.str();
  r->doc = nlohmann::json::parse(r->text);  // throws (fails the test) when it does not parse
  return r;
}

inline std::unique_ptr<Run> run_file(const std::string& scenario_file, const std::vector<std::string>& sets = {},
                                     const TimelineOptions& options = {}) {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  const auto scenario = tools::scenario::load_scenario_file(std::string(DCSIM_SOURCE_DIR) + "/" + scenario_file,
                                                            sets, {}, registries);
  return run_timeline(scenario, registries, options);
}

inline std::unique_ptr<Run> run_json(const nlohmann::json& doc, const TimelineOptions& options = {}) {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  const auto scenario = tools::scenario::load_scenario_json(doc, "<test>", {}, {}, registries);
  return run_timeline(scenario, registries, options);
}

// Every event has the fields a viewer needs for its phase type (the Trace Event Format).
inline void check_structure(const nlohmann::json& doc) {
  REQUIRE(doc.contains("traceEvents"));
  CHECK(doc.at("displayTimeUnit") == "ms");
  for (const char* key : {"scenario", "seed", "dcsim_version"}) CHECK(doc.at("otherData").contains(key));
  for (const auto& e : doc.at("traceEvents")) {
    INFO(e.dump());
    const std::string ph = e.at("ph");
    REQUIRE((ph == "M" || ph == "X" || ph == "i" || ph == "C"));
    CHECK(e.at("name").is_string());
    CHECK(e.at("pid").is_number_integer());
    if (ph != "C") CHECK(e.at("tid").is_number_integer());
    if (ph == "M") CHECK(e.at("args").is_object());
    if (ph != "M") {
      CHECK(e.at("ts").is_number());
      CHECK(e.at("ts").get<double>() >= 0.0);
    }
    if (ph == "X") {
      CHECK(e.at("cat").is_string());
      CHECK(e.at("dur").is_number());
      CHECK(e.at("dur").get<double>() > 0.0);
    }
    if (ph == "i") CHECK((e.at("s") == "t" || e.at("s") == "p" || e.at("s") == "g"));
    if (ph == "C") {
      REQUIRE(e.at("args").size() == 1);
      CHECK(e.at("args").begin()->is_number());
    }
  }
}

// Thread names of the jobs process (pid 1): tid -> name.
inline std::map<int, std::string> job_threads(const nlohmann::json& doc) {
  std::map<int, std::string> out;
  for (const auto& e : doc.at("traceEvents")) {
    if (e.at("ph") == "M" && e.at("name") == "thread_name" && e.at("pid") == 1) {
      out[e.at("tid").get<int>()] = e.at("args").at("name").get<std::string>();
    }
  }
  return out;
}

// The tid of job `name` (its thread is "<name> (<n> nodes)").
inline int job_tid(const nlohmann::json& doc, const std::string& name) {
  for (const auto& [tid, thread] : job_threads(doc)) {
    if (thread.rfind(name + " (", 0) == 0) return tid;
  }
  FAIL("no job track for " << name);
  return -1;
}

// Job phase slices of one job track, in time order.
inline std::vector<nlohmann::json> phases(const nlohmann::json& doc, int tid) {
  std::vector<nlohmann::json> out;
  for (const auto& e : doc.at("traceEvents")) {
    if (e.at("ph") == "X" && e.at("pid") == 1 && e.at("tid") == tid) out.push_back(e);
  }
  return out;
}

// Sum of phase durations by category (waiting, running, interrupted), in microseconds.
inline std::map<std::string, double> phase_sums(const nlohmann::json& doc, int tid) {
  std::map<std::string, double> out;
  for (const auto& e : phases(doc, tid)) out[e.at("cat").get<std::string>()] += e.at("dur").get<double>();
  return out;
}

}  // namespace dcsim::timeline_testing
