#include "tools/scenario/run_resources.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "models/inference/serving_curve.hpp"
#include "models/storage/crush_placement.hpp"

namespace dcsim::tools::scenario {

namespace {

// A part of the estimate with the key that makes it large: the refusal points at the largest.
struct Located {
  std::string pointer;
  double size = 0;
};

void keep_largest(Located& largest, double size, const std::string& pointer) {
  if (size > largest.size) largest = {pointer, size};
}

// Ticks of `period` over `horizon`; 0 for an open-ended run or no period (not estimated).
double ticks(sim::Time horizon, sim::Time period) {
  if (horizon.is_max() || period <= sim::Time::zero()) return 0;
  return static_cast<double>(horizon.ns()) / static_cast<double>(period.ns());
}

// Requests a stream brings over the run: its mean rate over [start, stop) or its trace.
double expected_requests(const models::inference::RequestStreamConfig& q, sim::Time horizon) {
  using Kind = models::inference::RequestStreamConfig::Kind;
  if (q.kind == Kind::kTrace) return static_cast<double>(q.trace.size());
  const sim::Time stop = std::min(q.stop, horizon);
  if (stop.is_max() || stop <= q.start) return 0;
  if (q.kind == Kind::kClosedLoop) {
    // An upper bound: no answer comes back faster than one 10 ms round (an engine iteration or
    // two and the gateway), so a client asks at most once per think_time + 10 ms.
    return q.clients * (stop - q.start).seconds() / (q.think_time.seconds() + 0.01);
  }
  double rate = q.rate_per_s;  // Poisson, and the diurnal mean
  if (q.kind == Kind::kBursty && q.burst_every > sim::Time::zero()) {
    const double in_burst = std::min(1.0, q.burst_length.seconds() / q.burst_every.seconds());
    rate += in_burst * std::max(0.0, q.burst_rate_per_s - q.rate_per_s);
  }
  return rate * (stop - q.start).seconds();
}

// Random faults over the run, each class at rate x scale x its instances (an upper bound: a
// component under repair does not fail again).
double expected_faults(const models::reliability::FaultModelConfig& r, sim::Time horizon) {
  if (horizon.is_max()) return 0;
  double per_hour = 0;
  for (const auto& c : r.classes) {
    per_hour += c.rate_per_hour * r.scale * static_cast<double>(r.inventory.count(c.component));
  }
  return per_hour * horizon.seconds() / 3600.0;
}

}  // namespace

sim::Time run_horizon(const Scenario& s) {
  sim::Time horizon = s.duration;
  if (horizon.is_max() && s.has_cluster && s.cluster.generators.empty() && s.cluster.training_jobs.empty()) {
    std::int64_t end_ns = 0;
    for (const auto* list : {&s.cluster.jobs, &s.cluster.trace_jobs}) {
      for (const auto& job : *list) end_ns = std::max(end_ns, job.arrival.ns());
    }
    for (const auto* list : {&s.cluster.jobs, &s.cluster.trace_jobs}) {
      for (const auto& job : *list) {
        end_ns = end_ns > sim::Time::max().ns() - job.work.ns() ? sim::Time::max().ns() - 1 : end_ns + job.work.ns();
      }
    }
    horizon = sim::Time::from_ns(end_ns);
  }
  return horizon;
}

void check_run_resources(const Scenario& s, const models::ModelRegistries& registries, const ResourceLimits& limits) {
  const sim::Time horizon = run_horizon(s);
  MemoryEstimate memory;
  Located memory_at{"/cluster/nodes", 0};
  const auto add_memory = [&](const MemoryEstimate& part, const std::string& where) {
    memory.add(part);
    keep_largest(memory_at, part.total_bytes(), where);
  };
  TimeEstimate time;
  Located time_at{"/duration", 0};
  const auto add_time = [&](std::string what, double seconds, const std::string& where) {
    time.add(std::move(what), seconds);
    keep_largest(time_at, seconds, where);
  };
  // Series and points written to the trace, summed over the parts that write many.
  double series = 0;
  double points = 0;

  if (s.has_cluster) {
    const auto& c = s.cluster;
    add_memory(cluster_memory(c), "/cluster/nodes");
    const double racks = std::ceil(static_cast<double>(c.nodes) / std::max(1, c.nodes_per_rack));
    const double rack_series = c.racks_per_power_series > 0 ? std::ceil(racks / c.racks_per_power_series) : 0;
    const double cluster_series = 4 + rack_series + 2 * static_cast<double>(c.training_jobs.size());
    add_memory(output_memory(rack_series, "rack power series"), "/outputs/rack_power");
    // Every tick sums the racks and samples every series (ClusterSimulation::on_telemetry_tick).
    const double telemetry = ticks(horizon, c.telemetry_interval);
    add_time(fmt::format("{:.3g} telemetry ticks over {:.0f} racks", telemetry, racks),
             telemetry * racks * kSecondsPerRackSum, "/outputs/telemetry_interval");
    add_time(fmt::format("writing {:.3g} rack power series", rack_series),
             output_write_s(rack_series, telemetry * rack_series), "/outputs/rack_power");
    series += cluster_series - rack_series;
    points += telemetry * (cluster_series - rack_series);
  }
  for (const auto* network : {&s.fabric, &s.frontend}) {
    if (!*network) continue;
    const FabricScenario& n = **network;
    add_memory(fabric_memory(registries.topologies.get(n.topology).factory.size(n.topology_config)), n.section);
  }
  if (s.traffic) add_memory(traffic_memory(static_cast<double>(s.traffic->records.size())), "/traffic");
  if (s.facility && s.has_cluster) {
    // Each tick steps every thermal path (a GPU's, or a node's at node resolution) and samples
    // the facility's and zones' series.
    const double facility_ticks = ticks(horizon, s.facility->tick);
    const bool per_node = s.facility->thermal_resolution == models::facility::FacilityConfig::ThermalResolution::kNode;
    const double paths = static_cast<double>(s.cluster.nodes) * (per_node ? 1 : s.cluster.node.gpus);
    add_time(fmt::format("{:.3g} facility ticks over {:.3g} thermal paths", facility_ticks, paths),
             facility_ticks * paths * kSecondsPerGpuStep, "/facility/tick");
    const std::size_t zones =
        s.facility->zones.empty() ? static_cast<std::size_t>(s.facility->halls) : s.facility->zones.size();
    const double zone_series = 9 + 6 * static_cast<double>(zones);
    series += zone_series;
    points += facility_ticks * zone_series;
  }
  if (s.reliability) {
    const double faults = expected_faults(*s.reliability, horizon);
    add_time(fmt::format("{:.3g} random faults expected", faults), faults * kSecondsPerFault, "/reliability/scale");
  }
  for (std::size_t i = 0; i < s.inference.size(); ++i) {
    const auto& service = s.inference[i];
    const std::string at = "/inference/services/" + std::to_string(i) + "/requests";
    const double requests = expected_requests(service.requests, horizon);
    if (models::inference::runs_fluid(service)) {
      // Fluid: per step, O(replicas) plus the strata (fluid_steps.cpp), whatever the requests,
      // at the most replicas it may have (its mean is not known before it runs); and its curves,
      // each at most kCurveIterationBudget engine iterations (~0.3 us each), at most four per
      // service.
      const double steps = ticks(horizon, service.fluid_step);
      add_time(fmt::format("{:.3g} fluid steps of service '{}'", steps, service.name),
               steps * (kSecondsPerFluidStep + service.max_replicas * kSecondsPerFluidReplicaStep) +
                   4 * models::inference::kCurveIterationBudget * kSecondsPerCurveIteration,
               "/inference/services/" + std::to_string(i) + "/fluid_step");
      series += 7;
      points += 7 * ticks(horizon, service.sample_every);
      continue;
    }
    MemoryEstimate kept;
    kept.add(fmt::format("{:.3g} requests of service '{}'", requests, service.name), requests * kBytesPerRequest);
    add_memory(kept, at);
    add_time(fmt::format("{:.3g} requests of service '{}'", requests, service.name), requests * kSecondsPerRequest,
             at);
    series += 7;
    points += 7 * ticks(horizon, service.sample_every);
  }
  if (s.storage) {
    const auto& store = s.storage->store;
    const double osds = static_cast<double>(store.hosts.size()) * store.drives_per_host;
    // Every placement group weighs every OSD (CrushPlacement::place), at the start and again at
    // each OSD or host going out or coming back.
    const double replacements = 1 + 2 * static_cast<double>(s.storage->faults.size());
    double steps = 0;
    double acting_bytes = 0;
    for (const auto& pool : store.pools) {
      const double pgs = pool.pg_count > 0
                             ? pool.pg_count
                             : models::storage::default_pg_count(static_cast<int>(std::min(osds, 2e9)), pool.width());
      steps += pgs * (osds + store.drives_per_host) * replacements;
      acting_bytes += pgs * (pool.width() + 1) * sizeof(int);
    }
    add_time(fmt::format("placing the store's placement groups over {:.3g} OSDs", osds),
             steps * kSecondsPerPlacementStep, "/storage/drives_per_host");
    MemoryEstimate placement;
    placement.add("the store's placement groups", acting_bytes);
    add_memory(placement, "/storage/pools");
  }
  add_time(fmt::format("writing {:.3g} other series, {:.3g} points", series, points), output_write_s(series, points),
           "/outputs/telemetry_interval");
  check_memory(memory, limits, s.source, memory_at.pointer);
  if (s.has_cluster) {
    check_periodic_steps(horizon, s.cluster.telemetry_interval, limits, s.source, "/outputs/telemetry_interval");
  }
  if (s.facility && s.has_cluster) check_periodic_steps(horizon, s.facility->tick, limits, s.source, "/facility/tick");
  check_time(time, limits, s.source, time_at.pointer);
}

}  // namespace dcsim::tools::scenario
