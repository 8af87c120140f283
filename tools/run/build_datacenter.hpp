#pragma once
// A loaded scenario as a datacenter assembly (models/datacenter/datacenter.hpp): maps the
// scenario to the assembly's config and turns a part's config error into the scenario's JSON
// pointer. `run` builds one; `validate` builds one too (check_models_build) and passes only what
// `run` will start.

#include <memory>

#include "models/datacenter/datacenter.hpp"
#include "models/model_registries.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::run {

// The assembly's config. The fabric's flows point into `scenario`, which must outlive it.
models::datacenter::DatacenterConfig datacenter_config(const scenario::Scenario& scenario);

// Throws sim::InputError "<source>:<pointer>: <detail>" for a config a part rejects.
std::unique_ptr<models::datacenter::Datacenter> build_datacenter(const scenario::Scenario& scenario,
                                                                 const models::ModelRegistries& registries,
                                                                 sim::Simulator& simulator, sim::TraceSink& sink);

// What `validate` does after loading: builds the assembly as `run` would and schedules its first
// events (which expands job generators), runs nothing.
void check_models_build(const scenario::Scenario& scenario, const models::ModelRegistries& registries);

}  // namespace dcsim::tools::run
