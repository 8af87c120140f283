#pragma once
// Runs one loaded scenario: builds the engine and the models from the scenario's configs, drives
// the simulation, and writes the outputs. The CLI's `run` is a thin wrapper around this.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "sim/trace_sink.hpp"
#include "tools/output/timeline_file.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::run {

struct RunStats {
  std::uint64_t events = 0;
  double wall_s = 0.0;   // building the models and simulating
  double write_s = 0.0;  // writing trace.h5 and summary.json (run_to_directory)
  double timeline_s = 0.0;  // writing the timeline (run_to_directory with a timeline)
  double simulated_s = 0.0;
};

// Progress callback: (simulated time, fraction done, events executed so far).
using ProgressFn = std::function<void(sim::Time, double, std::uint64_t)>;
// Phase callback: what the run does now, for the work that has no events to count ("building
// the models", "writing out/trace.h5").
using PhaseFn = std::function<void(const std::string&)>;

// Simulates into any sink (MemoryTraceSink in tests). Throws sim::InputError for configs a
// model rejects, with the JSON pointer when the field maps to one, and Interrupted
// (interrupt.hpp) when a SIGINT or SIGTERM stopped it.
RunStats simulate(const scenario::Scenario& scenario, const models::ModelRegistries& registries,
                  sim::TraceSink& sink, const ProgressFn& progress = {}, const PhaseFn& phase = {});

struct RunOutputs {
  RunStats stats;
  nlohmann::json summary;  // what summary.json holds
  std::filesystem::path trace_file;
  std::filesystem::path summary_file;
};

// Simulates and writes trace.h5 and summary.json into `output_dir`, each complete or not at all.
// With `timeline` (opened before, so that a bad path fails before the run), also the run's
// timeline JSON (tools/output/timeline_json.hpp), renamed into place after summary.json.
// Issue 37 item 2: the plans the scenario left to the search ("parallelism": {"auto": true}),
// under training/plans/<job>/, where users look for them; known before the run.
void report_plan_searches(const scenario::Scenario& scenario, sim::TraceSink& sink);

RunOutputs run_to_directory(const scenario::Scenario& scenario,
                            const models::ModelRegistries& registries,
                            const std::filesystem::path& output_dir,
                            const ProgressFn& progress = {}, const PhaseFn& phase = {},
                            output::TimelineFile* timeline = nullptr);

}  // namespace dcsim::tools::run
