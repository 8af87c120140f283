#include "tools/bench/facility_bench.hpp"

#include <chrono>
#include <string>

#include "models/cluster/cluster_simulation.hpp"
#include "models/datacenter/facility_coupling.hpp"
#include "models/facility/facility_simulation.hpp"
#include "models/model_registries.hpp"
#include "sim/simulator.hpp"
#include "tools/bench/process_memory.hpp"

namespace dcsim::tools::bench {

namespace {

// Counts what a model emits and keeps nothing: the benchmark times the models.
class CountingSink final : public sim::TraceSink {
 public:
  sim::SeriesId declare_series(const std::string&, const std::string&, const std::string&) override {
    return next_series_++;
  }
  void append(sim::SeriesId, sim::Time, double) override { ++points_; }
  sim::TableId declare_table(const std::string&, std::vector<sim::Column>) override { return next_table_++; }
  void append_row(sim::TableId, std::vector<sim::Cell>) override { ++rows_; }
  void set_summary(const std::string&, sim::SummaryValue) override {}
  std::uint64_t points_ = 0, rows_ = 0;

 private:
  sim::SeriesId next_series_ = 0;
  sim::TableId next_table_ = 0;
};

}  // namespace

nlohmann::json run_facility_bench(int nodes, double days, double tick_s) {
  models::ModelRegistries reg;
  models::register_builtin_models(reg);
  const models::facility::FacilityRegistries facility_registries{reg.cooling_controls, reg.power_capping};
  models::cluster::ClusterConfig c;
  c.node = reg.node_presets.get("hgx-h100").factory();
  c.nodes = nodes;
  c.nodes_per_rack = 4;
  c.duration = sim::Time::from_seconds(days * 86400.0);
  c.telemetry_interval = sim::Time::from_seconds(tick_s);
  // Every node runs 11-hour jobs back to back (an hour apart per node), utilisation 0.9.
  const int per_node = static_cast<int>(days * 24.0 / 12.0) + 1;
  for (int n = 0; n < nodes; ++n) {
    for (int k = 0; k < per_node; ++k) {
      models::workload::JobSpec j;
      j.name = "n" + std::to_string(n) + "-" + std::to_string(k);
      j.arrival = sim::Time::from_seconds(k * 12.0 * 3600.0 + n * 60.0);
      j.work = sim::Time::from_s(11 * 3600);
      j.gpu_utilization = 0.9;
      c.jobs.push_back(j);
    }
  }
  models::facility::FacilityConfig f;
  f.tick = sim::Time::from_seconds(tick_s);
  f.outdoor.kind = models::thermal::OutdoorProfile::Kind::kSinusoid;
  f.outdoor.amplitude_c = 8.0;
  const auto wall0 = std::chrono::steady_clock::now();
  CountingSink sink;
  sim::Simulator s;
  models::cluster::ClusterSimulation cluster(c, reg, s, sink);
  models::facility::FacilitySimulation fac(f, nodes, c.nodes_per_rack, 1, facility_registries, s, sink);
  models::datacenter::couple_facility(cluster, fac, c.duration);
  cluster.start();
  fac.start();
  s.run_until(c.duration);
  cluster.finish();
  fac.finish();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return {{"nodes", nodes},
          {"gpus", nodes * c.node.gpus},
          {"simulated_days", days},
          {"tick_s", tick_s},
          {"events", s.events_executed()},
          {"series_points", sink.points_},
          {"wall_s", wall},
          {"peak_rss_mb", peak_rss_mb()},
          {"pue", fac.facility_energy_j() / fac.it_energy_j()},
          {"max_gpu_c", fac.max_gpu_c()}};
}

}  // namespace dcsim::tools::bench
