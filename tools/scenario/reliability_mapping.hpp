#pragma once
// Resolved `reliability` section -> models::reliability::FaultModelConfig (Scenario::reliability):
// the preset's classes with /reliability/classes merged in by name, and the inventory of what can
// fail, counted from the scenario's cluster (nodes, GPUs, compute NICs), fabric (cables and
// switches, or /reliability/links and /reliability/switches) and facility (cooling zones).
// Checks what the per-key walk cannot: a new class without component, effect, rate or repair,
// both rate_per_hour and mtbf, a repeated class name, an effect that does not apply to the
// component. Throws sim::InputErrors, each message "<source>:<JSON pointer>: <problem>".

#include <string>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "models/reliability/fault_class.hpp"

namespace dcsim::tools::scenario {

struct Scenario;

// `scenario` has its cluster, fabric and facility mapped already.
models::reliability::FaultModelConfig map_reliability_section(const nlohmann::json& resolved, const Scenario& scenario,
                                                              const models::ModelRegistries& registries);

// /reliability/sdc_detection -> scenario.cluster.sdc_detection. Throws sim::InputErrors when a
// corruption can reach a job (a silent_data_corruption class that fires, a scripted one, a store
// that corrupts checkpoints and does not verify them) and the section is missing, or when it is
// given without a cluster. `scenario` has its reliability, node faults and storage mapped already.
void map_sdc_detection(Scenario& scenario);

}  // namespace dcsim::tools::scenario
