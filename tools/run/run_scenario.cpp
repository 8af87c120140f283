#include "tools/run/run_scenario.hpp"

#include <chrono>
#include <optional>

#include <fmt/format.h>

#include "models/facility/facility_simulation.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"
#include "tools/output/run_output.hpp"
#include "tools/output/timeline_recorder.hpp"
#include "tools/run/interrupt.hpp"
#include "tools/run/build_datacenter.hpp"
#include "tools/scenario/facility_mapping.hpp"
#include "tools/version.hpp"

namespace dcsim::tools::run {

namespace {

// Progress is polled every this many events (a clock read; the reporter redraws at most a few
// times a second): often enough that a run whose events take milliseconds each (a 100,000-node
// fabric) still shows its line within a second, cheap enough to vanish in the loop's cost.
constexpr std::uint64_t kProgressEveryEvents = 256;

}  // namespace

RunStats simulate(const scenario::Scenario& scenario, const models::ModelRegistries& registries,
                  sim::TraceSink& sink, const ProgressFn& progress, const PhaseFn& phase) {
  const auto wall_start = std::chrono::steady_clock::now();
  sim::Simulator simulator;
  // A SIGINT or SIGTERM (interrupt.hpp) ends the run at the next event.
  const ForwardInterrupts forward(simulator.stop_flag());
  if (phase) phase("building the models");
  const auto datacenter = build_datacenter(scenario, registries, simulator, sink);
  const sim::Time duration = scenario.duration;
  if (progress) {
    simulator.set_progress_observer(kProgressEveryEvents, [&] {
      const double fraction =
          !duration.is_max() ? simulator.now().seconds() / duration.seconds() : datacenter->progress_fraction();
      progress(simulator.now(), fraction, simulator.events_executed());
    });
  }
  throw_if_interrupted();
  if (phase) phase("starting");
  datacenter->start();
  try {
    if (duration.is_max()) {
      simulator.run();
    } else {
      simulator.run_until(duration);
    }
  } catch (const models::facility::CoolingShortfallError& e) {
    // The scenario asked for it (/facility/on_shortfall "error"): located at that key.
    throw scenario::facility_error(scenario.source, scenario.resolved, registries, e);
  }
  throw_if_interrupted();
  if (phase) phase("closing the accounts");
  datacenter->finish();
  // Deterministic, so they belong in summary.json: a changed count or fingerprint means the
  // event sequence changed (OMNeT++-style fingerprint for golden tests).
  sink.set_summary("engine/events", sim::SummaryValue{static_cast<std::int64_t>(simulator.events_executed()), "",
                                                      "events executed"});
  sink.set_summary("engine/fingerprint",
                   sim::SummaryValue{fmt::format("{:016x}", simulator.fingerprint()), "",
                                     "hash of the executed events' (time, priority, kind), in order"});
  sink.set_summary("engine/timing_fingerprint",
                   sim::SummaryValue{fmt::format("{:016x}", simulator.timing_fingerprint()), "",
                                     "hash of the executed events' (time, priority), in order: unchanged by "
                                     "refactors that only move or rename code"});
  report_plan_searches(scenario, sink);
  RunStats stats;
  stats.events = simulator.events_executed();
  stats.simulated_s = simulator.now().seconds();
  stats.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return stats;
}

void report_plan_searches(const scenario::Scenario& scenario, sim::TraceSink& sink) {
  for (const auto& [i, outcome] : scenario.plan_searches) {
    const auto& job = scenario.cluster.training_jobs[i].job;
    const std::string at = "training/plans/" + job.name + "/";
    const auto count = [&](const char* key, int v, const char* what) {
      sink.set_summary(at + key, sim::SummaryValue{static_cast<std::int64_t>(v), "", what});
    };
    sink.set_summary(at + "plan", sim::SummaryValue{outcome.plan, "", "the plan the search chose"});
    count("tp", job.parallelism.tp, "tensor parallelism chosen");
    count("pp", job.parallelism.pp, "pipeline stages chosen");
    count("cp", job.parallelism.cp, "context parallelism chosen");
    count("virtual_stages", job.parallelism.virtual_stages, "model chunks per stage chosen");
    count("micro_batch_size", job.micro_batch_size, "sequences per micro-batch chosen");
    count("plans_enumerated", outcome.enumerated, "plans the search formed");
    count("plans_pruned", outcome.pruned, "plans dropped before the step model (divisibility, memory)");
    count("plans_evaluated", outcome.evaluated, "plans the step model estimated");
    sink.set_summary(at + "runner_up", sim::SummaryValue{outcome.runner_up, "", "the next best plan"});
    sink.set_summary(at + "runner_up_tokens_per_s",
                     sim::SummaryValue{outcome.runner_up_tokens_per_s, "tokens/s", "the next best plan's throughput"});
  }
}

RunOutputs run_to_directory(const scenario::Scenario& scenario,
                            const models::ModelRegistries& registries,
                            const std::filesystem::path& output_dir, const ProgressFn& progress,
                            const PhaseFn& phase, output::TimelineFile* timeline) {
  output::RunOutput out(output_dir);
  output::RunMeta meta;
  meta.scenario_name = scenario.name;
  meta.scenario_given = scenario.given.dump(2);
  meta.scenario_resolved = scenario.resolved.dump(2);
  meta.dcsim_version = std::string(version());
  meta.seed = scenario.seed;
  meta.started_at = output::utc_now_iso8601();
  meta.source = scenario.source;
  meta.overrides = scenario.overrides;
  out.set_meta(meta);

  RunOutputs result;
  // A timeline keeps a copy of what it draws on the way to trace.h5 (models never see it).
  std::optional<output::TimelineRecorder> recorder;
  if (timeline != nullptr) recorder.emplace(&out.sink(), timeline->options().records);
  sim::TraceSink& sink = recorder ? static_cast<sim::TraceSink&>(*recorder) : out.sink();
  result.stats = simulate(scenario, registries, sink, progress, phase);
  result.summary = output::summary_json(out.writer().summary(), meta);
  if (timeline != nullptr) {
    if (phase) phase("writing " + timeline->path().string());
    const auto timeline_start = std::chrono::steady_clock::now();
    output::TimelineMeta timeline_meta{scenario.name, scenario.seed, meta.dcsim_version, scenario.overrides,
                                       sim::Time::from_seconds(result.stats.simulated_s).ns()};
    timeline->write(recorder->records(), timeline_meta);
    result.stats.timeline_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - timeline_start).count();
  }
  if (phase) phase("writing " + out.trace_path().string());
  // A signal while the files are written still leaves nothing complete-looking: checked after
  // they are written, before they get their final names.
  const auto write_start = std::chrono::steady_clock::now();
  out.commit(result.stats.wall_s, [] { throw_if_interrupted(); });
  result.stats.write_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - write_start).count();
  result.trace_file = out.trace_path();
  result.summary_file = out.summary_path();
  if (timeline != nullptr) timeline->commit();
  return result;
}

}  // namespace dcsim::tools::run
