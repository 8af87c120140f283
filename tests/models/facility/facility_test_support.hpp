#pragma once
// A small cluster under a FacilitySimulation, for the facility tests: every node runs one job at
// full utilisation; the run's summary, series and events are kept in memory.

#include <memory>
#include <string>

#include "models/cluster/cluster_simulation.hpp"
#include "models/datacenter/facility_coupling.hpp"
#include "models/facility/facility_simulation.hpp"
#include "models/model_registries.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::tests {

inline constexpr double kConservationTol = 1e-3;  // issue 5: 0.1%

struct Result {
  double makespan_s, max_gpu_c, throttled_gpu_s, pue, it_kwh, total_kwh, cluster_kwh, balance_error,
      liquid_fraction;
  std::size_t events;
  sim::MemoryTraceSink sink;
  double num(const std::string& path) const { return std::get<double>(sink.summary(path).value); }
  double last(const std::string& series) const { return sink.series(series).value.back(); }
};

// `nodes` H100 nodes (racks of `per_rack`) each running a `work_h`-hour job at full utilisation,
// `hours` simulated. Default: 8 nodes, 2 racks of 4, 2-hour jobs, 3 hours.
inline std::unique_ptr<Result> run(models::facility::FacilityConfig f, double hours = 3.0, double work_h = 2.0,
                                   int nodes = 8, int per_rack = 4, double arrival_h = 0.0) {
  models::ModelRegistries reg;
  models::register_builtin_models(reg);
  const models::facility::FacilityRegistries facility_registries{reg.cooling_controls, reg.power_capping};
  models::cluster::ClusterConfig c;
  c.node = reg.node_presets.get("hgx-h100").factory();
  c.nodes = nodes;
  c.nodes_per_rack = per_rack;
  for (int i = 0; i < nodes; ++i) {
    c.jobs.push_back({});
    c.jobs.back().name = "j" + std::to_string(i);
    c.jobs.back().work = sim::Time::from_seconds(work_h * 3600);
    c.jobs.back().arrival = sim::Time::from_seconds(arrival_h * 3600);
  }
  c.duration = sim::Time::from_seconds(hours * 3600);
  auto r = std::make_unique<Result>();
  sim::Simulator s;
  models::cluster::ClusterSimulation cluster(c, reg, s, r->sink);
  models::facility::FacilitySimulation fac(f, c.nodes, c.nodes_per_rack, 1, facility_registries, s, r->sink);
  models::datacenter::couple_facility(cluster, fac, c.duration);
  cluster.start();
  fac.start();
  s.run_until(c.duration);
  cluster.finish();
  fac.finish();
  r->makespan_s = r->num("makespan_s");
  r->max_gpu_c = r->num("thermal/max_gpu_c");
  r->throttled_gpu_s = r->num("thermal/throttled_gpu_s");
  r->pue = r->num("facility/pue");
  r->it_kwh = r->num("facility/it_energy_kwh");
  r->total_kwh = r->num("facility/total_energy_kwh");
  r->cluster_kwh = r->num("energy/it_kwh");
  r->balance_error = r->num("thermal/energy_balance_error");
  r->liquid_fraction = r->num("thermal/liquid_fraction");
  r->events = r->sink.table("facility").rows.size();
  return r;
}

inline bool has_event(const Result& r, const std::string& kind) {
  for (const auto& row : r.sink.table("facility").rows) {
    if (std::get<std::string>(row[1]) == kind) return true;
  }
  return false;
}

}  // namespace dcsim::tests
